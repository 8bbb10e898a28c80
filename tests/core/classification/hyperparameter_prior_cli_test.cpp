// The prior flags end to end (--signal-variance-prior, --length-scale-prior with --optimize): `gpprobe gpc`,
// `gpc --likelihood softmax` and `gpr` fit MAP, echo the priors in their JSON line and report log_prior,
// which equals the closed form written out here at the hyperparameters they report; a feature that is 0
// in every training point gets the length-scale prior's mode; bad specs and priors without --optimize are
// refused naming the flag.
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_runner.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::run_cli;
using testing::TempFile;

constexpr double kPi = 3.14159265358979323846;

double normal_log_density(double u, double mu, double sigma) {
  const double z = (u - mu) / sigma;
  return -0.5 * std::log(2.0 * kPi) - std::log(sigma) - 0.5 * z * z;
}

// 40 points in [-1, 1]^2 labelled by the sign of x0 * x1 (xor), with a third column 0 everywhere, and a
// class column for the softmax model (0: x0 < -0.3, 1: |x0| <= 0.3, 2: x0 > 0.3).
struct Data {
  std::string binary, multiclass;
  Data() {
    std::ostringstream b, m;
    b.precision(17);
    m.precision(17);
    for (int i = 0; i < 40; ++i) {
      const double x0 = std::sin(1.7 * i + 0.3), x1 = std::cos(2.3 * i + 1.1);
      b << x0 << ',' << x1 << ",0," << (x0 * x1 > 0 ? 1 : 0) << '\n';
      m << x0 << ',' << x1 << ",0," << (x0 < -0.3 ? 0 : x0 <= 0.3 ? 1 : 2) << '\n';
    }
    binary = b.str();
    multiclass = m.str();
  }
};

TEST(HyperparameterPriorCli, ClassifierFitsMapAndReportsTheLogPrior) {
  const Data data;
  const TempFile train("prior_gpc_train.csv", data.binary), test("prior_gpc_test.csv", "0.1,0.2,0\n");
  const double mu = std::log(2.0);
  for (const char* method : {"laplace", "ep"}) {
    const CliRun run =
        run_cli("gpc --method " + std::string(method) + " --train " + train.path() + " --test " + test.path() +
                " --optimize --signal-variance-prior lognormal:0,1.5 --length-scale-prior "
                "lognormal:0.69314718055994529,0.5");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const nlohmann::json s = nlohmann::json::parse(run.err);
    EXPECT_EQ(s["signal_variance_prior"], "lognormal:0,1.5");
    EXPECT_EQ(s["length_scale_prior"], "lognormal:0.69314718055994529,0.5");
    const std::vector<double> l = s["length_scales"].get<std::vector<double>>();
    ASSERT_EQ(l.size(), 3u);
    double expected = normal_log_density(std::log(s["signal_variance"].get<double>()), 0.0, 1.5);
    for (double v : l) expected += normal_log_density(std::log(v), mu, 0.5);
    EXPECT_NEAR(s["log_prior"].get<double>(), expected, 1e-12) << method;
    // The blank column: the prior's mode.
    EXPECT_NEAR(l[2], 2.0, 2e-4) << method;
  }
  // Without a prior the blank column keeps its start, and the JSON says so.
  const CliRun ml = run_cli("gpc --train " + train.path() + " --test " + test.path() + " --optimize");
  ASSERT_EQ(ml.exit_code, 0) << ml.err;
  const nlohmann::json s = nlohmann::json::parse(ml.err);
  EXPECT_EQ(s["length_scales"][2].get<double>(), 1.0);
  EXPECT_EQ(s["length_scale_prior"], "none");
  EXPECT_EQ(s["log_prior"].get<double>(), 0.0);
}

TEST(HyperparameterPriorCli, SoftmaxAndGprFitMapToo) {
  const Data data;
  const TempFile train("prior_softmax_train.csv", data.multiclass), test("prior_softmax_test.csv", "0.1,0.2,0\n");
  const CliRun run = run_cli("gpc --likelihood softmax --train " + train.path() + " --test " + test.path() +
                             " --optimize --length-scale-prior student-t:0,1,3");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json s = nlohmann::json::parse(run.err);
  EXPECT_EQ(s["length_scale_prior"], "student-t:0,1,3");
  EXPECT_EQ(s["signal_variance_prior"], "none");
  // Student-t with nu = 3, sigma = 1: Gamma(2) / (Gamma(3/2) sqrt(3 pi)) (1 + u^2/3)^-2 = 2 / (pi sqrt 3) (...)^-2.
  double expected = 0.0;
  for (const auto& l : s["length_scales"][0]) {
    const double u = std::log(l.get<double>());
    expected += std::log(2.0 / (kPi * std::sqrt(3.0))) - 2.0 * std::log(1.0 + u * u / 3.0);
  }
  EXPECT_NEAR(s["log_prior"].get<double>(), expected, 1e-12) << s.dump();

  // gpr: 1-D sin data; the amplitude and the length-scale get priors, the noise none.
  std::ostringstream r;
  r.precision(17);
  for (int i = 0; i < 25; ++i) {
    const double x = -1.5 + 3.0 * i / 24.0;
    r << x << ',' << std::sin(3.0 * x) + 0.1 * std::cos(17.0 * i) << '\n';
  }
  const TempFile gpr_train("prior_gpr_train.csv", r.str()), gpr_test("prior_gpr_test.csv", "0.5\n");
  const CliRun g = run_cli("gpr --train " + gpr_train.path() + " --test " + gpr_test.path() +
                           " --noise-variance 0.1 --optimize --signal-variance-prior lognormal:0,1 "
                           "--length-scale-prior lognormal:-1,0.5");
  ASSERT_EQ(g.exit_code, 0) << g.err;
  const nlohmann::json gs = nlohmann::json::parse(g.err);
  const double amplitude = gs["parameters"]["constant.value"].get<double>();
  const double length = gs["parameters"]["rbf.length_scale"].get<double>();
  EXPECT_NEAR(gs["log_prior"].get<double>(),
              normal_log_density(std::log(amplitude), 0.0, 1.0) + normal_log_density(std::log(length), -1.0, 0.5),
              1e-12)
      << gs.dump();
}

TEST(HyperparameterPriorCli, BadPriorsAreRefusedNamingTheFlag) {
  const Data data;
  const TempFile train("prior_bad_train.csv", data.binary), test("prior_bad_test.csv", "0.1,0.2,0\n");
  const std::string base = "gpc --train " + train.path() + " --test " + test.path();
  const struct {
    std::string args, message;
  } cases[] = {
      {base + " --length-scale-prior lognormal:0,1",
       "gpprobe gpc: --length-scale-prior only applies with --optimize\n"},
      {base + " --optimize --length-scale-prior lognormal:1",
       "gpprobe gpc: --length-scale-prior must be none, lognormal:MU,SIGMA or student-t:MU,SIGMA,NU (on the log "
       "of the parameter), got 'lognormal:1'\n"},
      {base + " --optimize --signal-variance-prior lognormal:0,0",
       "gpprobe gpc: --signal-variance-prior needs a finite mu and a finite sigma > 0, got mu 0, sigma 0\n"},
  };
  for (const auto& c : cases) {
    const CliRun run = run_cli(c.args);
    EXPECT_EQ(run.exit_code, 2) << c.args << "\n" << run.err;
    EXPECT_EQ(run.err, c.message) << c.args;
  }
}

}  // namespace
}  // namespace gpprobe
