// Nothing non-finite is reported as success (issue 23, item 2). EP at signal variance 1e308 "converged"
// and printed "log_marginal_likelihood":-nan with exit 0 (gpc), and wrote -nan into robustness's JSON,
// where Laplace refused the same input. Now every GP classification fit (either method, every caller)
// refuses a non-finite fit naming the method and the quantity; a robustness box too far out for the
// kernel's squared distances is refused naming the coordinate; and the CLI's last line of defence fails
// a command that formatted NaN or Inf as a result.
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "gpprobe/classification/gp_classifier.h"

#include "cli/cli_runner.h"
#include "commands.h"
#include "csv_output.h"
#include "test_support.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::run_cli;
using testing::TempFile;

// 20 points of two Gaussian coordinates labelled by x + y > 0 (a fixed draw, 4 decimals).
const char* kTrain =
    "1.2882,1.4494,1\n0.0663,-0.7645,0\n-1.0922,0.0313,0\n-1.0221,-1.4368,0\n0.1993,0.1334,1\n"
    "0.5465,-0.9140,0\n0.0050,-0.0647,0\n-1.5058,0.5380,0\n0.3207,2.3891,1\n0.2030,-0.1447,1\n"
    "1.2328,0.1988,1\n0.9090,-0.3655,1\n0.2182,1.0243,1\n0.6962,0.1285,1\n-1.0823,0.4452,0\n"
    "0.0769,0.7205,1\n0.2162,1.0882,1\n-0.0516,0.2020,1\n0.6668,-1.0869,0\n-0.4017,-0.5000,0\n";

// Refused before any sum (whether the sums overflow to NaN or stay finite depends on the build: with AVX-512
// they gave NaN, without it a finite evidence from overflowing kernel rows).
const std::string kEpRefusal =
    "EP: signal variance 1e+308 times the 20 training points is beyond the largest double, so the kernel's sums "
    "overflow (the kernel's scale is beyond double precision)";

TEST(TrustNonFinite, EpRefusesANonFiniteFitLikeLaplace) {
  std::vector<double> x, labels;
  std::istringstream in(kTrain);
  for (std::string line; std::getline(in, line);) {
    double a, b, y;
    char comma;
    std::istringstream(line) >> a >> comma >> b >> comma >> y;
    x.push_back(a), x.push_back(b), labels.push_back(y);
  }
  for (ClassifierMethod method : {ClassifierMethod::laplace, ClassifierMethod::ep}) {
    ClassifierOptions options;
    options.method = method;
    const SeArdKernel huge{1e308, {1.0}};
    Result<GpClassifier> fit = GpClassifier::fit(MatrixView(x.data(), 20, 2), labels.data(), 20, huge, options);
    ASSERT_FALSE(fit.ok()) << method_name(method);
    EXPECT_EQ(fit.status().code(), StatusCode::numerical_failure);
    if (method == ClassifierMethod::ep) EXPECT_EQ(fit.status().message(), kEpRefusal);
    // The evidence the hyperparameter search reads is refused the same way.
    Result<ClassifierTrainingData> data = make_gpc_training_data(MatrixView(x.data(), 20, 2), labels.data(), 20);
    ASSERT_TRUE(data.ok()) << data.status().message();
    Result<ClassifierEvidence> evidence = gpc_log_marginal_likelihood(data.value(), huge, options);
    EXPECT_FALSE(evidence.ok());
    // Far below the overflow, both still fit with a finite evidence.
    Result<GpClassifier> large =
        GpClassifier::fit(MatrixView(x.data(), 20, 2), labels.data(), 20, SeArdKernel{1e4, {1.0}}, options);
    ASSERT_TRUE(large.ok()) << large.status().message();
    EXPECT_TRUE(std::isfinite(large.value().log_marginal_likelihood()));
  }
}

TEST(TrustNonFinite, ClassifierAndRobustnessCommandsRefuseInsteadOfPrintingNan) {
  const TempFile train("train.csv", kTrain), test("test.csv", "0.5,0.5\n-1,2\n");
  const CliRun gpc =
      run_cli("gpc --train " + train.path() + " --test " + test.path() + " --method ep --signal-variance 1e308");
  EXPECT_EQ(gpc.exit_code, 1);
  EXPECT_EQ(gpc.out, "");
  EXPECT_EQ(gpc.err, "gpprobe gpc: " + kEpRefusal + "\n");

  const CliRun robustness =
      run_cli("robustness --train " + train.path() + " --method ep --signal-variance 1e308 --point 0,0 --gamma 0.1");
  EXPECT_EQ(robustness.exit_code, 1);
  EXPECT_EQ(robustness.out, "");
  EXPECT_EQ(robustness.err, "gpprobe robustness: " + kEpRefusal + "\n");

  // A box whose squared distances to the training inputs overflow: refused naming the coordinate, where
  // the search used to stop on "the bound oracle returned NaN".
  for (const std::string& where :
       {std::string(" --point 0,0 --gamma 1e308"), std::string(" --point 1e308,0 --gamma 0.1")}) {
    const CliRun far = run_cli("robustness --train " + train.path() + where);
    EXPECT_EQ(far.exit_code, 1) << where;
    EXPECT_EQ(far.out, "") << where;
    EXPECT_EQ(far.err,
              "gpprobe robustness: the box around the point is too far out for double precision: in coordinate 0 it "
              "reaches 1e+308 (training inputs up to 1.51, length-scale 1), and squared distances over length-scales "
              "overflow\n")
        << where;
  }
  // Up to where they fit, the same commands succeed with finite numbers only.
  const CliRun fine =
      run_cli("robustness --train " + train.path() + " --method ep --signal-variance 1e4 --point 1e150,0 --gamma 0.1");
  EXPECT_EQ(fine.exit_code, 0) << fine.err;
  EXPECT_EQ(fine.out.find("nan"), std::string::npos) << fine.out;
  EXPECT_EQ(fine.out.find("inf"), std::string::npos) << fine.out;
}

// The CLI's last line of defence, in process (no other test formats a non-finite number in this
// process: the count is process-wide, as it is for one gpprobe command).
TEST(TrustNonFinite, ACommandThatFormattedNanOrInfDoesNotSucceed) {
  std::ostringstream err;
  ASSERT_EQ(cli::non_finite_numbers(), 0u);
  EXPECT_EQ(cli::format_bound(std::numeric_limits<double>::infinity()), "inf");  // a bound may be infinite
  EXPECT_EQ(cli::non_finite_numbers(), 0u);
  EXPECT_EQ(cli::exit_code("probe", Status::success(), err), 0);
  EXPECT_EQ(cli::format_number(std::nan("")), "nan");
  EXPECT_EQ(cli::non_finite_numbers(), 1u);
  EXPECT_EQ(cli::exit_code("gpc", Status::success(), err), 1);
  EXPECT_EQ(err.str(),
            "gpprobe gpc: internal error: a result was not a finite number (NaN or Inf; 1 in all): the output "
            "above is not valid\n");
}

}  // namespace
}  // namespace gpprobe
