// The `gpprobe gpc` command end to end: golden numbers through CSV, the exact header, 17 significant
// digits, the JSON line's fields, defaults, both label conventions, and one stderr line per bad input.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "classification/gpc_fixtures.h"
#include "cli_runner.h"

namespace gpprobe {
namespace {

using testing::run_cli;
using testing::TempFile;

// The golden xor-2d case as CSV: train (x1, x2, label) with labels in the given convention, test (x1, x2).
struct XorFiles {
  nlohmann::json c = testing::gpc_golden_cases()[2];
  std::string train_csv(bool zero_one) const {
    std::ostringstream os;
    os.precision(17);
    os << "x1,x2,label\n";
    for (std::size_t i = 0; i < c["X_train"].size(); ++i) {
      const int y = c["y_train"][i];
      os << c["X_train"][i][0].get<double>() << ',' << c["X_train"][i][1].get<double>() << ','
         << (zero_one ? (y + 1) / 2 : y) << '\n';
    }
    return os.str();
  }
  TempFile train{"gpc_train.csv", train_csv(true)};
  TempFile train_pm{"gpc_train_pm.csv", train_csv(false)};
  TempFile test{"gpc_test.csv", testing::csv_of(testing::gpc_matrix(c["X_test"]))};
  std::string files(const TempFile& t) const { return "gpc --train " + t.path() + " --test " + test.path(); }
  std::string golden_flags() const { return " --signal-variance 4 --length-scales 0.9,1.3"; }
};

TEST(CliGpc, ReproducesTheGoldenCaseWithExactHeaderAndDigits) {
  XorFiles f;
  for (const char* likelihood : {"probit", "logistic"}) {
    const auto r = run_cli(f.files(f.train) + f.golden_flags() + " --likelihood " + likelihood);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string header;
    const auto rows = testing::parse_output(r.out, &header);
    EXPECT_EQ(header, "point,latent_mean,latent_variance,probability");
    const nlohmann::json& e = f.c[std::string("laplace_") + likelihood];
    ASSERT_EQ(rows.size(), e["prob"].size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(rows[i][0], double(i));
      EXPECT_TRUE(testing::relatively_near(rows[i][1], e["latent_mean"][i], 1e-8));
      EXPECT_TRUE(testing::relatively_near(rows[i][2], e["latent_variance"][i], 1e-8));
      EXPECT_TRUE(testing::relatively_near(rows[i][3], e["prob"][i], 1e-9));
    }
    // Every number is printed with 17 significant digits (%.17g, which drops trailing zeros):
    // 0.83417775103782899, and each field reads back as a double that prints as the same text.
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line);
    std::getline(lines, line);
    const std::regex seventeen(
        "^0,-?[0-9]\\.[0-9]{1,16}(e[-+][0-9]+)?,[0-9]\\.[0-9]{1,16}(e[-+][0-9]+)?,0\\.[0-9]{1,17}$");
    EXPECT_TRUE(std::regex_match(line, seventeen)) << line;
    EXPECT_GE(testing::expect_seventeen_digit_fields(line), 2)
        << line;  // %.6g would print at most 8 characters per field

    const nlohmann::json s = nlohmann::json::parse(r.err);
    EXPECT_EQ(s["method"], "laplace");
    EXPECT_EQ(s["likelihood"], likelihood);
    EXPECT_EQ(s["signal_variance"].get<double>(), 4.0);
    EXPECT_EQ(s["length_scales"], nlohmann::json::parse("[0.9, 1.3]"));
    EXPECT_TRUE(testing::relatively_near(s["log_marginal_likelihood"], e["log_marginal_likelihood"], 1e-9));
    ASSERT_EQ(s["log_marginal_likelihood_gradient"].size(), 3u);
    for (std::size_t p = 0; p < 3; ++p)
      EXPECT_TRUE(testing::relatively_near(s["log_marginal_likelihood_gradient"][p], e["lml_gradient"][p], 1e-7));
    EXPECT_LE(s["iterations"].get<int>(), e["newton_iterations"].get<int>());
    EXPECT_EQ(s["converged"], true);
    EXPECT_EQ(s["optimized"], false);
    EXPECT_EQ(s["training_points"], 30);
  }
}

TEST(CliGpc, EpAndBothLabelConventions) {
  XorFiles f;
  const auto a = run_cli(f.files(f.train) + f.golden_flags() + " --method ep");
  const auto b = run_cli(f.files(f.train_pm) + f.golden_flags() + " --method ep");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  std::string header;
  const auto rows = testing::parse_output(a.out, &header);
  const nlohmann::json& e = f.c["ep_probit"];
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_TRUE(testing::relatively_near(rows[i][3], e["prob"][i], 1e-7));
  const nlohmann::json s = nlohmann::json::parse(a.err);
  EXPECT_EQ(s["method"], "ep");
  EXPECT_TRUE(testing::relatively_near(s["log_marginal_likelihood"], e["log_marginal_likelihood"], 1e-7));
}

TEST(CliGpc, DefaultsOptimisationAndOutFile) {
  XorFiles f;
  const TempFile out("gpc_out.csv");
  const auto r = run_cli(f.files(f.train) + " --out " + out.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  std::ifstream in(out.path());
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "point,latent_mean,latent_variance,probability");
  nlohmann::json s = nlohmann::json::parse(r.err);
  EXPECT_EQ(s["method"], "laplace");
  EXPECT_EQ(s["likelihood"], "probit");
  EXPECT_EQ(s["signal_variance"].get<double>(), 1.0);
  EXPECT_EQ(s["length_scales"], nlohmann::json::parse("[1, 1]"));

  const auto o = run_cli(f.files(f.train) + " --optimize --restarts 1 --seed 4");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  s = nlohmann::json::parse(o.err);
  EXPECT_EQ(s["optimized"], true);
  EXPECT_EQ(s["restarts"], 1);
  EXPECT_EQ(s["seed"], 4);
  EXPECT_GT(s["log_marginal_likelihood"].get<double>(), s["start_log_marginal_likelihood"].get<double>());
  for (const auto& g : s["log_marginal_likelihood_gradient"]) EXPECT_LT(std::abs(g.get<double>()), 1e-4);
  EXPECT_EQ(s["shared_length_scale"], false);

  // One length-scale for both columns: equal in the output, and stationary along the shared direction.
  const auto shared = run_cli(f.files(f.train) + " --optimize --shared-length-scale --length-scales 0.7");
  ASSERT_EQ(shared.exit_code, 0) << shared.err;
  s = nlohmann::json::parse(shared.err);
  EXPECT_EQ(s["shared_length_scale"], true);
  EXPECT_EQ(s["length_scales"][0], s["length_scales"][1]);
  EXPECT_NE(s["length_scales"][0].get<double>(), 0.7);
  const auto& g = s["log_marginal_likelihood_gradient"];
  EXPECT_LT(std::abs(g[0].get<double>()), 1e-4);
  EXPECT_LT(std::abs(g[1].get<double>() + g[2].get<double>()), 1e-4);
}

TEST(CliGpc, EachBadInputIsOneLineNamingFileAndProblem) {
  XorFiles f;
  const TempFile bad_label("gpc_bad_label.csv", "0,0,1\n1,1,2\n");
  const TempFile mixed("gpc_mixed.csv", "0,0,0\n1,1,-1\n");
  const TempFile nan_test("gpc_nan.csv", "1,2\nnan,3\n");
  const TempFile three("gpc_three.csv", "1,2,3\n");
  const TempFile one_column("gpc_one.csv", "1\n0\n");
  const TempFile empty("gpc_empty.csv", "");
  const std::string tr = " --train " + f.train.path(), te = " --test " + f.test.path();
  const struct {
    std::string args;
    int exit_code;
    std::string message;
  } cases[] = {
      {"gpc" + te, 1, "missing --train"},
      {"gpc" + tr + te + " --bogus 1", 1, "unknown option --bogus"},
      {"gpc" + tr + te + " --method vb", 2, "--method must be laplace or ep, got 'vb'"},
      {"gpc" + tr + te + " --likelihood erf", 2, "--likelihood must be probit or logistic, got 'erf'"},
      {"gpc" + tr + te + " --method ep --likelihood logistic", 2,
       "--likelihood logistic is not available with --method ep (EP's site moments are closed-form for probit "
       "only); use --method laplace"},
      {"gpc" + tr + te + " --signal-variance -1", 2, "--signal-variance must be > 0, got -1"},
      {"gpc" + tr + te + " --length-scales 1,x", 2, "--length-scales expects numbers separated by commas, got '1,x'"},
      {"gpc" + tr + te + " --length-scales 1,2,3", 2,
       "--length-scales has 3 values; " + f.train.path() + " has 2 feature columns"},
      {"gpc" + tr + te + " --length-scales 1,0", 2,
       "--length-scales: length-scale 2 must be a finite number > 0, got 0"},
      {"gpc" + tr + te + " --seed 3", 2, "--seed only applies with --optimize"},
      {"gpc" + tr + te + " --shared-length-scale", 2, "--shared-length-scale only applies with --optimize"},
      {"gpc" + tr + te + " --optimize --shared-length-scale --length-scales 1,2", 2,
       "--shared-length-scale learns one length-scale: give --length-scales one value, got 2"},
      {"gpc --train " + bad_label.path() + te, 1,
       bad_label.path() + ": training label 1 is 2; labels must be 0/1 or -1/+1"},
      {"gpc --train " + mixed.path() + te, 1,
       mixed.path() + ": training labels mix the 0/1 and -1/+1 conventions (label 0 is 0, label 1 is -1)"},
      {"gpc" + tr + " --test " + nan_test.path(), 1, nan_test.path() + ": line 2, column 1 is NaN"},
      {"gpc" + tr + " --test " + three.path(), 1,
       three.path() + ": has 3 columns; expected 2 feature columns, as " + f.train.path() + " has"},
      {"gpc --train " + one_column.path() + te, 1,
       one_column.path() + ": has 1 column; expected feature columns then one label column"},
      {"gpc --train " + empty.path() + te, 1, empty.path() + ": file is empty"},
  };
  for (const auto& c : cases) {
    const auto r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args;
    EXPECT_EQ(r.out, "") << c.args;
    EXPECT_EQ(r.err, "gpprobe gpc: " + c.message + "\n") << c.args;
  }
}

TEST(CliGpc, BenchWritesTheDataItTimes) {
  // The CSV files of bench-gpc --data hold the very data it fitted: gpc on them gives its LML exactly.
  const std::string dir = ::testing::TempDir() + "gpprobe_bench_gpc/";
  std::filesystem::create_directories(dir);
  const auto bench = run_cli("bench-gpc --n 40 --dimensions 3 --test 7 --seed 5 --json --data " + dir);
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  const nlohmann::json rows = nlohmann::json::parse(bench.out);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["approximation"], "laplace-probit");
  const nlohmann::json description = nlohmann::json::parse(std::ifstream(dir + "gpc_bench.json"));
  EXPECT_EQ(description["cases"][0]["dimension"], 3);
  std::ostringstream flags;
  flags.precision(17);
  flags << " --signal-variance " << description["cases"][0]["signal_variance"].get<double>() << " --length-scales "
        << description["cases"][0]["length_scale"].get<double>();
  for (const auto& row : rows) {
    const std::string a = row["approximation"];
    const std::string method = a.substr(0, a.find('-')), likelihood = a.substr(a.find('-') + 1);
    const auto r = run_cli("gpc --train " + dir + "gpc_d3_train.csv --test " + dir + "gpc_d3_test.csv" + flags.str() +
                           " --method " + method + " --likelihood " + likelihood);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.err)["log_marginal_likelihood"], row["log_marginal_likelihood"]) << a;
    std::string header;
    EXPECT_EQ(testing::parse_output(r.out, &header).size(), 7u);
  }
  std::filesystem::remove_all(dir);
  EXPECT_EQ(run_cli("bench-gpc --dimensions 2,x").err,
            "gpprobe bench-gpc: --dimensions expects positive integers separated by commas, got '2,x'\n");
}

}  // namespace
}  // namespace gpprobe
