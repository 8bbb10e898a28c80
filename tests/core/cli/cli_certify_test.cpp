// `gpprobe probe --certify-gamma ...` end to end: the certified columns, their order and statuses, an
// end-to-end soundness check (the same command scoring sampled queries around each query stays inside
// the printed bounds), and one stderr line per bad flag.
#include <cmath>
#include <map>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "cli_runner.h"
#include "test_support.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::csv_of;
using testing::run_cli;
using testing::TempFile;

using Row = std::map<std::string, std::string>;

std::vector<Row> parse_rows(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  std::stringstream header(line);
  for (std::string cell; std::getline(header, cell, ',');) names.push_back(cell);
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    Row row;
    std::stringstream cells(line);
    std::size_t i = 0;
    for (std::string cell; std::getline(cells, cell, ',');) row[names.at(i++)] = cell;
    EXPECT_EQ(i, names.size());
    rows.push_back(row);
  }
  return rows;
}

double at(const Row& row, const std::string& name) { return std::stod(row.at(name)); }

struct Data {
  RowMatrix observations, queries;
  std::string labels;
};

Data random_data(int O, int d, int n, std::mt19937& rng) {
  std::normal_distribution<double> z;
  Data data{RowMatrix(O, d), RowMatrix(n, d), ""};
  for (int i = 0; i < data.observations.size(); ++i) data.observations.data()[i] = z(rng);
  for (int i = 0; i < data.queries.size(); ++i) data.queries.data()[i] = z(rng);
  for (int i = 0; i < O; ++i)
    data.labels += data.observations(i, 0) + 0.5 * data.observations(i, 1) > 0 ? "1\n" : "0\n";
  return data;
}

TEST(CliCertify, ColumnsAreOrderedSoundAndSayHowTheyWereFound) {
  std::mt19937 rng(41);
  const Data data = random_data(25, 4, 5, rng);
  const TempFile obs("obs.csv", csv_of(data.observations)), labels("labels.txt", data.labels),
      queries("queries.csv", csv_of(data.queries));
  const std::string inputs =
      "probe --observations " + obs.path() + " --labels " + labels.path() + " --queries " + queries.path();
  struct Mode {
    std::string flags;
    std::vector<std::size_t> dims;  // moving coordinates, for the sampling below
    bool ball;
  };
  for (const Mode& mode : {Mode{" --certify-gamma 0.2", {0, 1, 2, 3}, false},
                           Mode{" --certify-gamma 0.6 --norm 2 --certify-dims 0,2 --tolerance 0.001", {0, 2}, true}}) {
    const CliRun r = run_cli(inputs + mode.flags);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<Row> rows = parse_rows(r.out);
    ASSERT_EQ(rows.size(), 5u);
    for (std::size_t q = 0; q < rows.size(); ++q) {
      const Row& row = rows[q];
      SCOPED_TRACE(mode.flags + " query " + std::to_string(q));
      const double p = at(row, "judged_probability");
      EXPECT_LE(at(row, "judged_probability_lower"), at(row, "judged_probability_lowest_found"));
      EXPECT_LE(at(row, "judged_probability_lowest_found"), p);
      EXPECT_LE(p, at(row, "judged_probability_highest_found"));
      EXPECT_LE(at(row, "judged_probability_highest_found"), at(row, "judged_probability_upper"));
      for (const std::string name : {"latent_mean", "latent_variance", "episteme"}) {
        EXPECT_LE(at(row, name + "_lower"), at(row, name));
        EXPECT_GE(at(row, name + "_upper"), at(row, name));
      }
      const std::string flip = row.at("verdict_can_flip");
      EXPECT_TRUE(flip == "yes" || flip == "no" || flip == "unknown") << flip;
      if (mode.ball) {
        EXPECT_EQ(row.at("certify_status"), "converged");
        EXPECT_GT(at(row, "certify_iterations"), 0);
        EXPECT_LE(at(row, "judged_probability_lowest_found") - at(row, "judged_probability_lower"), 1e-3);
        EXPECT_LE(at(row, "judged_probability_upper") - at(row, "judged_probability_highest_found"), 1e-3);
      } else {
        EXPECT_EQ(row.at("certify_status"), "bounds_only");
        EXPECT_EQ(row.at("certify_iterations"), "0");
      }

      // The same command on 2,000 queries sampled in the set around query q.
      const double gamma = mode.ball ? 0.6 : 0.2;
      std::uniform_real_distribution<double> unit(-1, 1);
      RowMatrix samples(2000, 4);
      for (int i = 0; i < 2000; ++i) {
        samples.row(i) = data.queries.row(Eigen::Index(q));
        std::vector<double> o(mode.dims.size());
        double norm2 = 0;
        for (double& v : o) v = unit(rng), norm2 += v * v;
        const double scale = mode.ball ? (i % 2 ? 1.0 : std::sqrt(0.5 * (unit(rng) + 1))) / std::sqrt(norm2) : 1.0;
        for (std::size_t j = 0; j < o.size(); ++j) {
          const double offset = mode.ball ? o[j] * scale : (i % 2 ? (o[j] > 0 ? 1.0 : -1.0) : o[j]);
          samples(i, Eigen::Index(mode.dims[j])) += gamma * offset;
        }
      }
      const TempFile sampled("sampled.csv", csv_of(samples));
      const CliRun s =
          run_cli("probe --observations " + obs.path() + " --labels " + labels.path() + " --queries " + sampled.path());
      ASSERT_EQ(s.exit_code, 0) << s.err;
      int violations = 0;
      for (const Row& point : parse_rows(s.out)) {
        for (const std::string name : {"judged_probability", "latent_mean", "latent_variance", "episteme"}) {
          violations += at(point, name) < at(row, name + "_lower") || at(point, name) > at(row, name + "_upper");
        }
      }
      EXPECT_EQ(violations, 0);
    }
  }
}

TEST(CliCertify, EachBadCertifyFlagGivesOneLine) {
  const TempFile obs("o.csv", "1,0,0\n0,1,0\n1,1,1\n"), labels("l.txt", "1\n0\n1\n"), queries("q.csv", "0.5,0.5,0\n");
  const std::string good =
      " --observations " + obs.path() + " --labels " + labels.path() + " --queries " + queries.path();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {" --certify-gamma -0.5", "--certify-gamma must be >= 0, got -0.5"},
      {" --certify-gamma nan", "--certify-gamma expects a finite number, got 'nan'"},
      {" --certify-gamma 0.1 --norm 1", "--norm expects inf or 2, got '1'"},
      {" --norm 2", "--norm needs --certify-gamma"},
      {" --certify-dims 0", "--certify-dims needs --certify-gamma"},
      {" --certify-gamma 0.1 --certify-dims 0,3",
       "--certify-dims: coordinate 3 is out of range: queries have 3 columns (coordinates 0 to 2)"},
      {" --certify-gamma 0.1 --certify-dims 2,0,2", "--certify-dims: coordinate 2 is listed twice"},
      {" --certify-gamma 0.1 --certify-dims 0,-1",
       "--certify-dims expects non-negative integers separated by commas, got '0,-1'"},
      {" --certify-gamma 0.1 --certify-dims 0,",
       "--certify-dims expects non-negative integers separated by commas, got '0,'"},
      {" --certify-gamma 0.1 --max-iterations 5",
       "--max-iterations needs --certify-dims: branch and bound runs over chosen coordinates"},
      {" --certify-gamma 0.1 --certify-dims 1 --tolerance -0.1", "--tolerance must be >= 0, got -0.10000000000000001"},
      {" --certify-gamma 0.1 --certify-dims 1 --max-iterations many",
       "--max-iterations expects a non-negative integer, got 'many'"},
  };
  for (const auto& [flags, message] : cases) {
    const CliRun r = run_cli("probe" + good + flags);
    EXPECT_EQ(r.exit_code, 2) << flags;
    EXPECT_EQ(r.out, "") << flags;
    EXPECT_EQ(r.err, "gpprobe probe: " + message + "\n") << flags;
  }
}

}  // namespace
}  // namespace gpprobe
