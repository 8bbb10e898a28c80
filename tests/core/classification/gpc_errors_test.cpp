// GP classification's bad inputs come back as values with the message a user reads; one class only is
// a valid posterior (with EP's exact single-site answer as the check); non-convergence is an error that
// says how many iterations it ran.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "gpc_fixtures.h"
#include "result_assertions.h"

namespace gpprobe {
namespace {

struct Data {
  RowMatrix x{4, 2};
  std::vector<double> y{0, 1, 1, 0};
  SeArdKernel kernel{1.0, {1.0}};
  Data() { x << 0, 0, 1, 0, 0, 1, 1, 1; }
  Status fit(const ClassifierOptions& options = {}) const {
    return GpClassifier::fit(MatrixView(x), y.data(), y.size(), kernel, options).status();
  }
};

void expect_status(const Status& s, StatusCode code, const std::string& message) {
  EXPECT_EQ(s.code(), code) << s.message();
  EXPECT_EQ(s.message(), message);
}

TEST(ClassifierErrors, Labels) {
  Data d;
  d.y[1] = 2;
  expect_status(d.fit(), StatusCode::invalid_argument, "training label 1 is 2; labels must be 0/1 or -1/+1");
  d.y[1] = 0.5;
  expect_status(d.fit(), StatusCode::invalid_argument, "training label 1 is 0.5; labels must be 0/1 or -1/+1");
  d.y[1] = std::nan("");
  expect_status(d.fit(), StatusCode::non_finite, "training label 1 is NaN");
  d.y = {0, 1, -1, 1};
  expect_status(d.fit(), StatusCode::invalid_argument,
                "training labels mix the 0/1 and -1/+1 conventions (label 0 is 0, label 2 is -1)");
  d.y = {0, 1, 1};
  expect_status(d.fit(), StatusCode::dimension_mismatch, "training labels have 3 values, training inputs have 4 rows");
  // Both conventions give the same model.
  Data a, b;
  b.y = {-1, 1, 1, -1};
  const auto fa = ok_value(GpClassifier::fit(MatrixView(a.x), a.y.data(), 4, a.kernel));
  const auto fb = ok_value(GpClassifier::fit(MatrixView(b.x), b.y.data(), 4, b.kernel));
  EXPECT_EQ(fa.log_marginal_likelihood(), fb.log_marginal_likelihood());
}

TEST(ClassifierErrors, InputsAndKernel) {
  Data d;
  d.x(1, 0) = std::numeric_limits<double>::infinity();
  expect_status(d.fit(), StatusCode::non_finite, "training inputs row 1, column 0 is +Inf");
  Data e;
  e.kernel.length_scales = {1.0, 0.0};
  expect_status(e.fit(), StatusCode::invalid_argument, "length-scale 2 must be a finite number > 0, got 0");
  e.kernel.length_scales = {-1.0};
  expect_status(e.fit(), StatusCode::invalid_argument, "length-scale 1 must be a finite number > 0, got -1");
  e.kernel.length_scales = {1.0, 1.0, 1.0};
  expect_status(e.fit(), StatusCode::dimension_mismatch, "3 length-scales for 2 input columns");
  e.kernel = {std::nan(""), {1.0}};
  expect_status(e.fit(), StatusCode::invalid_argument, "signal variance must be a finite number > 0, got nan");
  RowMatrix empty(0, 2);
  expect_status(GpClassifier::fit(MatrixView(empty), nullptr, 0, d.kernel).status(), StatusCode::invalid_argument,
                "training inputs are empty (0 rows)");
}

TEST(ClassifierErrors, TestInputs) {
  Data d;
  const GpClassifier gpc = ok_value(GpClassifier::fit(MatrixView(d.x), d.y.data(), 4, d.kernel));
  RowMatrix q(2, 3);
  q.setZero();
  std::vector<double> out(2);
  expect_status(gpc.predict(MatrixView(q), {out.data(), nullptr, nullptr}), StatusCode::dimension_mismatch,
                "test inputs have 3 columns, training inputs have 2 columns");
  RowMatrix r(2, 2);
  r << 0, 0, std::nan(""), 1;
  expect_status(gpc.predict(MatrixView(r), {out.data(), nullptr, nullptr}), StatusCode::non_finite,
                "test inputs row 1, column 0 is NaN");
}

TEST(ClassifierErrors, OptionsAndNames) {
  Data d;
  ClassifierOptions options;
  options.method = ClassifierMethod::ep;
  options.likelihood = ClassifierLikelihood::logistic;
  expect_status(d.fit(options), StatusCode::invalid_argument,
                "EP is available with the probit likelihood only (its site moments are closed-form); use the "
                "Laplace method for the logistic likelihood");
  expect_status(parse_method("vb").status(), StatusCode::invalid_argument, "method must be laplace or ep, got 'vb'");
  expect_status(parse_likelihood("erf").status(), StatusCode::invalid_argument,
                "likelihood must be probit or logistic, got 'erf'");
  EXPECT_EQ(ok_value(parse_method("ep")), ClassifierMethod::ep);
  EXPECT_EQ(ok_value(parse_likelihood("logistic")), ClassifierLikelihood::logistic);
}

TEST(ClassifierErrors, NonConvergenceSaysHowFarItGot) {
  const nlohmann::json c = testing::gpc_golden_cases()[2];  // xor-2d: 6 Newton steps, 11 EP sweeps
  ClassifierOptions options;
  options.max_iterations = 2;
  Status s = GpClassifier::fit(testing::gpc_data(c), testing::gpc_kernel(c), options).status();
  EXPECT_EQ(s.code(), StatusCode::numerical_failure);
  EXPECT_EQ(
      s.message().rfind("Laplace: Newton's method did not converge in 2 iterations (the last step moved f by ", 0), 0u)
      << s.message();
  options.method = ClassifierMethod::ep;
  s = GpClassifier::fit(testing::gpc_data(c), testing::gpc_kernel(c), options).status();
  EXPECT_EQ(s.code(), StatusCode::numerical_failure);
  EXPECT_EQ(
      s.message().rfind("EP: the sites did not converge in 2 sweeps (the last sweep moved a site parameter by ", 0), 0u)
      << s.message();
  options.max_iterations = 0;
  expect_status(GpClassifier::fit(testing::gpc_data(c), testing::gpc_kernel(c), options).status(),
                StatusCode::invalid_argument, "max_iterations must be at least 1");
}

TEST(ClassifierOneClass, EpOnOnePointIsTheExactPosterior) {
  // One site: EP matches the exact moments of Phi(f) N(f | 0, s2): mean s2 r(0) / sqrt(1 + s2),
  // variance s2 - s2^2 r(0)^2 / (1 + s2) with r(0) = 2 phi(0) = sqrt(2/pi), and log Z = log Phi(0) = -log 2.
  const double x[] = {0.3}, y[] = {1}, s2 = 2.5;
  ClassifierOptions options;
  options.method = ClassifierMethod::ep;
  const GpClassifier gpc = ok_value(GpClassifier::fit(MatrixView(x, 1, 1), y, 1, {s2, {0.7}}, options));
  const double r0 = std::sqrt(2.0 / 3.141592653589793);
  std::vector<double> mean(1), variance(1);
  ASSERT_TRUE(gpc.predict(MatrixView(x, 1, 1), {mean.data(), variance.data(), nullptr}).ok());
  EXPECT_NEAR(mean[0], s2 * r0 / std::sqrt(1.0 + s2), 1e-12);
  EXPECT_NEAR(variance[0], s2 - s2 * s2 * r0 * r0 / (1.0 + s2), 1e-12);
  EXPECT_NEAR(gpc.log_marginal_likelihood(), -std::log(2.0), 1e-12);
}

TEST(ClassifierOneClass, IsAValidPosteriorThatLeansToTheClass) {
  const nlohmann::json c = testing::gpc_golden_cases()[2];
  ClassifierTrainingData data = testing::gpc_data(c);
  data.y.setConstant(-1.0);
  const RowMatrix far = (RowMatrix(1, 2) << 40.0, -40.0).finished();
  for (ClassifierMethod method : {ClassifierMethod::laplace, ClassifierMethod::ep}) {
    ClassifierOptions options;
    options.method = method;
    Result<GpClassifier> gpc = GpClassifier::fit(data, testing::gpc_kernel(c), options);
    ASSERT_TRUE(gpc.ok()) << gpc.status().message();
    EXPECT_TRUE(std::isfinite(gpc.value().log_marginal_likelihood()));
    EXPECT_LT(gpc.value().log_marginal_likelihood(), 0.0);
    const std::size_t n = data.size();
    std::vector<double> mean(n), variance(n), p(n);
    ASSERT_TRUE(gpc.value().predict(MatrixView(data.x), {mean.data(), variance.data(), p.data()}).ok());
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_LT(p[i], 0.5);
      EXPECT_GT(variance[i], 0.0);
      EXPECT_LT(variance[i], 4.0);  // below the prior's s2
    }
    // Far from the data: the prior again, p = 1/2.
    double m, v, q;
    ASSERT_TRUE(gpc.value().predict(MatrixView(far), {&m, &v, &q}).ok());
    EXPECT_NEAR(m, 0.0, 1e-12);
    EXPECT_NEAR(v, 4.0, 1e-12);
    EXPECT_NEAR(q, 0.5, 1e-12);
  }
}

}  // namespace
}  // namespace gpprobe
