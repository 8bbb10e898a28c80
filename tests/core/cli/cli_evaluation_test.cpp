// The `gpprobe baseline` and `gpprobe evaluate` commands end to end: files in, CSV out equal to the
// scikit-learn / reference-run fixtures, and one stderr line per bad input.
#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include "cli_runner.h"
#include "evaluation/evaluation_fixtures.h"

namespace gpprobe {
namespace {

using testing::csv_of;
using testing::run_cli;
using testing::TempFile;

// The cells of a CSV text, header row first.
std::vector<std::vector<std::string>> cells_of(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> row;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(cell);
    rows.push_back(row);
  }
  return rows;
}

std::string lines_of(const std::vector<std::uint8_t>& values) {
  std::string s;
  for (auto v : values) s += std::to_string(int(v)) + "\n";
  return s;
}

TEST(CliBaseline, EachMethodReproducesTheScikitLearnFixture) {
  const nlohmann::json doc = testing::evaluation_fixture("baselines.json");
  const auto& c = doc["cases"][0];
  const TempFile obs("b_obs.csv", csv_of(testing::matrix_of(c["observations"])));
  const TempFile labels("b_labels.txt", lines_of(testing::labels_of(c["labels"])));
  const TempFile queries("b_q.csv", csv_of(testing::matrix_of(c["queries"])));
  const std::string files =
      " --observations " + obs.path() + " --labels " + labels.path() + " --queries " + queries.path();
  struct Expect {
    std::string args, header;
    nlohmann::json score, probability;
    double score_sign;
  };
  const std::vector<Expect> cases = {
      {"--method lp", "query,score,probability", c["lp"]["decision"], c["lp"]["probability"], 1},
      {"--method svm", "query,score", c["svm"]["decision"], nullptr, 1},
      {"--method lpe --seed 7 --members 12", "query,score,probability,episteme,alea", c["lpe"]["variance"],
       c["lpe"]["judged_probability"], -1},
      {"--method maha", "query,score", c["maha"]["distance"], nullptr, -1},
      {"--method knn --k 2", "query,score", c["knn"]["k2"], nullptr, -1},
  };
  for (const Expect& e : cases) {
    const testing::CliRun r = run_cli("baseline " + e.args + files);
    ASSERT_EQ(r.exit_code, 0) << e.args << ": " << r.err;
    const auto rows = cells_of(r.out);
    ASSERT_EQ(rows.size(), e.score.size() + 1) << e.args;
    std::string header;
    for (std::size_t k = 0; k < rows[0].size(); ++k) header += (k ? "," : "") + rows[0][k];
    EXPECT_EQ(header, e.header);
    for (std::size_t q = 0; q < e.score.size(); ++q) {
      EXPECT_EQ(rows[q + 1][0], std::to_string(q));
      const double expected = e.score_sign * e.score[q].get<double>();
      EXPECT_NEAR(std::stod(rows[q + 1][1]), expected, 1e-7 * std::max(1.0, std::fabs(expected))) << e.args << " " << q;
      if (!e.probability.is_null()) EXPECT_NEAR(std::stod(rows[q + 1][2]), e.probability[q].get<double>(), 1e-9);
    }
  }
  const auto msp = cells_of(run_cli("baseline --method msp" + files).out);
  for (std::size_t q = 0; q + 1 < msp.size(); ++q) {
    const double p = c["lp"]["probability"][q];
    EXPECT_NEAR(std::stod(msp[q + 1][1]), std::max(p, 1 - p), 1e-9);
    EXPECT_NEAR(std::stod(msp[q + 1][2]), p, 1e-9);
  }
}

TEST(CliBaseline, EachBadInputGivesOneLineNamingTheFileAndTheProblem) {
  const TempFile obs("bb_obs.csv", "1,0\n0,1\n1,1\n"), labels("bb_labels.txt", "1\n0\n1\n");
  const TempFile ones("bb_ones.txt", "1\n1\n1\n"), q("bb_q.csv", "0.5,0.5\n"), wide("bb_wide.csv", "0.5,0.5,1\n");
  const std::string good = " --observations " + obs.path() + " --labels " + labels.path() + " --queries " + q.path();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {good + " --method forest", "--method must be lp, svm, lpe, msp, maha or knn, got 'forest'"},
      {good, "missing --method"},
      {" --method lp --observations " + obs.path() + " --queries " + q.path(), "missing --labels"},
      {" --method svm --observations " + obs.path() + " --labels " + ones.path() + " --queries " + q.path(),
       ones.path() + ": svm needs observations of both classes; all 3 labels are 1"},
      {" --method knn --observations " + obs.path() + " --labels " + labels.path() + " --queries " + wide.path(),
       wide.path() + ": queries have 3 columns, observations have 2 columns"},
      {good + " --method knn --k 4", "knn: k must be between 1 and the number of observations (3), got 4"},
      {good + " --method lpe --members x", "--members expects a non-negative integer, got 'x'"},
  };
  for (const auto& [args, message] : cases) {
    const testing::CliRun r = run_cli("baseline" + args);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_EQ(r.err, "gpprobe baseline: " + message + "\n") << args;
  }
}

struct EvaluationFiles {
  TempFile embeddings, labels, ood, mask;
  explicit EvaluationFiles(const nlohmann::json& doc)
      : embeddings("e_embeddings.csv", csv_of(testing::matrix_of(doc["embeddings"]))),
        labels("e_labels.txt", lines_of(testing::labels_of(doc["labels"]))),
        ood("e_ood.csv", csv_of(testing::matrix_of(doc["ood"]))),
        mask("e_mask.txt", lines_of(testing::labels_of(doc["query_mask"]))) {}
};

TEST(CliEvaluate, CurvesAreTheMeanAndSdOfTheReferenceTrials) {
  const nlohmann::json doc = testing::evaluation_fixture("experiments.json");
  const EvaluationFiles f(doc);
  for (const auto& run : doc["runs"]) {
    const auto& o = run["options"];
    std::string args = "evaluate --embeddings " + f.embeddings.path() + " --labels " + f.labels.path() + " --ood " +
                       f.ood.path() + " --experiment " + run["experiment"].get<std::string>() + " --trials " +
                       std::to_string(o["trials"].get<int>()) + " --seed " + std::to_string(o["seed"].get<int>()) +
                       " --max-observations 16 --max-queries 12" + " --members 8 --k 2";
    if (run["uses_mask"]) args += " --query-mask " + f.mask.path();
    const testing::CliRun r = run_cli(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = cells_of(r.out);
    const auto counts = run["observation_counts"].get<std::vector<int>>();
    ASSERT_EQ(rows.size(), 1 + run["curves"].size() * counts.size());
    EXPECT_EQ(rows[0], (std::vector<std::string>{"method", "metric", "observations", "mean", "sd", "trials"}));
    std::size_t k = 1;
    for (const auto& curve : run["curves"]) {
      for (std::size_t j = 0; j < counts.size(); ++j, ++k) {
        const double a = curve["values"][0][j], b = curve["values"][1][j];
        EXPECT_EQ(rows[k][0], curve["method"].get<std::string>());
        EXPECT_EQ(rows[k][1], run["experiment"] == "fuzzy" ? "pearson" : "auroc");
        EXPECT_EQ(rows[k][2], std::to_string(counts[j]));
        EXPECT_NEAR(std::stod(rows[k][3]), (a + b) / 2, 1e-8);
        EXPECT_NEAR(std::stod(rows[k][4]), std::fabs(a - b) / std::sqrt(2.0), 1e-8);
        EXPECT_EQ(rows[k][5], "2");
      }
    }
  }
}

TEST(CliEvaluate, ClassifierAddsTheClassificationProbesToProbing) {
  const nlohmann::json doc = testing::evaluation_fixture("experiments.json");
  const EvaluationFiles f(doc);
  const std::string args = "evaluate --embeddings " + f.embeddings.path() + " --labels " + f.labels.path() +
                           " --experiment probing --trials 2 --max-observations 16 --max-queries 12 --members 8";
  const testing::CliRun plain = run_cli(args), gpc = run_cli(args + " --gpc");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(gpc.exit_code, 0) << gpc.err;
  const auto without = cells_of(plain.out), with = cells_of(gpc.out);
  const std::size_t points = (without.size() - 1) / 4;
  ASSERT_EQ(with.size(), 1 + 6 * points);
  for (std::size_t k = 0; k < without.size(); ++k) EXPECT_EQ(with[k], without[k]);  // the other probes unchanged
  for (std::size_t k = 0; k < 2 * points; ++k) {
    const auto& row = with[without.size() + k];
    EXPECT_EQ(row[0], k < points ? "gpc-laplace" : "gpc-ep");
    EXPECT_EQ(row[1], "auroc");
    EXPECT_GE(std::stod(row[3]), 0.0);
    EXPECT_LE(std::stod(row[3]), 1.0);
  }
  // Up to O = 4: the GPC rows stop there.
  const testing::CliRun capped = run_cli(args + " --gpc --gpc-max-observations 4");
  ASSERT_EQ(capped.exit_code, 0) << capped.err;
  const auto part = cells_of(capped.out);
  ASSERT_EQ(part.size(), without.size() + 4);
  for (std::size_t k = 0; k < part.size(); ++k) {
    if (k < without.size()) EXPECT_EQ(part[k], without[k]);
    else EXPECT_EQ(part[k], with[without.size() + (k - without.size()) % 2 + (k - without.size()) / 2 * points]);
  }
  const testing::CliRun fuzzy = run_cli("evaluate --embeddings " + f.embeddings.path() + " --labels " +
                                        f.labels.path() + " --experiment fuzzy --gpc");
  EXPECT_EQ(fuzzy.err, "gpprobe evaluate: --gpc applies to --experiment probing only\n");
  EXPECT_EQ(run_cli(args + " --gpc-max-observations 4").err,
            "gpprobe evaluate: --gpc-max-observations only applies with --gpc\n");
}

TEST(CliEvaluate, WritesTheFuzzyCloudsWhenAsked) {
  const nlohmann::json doc = testing::evaluation_fixture("experiments.json");
  const EvaluationFiles f(doc);
  const TempFile clouds("e_clouds.csv"), curves("e_curves.csv");
  const testing::CliRun r =
      run_cli("evaluate --embeddings " + f.embeddings.path() + " --labels " + f.labels.path() +
              " --experiment fuzzy --trials 1 --seed 11 --max-observations 16" +
              " --max-queries 12 --members 8 --out " + curves.path() + " --clouds " + clouds.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  std::ifstream in(clouds.path());
  std::stringstream text;
  text << in.rdbuf();
  const auto rows = cells_of(text.str());
  EXPECT_EQ(rows[0], (std::vector<std::string>{"method", "label_probability", "observations", "row",
                                               "judged_probability", "episteme", "alea"}));
  const auto& expected = doc["runs"][2]["clouds"];
  std::size_t points = 0;
  for (const auto& c : expected) points += c["rows"].size();
  ASSERT_EQ(rows.size(), 1 + points);
  const auto& first = expected[0];
  EXPECT_EQ(rows[1][0], first["method"].get<std::string>());
  EXPECT_EQ(std::stod(rows[1][1]), first["label_probability"].get<double>());
  EXPECT_EQ(rows[1][3], std::to_string(first["rows"][0].get<int>()));
  EXPECT_NEAR(std::stod(rows[1][4]), first["judged_probability"][0].get<double>(), 1e-8);
}

TEST(CliEvaluate, EachBadInputGivesOneLineNamingTheFileAndTheProblem) {
  const nlohmann::json doc = testing::evaluation_fixture("experiments.json");
  const EvaluationFiles f(doc);
  const TempFile short_labels("e_short.txt", "1\n0\n1\n");
  const TempFile narrow("e_narrow.csv", "1,2\n3,4\n");
  std::string bad_mask_text = lines_of(testing::labels_of(doc["query_mask"]));
  bad_mask_text.replace(0, 1, "7");
  const TempFile bad_mask("e_badmask.txt", bad_mask_text);
  const std::string e = " --embeddings " + f.embeddings.path(), l = " --labels " + f.labels.path();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {e + l, "missing --experiment"},
      {e + l + " --experiment speed", "--experiment must be probing, fuzzy or ood, got 'speed'"},
      {e + l + " --experiment ood", "--experiment ood needs --ood FILE"},
      {e + " --labels " + short_labels.path() + " --experiment probing",
       short_labels.path() + ": labels have 3 entries, embeddings have 48 rows"},
      {e + l + " --ood " + narrow.path() + " --experiment ood",
       narrow.path() + ": ood embeddings have 2 columns, embeddings have 6 columns"},
      {e + l + " --query-mask " + bad_mask.path() + " --experiment probing",
       bad_mask.path() + ": label on data line 1 is 7; labels must be 0 or 1"},
      {e + l + " --experiment probing --trials 0", "--trials must be at least 1, got 0"},
      {e + l + " --experiment probing --max-observations 1", "--max-observations must be at least 2, got 1"},
      {" --embeddings /nonexistent/e.npy" + l + " --experiment probing", "/nonexistent/e.npy: cannot open file"},
  };
  for (const auto& [args, message] : cases) {
    const testing::CliRun r = run_cli("evaluate" + args);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_EQ(r.err, "gpprobe evaluate: " + message + "\n") << args;
  }
}

TEST(CliEvaluate, HelpListsTheNewCommands) {
  const testing::CliRun help = run_cli("help");
  EXPECT_NE(help.out.find("baseline --method lp|svm|lpe|msp|maha|knn"), std::string::npos);
  EXPECT_NE(help.out.find("evaluate --embeddings FILE --labels FILE [--ood FILE] --experiment probing|fuzzy|ood"),
            std::string::npos);
}

}  // namespace
}  // namespace gpprobe
