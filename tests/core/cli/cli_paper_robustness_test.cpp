// `gpprobe paper-robustness` on small configurations of web/public/demo/robustness/synthetic2d.csv: every figure
// gives the same table on a second run (Fig. 7 but for its seconds), with the columns its --help names,
// and numbers that keep the certificates' promises against independent evidence: in Fig. 3 the GPFGS
// attack's point lies in the box, so its probability never passes the certified bound of the adversarial
// extreme; in Fig. 4 each delta interval is ordered and holds pi(x*) - pi(x*) = 0 only at gamma 0; in
// Fig. 6 each mean Delta lies in its interval (Fig. 5, multi-class: tests/core/explain/figure5_test.cpp).
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_runner.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::run_cli;

const std::string kData = std::string(GPPROBE_SOURCE_DIR) + "/web/public/demo/robustness/synthetic2d.csv";

std::vector<std::vector<std::string>> table(const std::string& text, std::string* header) {
  std::istringstream in(text);
  std::getline(in, *header);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

CliRun twice(const std::string& args) {
  const CliRun a = run_cli(args), b = run_cli(args);
  EXPECT_EQ(a.exit_code, 0) << args << "\n" << a.err;
  EXPECT_EQ(a.out, b.out) << args;
  return a;
}

TEST(CliPaperRobustness, Figure3BoundsNeverPassTheAttack) {
  const CliRun run = twice("paper-robustness --figure 3 --data " + kData +
                           " --train-rows 80 --test-points 10 --pixels 2 --gammas 0,0.5,1,2 --epochs 10");
  std::string header;
  const auto rows = table(run.out, &header);
  EXPECT_EQ(
      header,
      "point,label,probability,gamma,pixels,side,bound_lower,bound_upper,gpfgs,verdict_can_flip,iterations,status");
  ASSERT_EQ(rows.size(), 2u * 4u);  // the first test point of each label, four gammas
  for (const auto& r : rows) {
    ASSERT_EQ(r.size(), 12u);
    EXPECT_TRUE(r[4] == "0;1" || r[4] == "1;0") << r[4];
    const double lower = std::stod(r[6]), upper = std::stod(r[7]), gpfgs = std::stod(r[8]);
    EXPECT_LE(lower, upper);
    if (r[5] == "minimum") EXPECT_LE(lower, gpfgs);  // the attack's point is in T: pi there >= pi_min
    else EXPECT_GE(upper, gpfgs);
    if (std::stod(r[3]) == 0.0) EXPECT_NEAR(std::stod(r[r[5] == "minimum" ? 7 : 6]), std::stod(r[2]), 1e-12);
  }
}

TEST(CliPaperRobustness, Figure4GivesOrderedDeltasAndASummary) {
  const CliRun run = twice("paper-robustness --figure 4 --data " + kData +
                           " --train-rows 80 --test-points 4 --epochs 5,10 --gamma 0.2");
  std::string header;
  const auto rows = table(run.out, &header);
  EXPECT_EQ(header,
            "method,epochs,point,probability,delta_lower,delta_upper,status,log_marginal_likelihood,evaluations");
  ASSERT_EQ(rows.size(), 2u * 2u * 4u);
  for (const auto& r : rows) {
    EXPECT_TRUE(r[0] == "laplace" || r[0] == "ep");
    EXPECT_LE(std::stod(r[4]), std::stod(r[5]));
    EXPECT_GE(std::stod(r[4]), 0.0);
    EXPECT_LE(std::stoul(r[8]), std::stoul(r[1]));
    EXPECT_EQ(r[6], "converged");
  }
  EXPECT_NE(run.err.find("\"laplace_over_ep\":{\"5\":["), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("\"median_delta\":{\"laplace_5\":["), std::string::npos) << run.err;
}

TEST(CliPaperRobustness, Figure6MeansLieInTheirIntervals) {
  const CliRun run = twice("paper-robustness --figure 6 --data " + kData +
                           " --train-rows 80 --test-points 3 --epochs 10 --gammas 0.1,2 --lime-samples 200 --seed 5");
  std::string header;
  const auto rows = table(run.out, &header);
  EXPECT_EQ(header, "feature,gamma,delta_lower,delta,delta_upper,lime,lime_slope");
  ASSERT_EQ(rows.size(), 2u * 2u);
  for (const auto& r : rows) {
    EXPECT_LE(std::stod(r[2]), std::stod(r[3]));
    EXPECT_LE(std::stod(r[3]), std::stod(r[4]));
  }
  // LIME does not depend on gamma.
  EXPECT_EQ(rows[0][5], rows[2][5]);
  EXPECT_EQ(rows[1][6], rows[3][6]);
}

TEST(CliPaperRobustness, Figure7SplitsTheSameBoxesEachRun) {
  const std::string args = "paper-robustness --figure 7 --data " + kData +
                           " --train-rows 60 --test-points 2 --dimensions 1,2 --fixed-dimension 2 --epsilons 0.02,0.05"
                           " --gammas 0.25";
  const CliRun a = run_cli(args), b = run_cli(args);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  std::string header;
  auto rows_a = table(a.out, &header), rows_b = table(b.out, &header);
  EXPECT_EQ(header, "sweep,gamma,dimension,epsilon,point,seconds,iterations,status,lower,upper");
  ASSERT_EQ(rows_a.size(), (2u + 2u) * 2u);
  for (std::size_t i = 0; i < rows_a.size(); ++i) {
    rows_a[i][5] = rows_b[i][5] = "";  // seconds
    EXPECT_EQ(rows_a[i], rows_b[i]);
    EXPECT_LE(std::stod(rows_a[i][9]) - std::stod(rows_a[i][8]), std::stod(rows_a[i][3]));
  }
}

TEST(CliPaperRobustness, RefusesBadFlagsWithTheReason) {
  const CliRun rows = run_cli("paper-robustness --figure 4 --data " + kData + " --train-rows 1200");
  EXPECT_EQ(rows.err, "gpprobe paper-robustness: --train-rows must be between 1 and 1199 (" + kData +
                          " has 1200 rows), got 1200\n");
  const CliRun figure = run_cli("paper-robustness --figure 8 --data " + kData);
  EXPECT_EQ(figure.err, "gpprobe paper-robustness: --figure must be 3, 4, 5, 6 or 7, got '8'\n");
  const CliRun help = run_cli("paper-robustness --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--figure 7"), std::string::npos);
}

}  // namespace
}  // namespace gpprobe
