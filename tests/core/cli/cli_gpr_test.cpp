// The `gpprobe gpr` command end to end: CSV in, predictions out against scikit-learn, the JSON line on
// stderr, statuses, optimisation, and one stderr line per bad input.
#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include "cli_runner.h"
#include "regression/regression_fixtures.h"

namespace gpprobe {
namespace {

using testing::csv_of;
using testing::run_cli;
using testing::TempFile;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The fixture's training data as "x,y" CSV with a header, and its test inputs (optionally with y).
struct CliData {
  nlohmann::json c = testing::regression_fixture("cli.json")[0];
  TempFile train{"gpr_train.csv", "x,y\n" + [this] {
                   RowMatrix m(Eigen::Index(c["y"].size()), 2);
                   for (Eigen::Index i = 0; i < m.rows(); ++i) {
                     m(i, 0) = c["x"][i][0];
                     m(i, 1) = c["y"][i];
                   }
                   return csv_of(m);
                 }()};
  TempFile test{"gpr_test.csv", csv_of(testing::rows_from_json(c["test"]))};
  TempFile test_y{"gpr_test_y.csv", [this] {
                    RowMatrix m(Eigen::Index(c["test"].size()), 2);
                    for (Eigen::Index i = 0; i < m.rows(); ++i) {
                      m(i, 0) = c["test"][i][0];
                      m(i, 1) = c["test_y"][i];
                    }
                    m(0, 1) += 10.0;  // one gross outlier
                    return csv_of(m);
                  }()};
};

// gpr on the fixture's training file with its hyperparameters, `test` and any further flags.
testing::CliRun run_fixture(const CliData& d, const TempFile& test, const std::string& flags = "") {
  return run_cli("gpr --train " + d.train.path() + " --test " + test.path() +
                 " --lengthscale 0.7 --variance 1.3 --noise 0.1" + flags);
}

TEST(CliGpr, PredictionsMatchSklearn) {
  CliData d;
  const auto r = run_fixture(d, d.test);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = lines(r.out);
  ASSERT_EQ(out.size(), 7u);
  EXPECT_EQ(out[0], "mean,latent_variance,observation_variance,knowledge");
  for (std::size_t i = 1; i < out.size(); ++i) {
    double mean, latent, observation, knowledge;
    ASSERT_EQ(std::sscanf(out[i].c_str(), "%lf,%lf,%lf,%lf", &mean, &latent, &observation, &knowledge), 4);
    EXPECT_NEAR(mean, d.c["predicted_mean"][i - 1].get<double>(), 1e-8);
    EXPECT_NEAR(std::sqrt(observation), d.c["predicted_observation_std"][i - 1].get<double>(), 1e-8);
    EXPECT_NEAR(observation - latent, 0.1, 1e-12);
    EXPECT_NEAR(knowledge, 1.0 - latent / 1.3, 1e-12);
  }
  const nlohmann::json summary = nlohmann::json::parse(r.err);
  EXPECT_NEAR(summary["log_marginal_likelihood"].get<double>(), d.c["log_marginal_likelihood"].get<double>(), 1e-6);
  EXPECT_NEAR(summary["mean"].get<double>(), d.c["mean"].get<double>(), 1e-12);
  EXPECT_EQ(summary["parameters"]["rbf.length_scale"].get<double>(), 0.7);
  EXPECT_EQ(summary["optimized"], false);
}

TEST(CliGpr, StatusesWhenTheTestFileHasY) {
  CliData d;
  const auto out = lines(run_fixture(d, d.test_y, " --rho 0.2").out);
  ASSERT_EQ(out.size(), 7u);
  EXPECT_EQ(out[0], "mean,latent_variance,observation_variance,knowledge,status");
  // Test point 0 got +10; the others are the noise-free truth.
  EXPECT_NE(out[1].find(",anomaly"), std::string::npos) << out[1];
  for (std::size_t i = 2; i < out.size(); ++i) EXPECT_EQ(out[i].find(",anomaly"), std::string::npos) << out[i];
  const auto gated = run_cli("gpr --train " + d.train.path() + " --test " + d.test_y.path() + " --rho 1");
  EXPECT_NE(lines(gated.out)[1].find(",unknown"), std::string::npos);
}

TEST(CliGpr, OptimizeIsAtLeastAsGoodAsSklearn) {
  // optimum.json "rbf": sklearn from variance 1, length-scale 1, noise 0.5 and mean = average of y,
  // which are the CLI's defaults apart from the noise.
  const nlohmann::json c = testing::regression_fixture("optimum.json")[0];
  ASSERT_EQ(c["name"], "rbf");
  RowMatrix m(Eigen::Index(c["y"].size()), 2);
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    m(i, 0) = c["x"][i][0];
    m(i, 1) = c["y"][i];
  }
  const TempFile train("gpr_opt.csv", csv_of(m));
  const TempFile test("gpr_opt_test.csv", "0.5\n");
  const auto r = run_cli("gpr --train " + train.path() + " --test " + test.path() +
                         " --noise 0.5 --optimize --restarts 2 --seed 3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json summary = nlohmann::json::parse(r.err);
  EXPECT_GE(summary["log_marginal_likelihood"].get<double>(),
            c["sklearn_log_marginal_likelihood"].get<double>() - 1e-6);
  EXPECT_EQ(summary["optimized"], true);
  EXPECT_EQ(summary["restarts"], 2);
}

TEST(CliGpr, BadInputsGiveOneLineNamingTheFileAndTheProblem) {
  CliData d;
  const std::string files = " --train " + d.train.path() + " --test " + d.test.path();
  const TempFile one_column("gpr_one.csv", "1\n2\n");
  const TempFile three("gpr_three.csv", "1,2,3\n");
  const TempFile bad_cell("gpr_bad.csv", "x,y\n1,2\n3,abc\n");
  const TempFile duplicate("gpr_dup.csv", "1,2\n1,3\n");
  const std::string bad_cell_path = bad_cell.path(), one_path = one_column.path(), three_path = three.path();
  struct Case {
    std::string args;
    int exit_code;
    std::string err;
  };
  const std::vector<Case> cases = {
      {"--test " + d.test.path(), 1, "gpprobe gpr: missing --train\n"},
      {files + " --kernel gaussian", 2,
       "gpprobe gpr: --kernel must be rbf, matern12, matern32, matern52, periodic, locally-periodic, linear or cosine, "
       "got 'gaussian'\n"},
      {files + " --lengthscale abc", 2, "gpprobe gpr: --lengthscale expects a finite number, got 'abc'\n"},
      {files + " --rho 2", 2, "gpprobe gpr: --rho must be in [0, 1], got 2\n"},
      {files + " --restarts -1", 2, "gpprobe gpr: --restarts expects a non-negative integer, got '-1'\n"},
      {files + " --lengthscale -1", 1, "gpprobe gpr: rbf.length_scale must be a finite number > 0, got -1\n"},
      {files + " --noise -1", 1, "gpprobe gpr: noise variance must be a finite number >= 0, got -1\n"},
      {"--train /nonexistent.csv --test " + d.test.path(), 1, "gpprobe gpr: /nonexistent.csv: cannot open file\n"},
      {"--train " + bad_cell_path + " --test " + d.test.path(), 1,
       "gpprobe gpr: " + bad_cell_path + ": line 3, column 2: 'abc' is not a number\n"},
      {"--train " + one_path + " --test " + d.test.path(), 1,
       "gpprobe gpr: " + one_path + ": has 1 column; expected feature columns then y (at least 2)\n"},
      {"--train " + d.train.path() + " --test " + three_path, 1,
       "gpprobe gpr: " + three_path + ": has 3 columns; expected 1 (features) or 2 (features and y), as " +
           d.train.path() + " has 1 feature column\n"},
      {"--train " + duplicate.path() + " --test " + d.test.path() + " --noise 0", 1,
       "gpprobe gpr: the kernel matrix K + noise I (kernel constant(1) * rbf(1), noise 0) is not positive definite\n"},
  };
  for (const Case& c : cases) {
    const auto r = run_cli("gpr " + c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args;
    EXPECT_EQ(r.err, c.err) << c.args;
    EXPECT_TRUE(r.out.empty()) << c.args;
  }
}

TEST(CliGpr, ParametersAreFlagsSpelledFromTheirNames) {
  // --constant-value / --rbf-length-scale / --noise-variance are the names; the first version's
  // --variance / --lengthscale / --noise give the same output.
  CliData d;
  const std::string files = "gpr --train " + d.train.path() + " --test " + d.test.path();
  const auto named = run_cli(files + " --constant-value 1.3 --rbf-length-scale 0.7 --noise-variance 0.1");
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(named.out, run_fixture(d, d.test).out);
  EXPECT_EQ(named.err, run_fixture(d, d.test).err);
  const auto periodic = run_cli(files + " --kernel locally-periodic --periodic-period 2.5 --decay 3");
  ASSERT_EQ(periodic.exit_code, 0) << periodic.err;
  const nlohmann::json summary = nlohmann::json::parse(periodic.err);
  EXPECT_EQ(summary["parameters"]["periodic.period"].get<double>(), 2.5);
  EXPECT_EQ(summary["parameters"]["rbf.length_scale"].get<double>(), 3.0);
  EXPECT_EQ(run_cli(files + " --periodic-period 2").err,
            "gpprobe gpr: --kernel rbf: the kernel has no parameter 'periodic.period' (it has: constant.value, "
            "rbf.length_scale)\n");
  EXPECT_EQ(run_cli(files + " --noise 0.1 --noise-variance 0.2").err,
            "gpprobe gpr: --noise is the old spelling of --noise-variance; give one\n");
}

TEST(CliGpr, PredictionsThatOverflowAreAnErrorNamingTheTestFile) {
  // Issue 9, item 13: a test input near 1e308 overflows the linear kernel; the command used to print
  // rows of NaN and exit 0.
  const TempFile train("gpr_overflow_train.csv", "x,y\n0,1\n1,2\n2,1.5\n3,0.5\n");
  const TempFile test("gpr_overflow_test.csv", "x\n1.5\n1e308\n");
  const auto r = run_cli("gpr --train " + train.path() + " --test " + test.path() + " --kernel linear");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "gpprobe gpr: " + test.path() +
                ": test inputs row 1: the prediction is not finite (the kernel overflows at inputs this large)\n");
}

}  // namespace
}  // namespace gpprobe
