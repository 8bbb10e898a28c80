// Bad input to the multi-class classifier gets an error value naming the input and the problem; a class
// with no training point is allowed (and means what multiclass_laplace.h says); nothing non-finite is
// reported as success.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "gpprobe/certify/multiclass_robustness.h"

#include "multiclass_fixtures.h"

namespace gpprobe {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

Status made(const RowMatrix& x, const std::vector<double>& y, std::size_t classes) {
  return make_multiclass_training_data(MatrixView(x), y.data(), y.size(), classes).status();
}

void expect_error(const Status& s, StatusCode code, const std::string& message) {
  EXPECT_EQ(s.code(), code) << s.message();
  EXPECT_EQ(s.message(), message);
}

RowMatrix points() {
  RowMatrix x(4, 2);
  x << 0, 0, 1, 0, 0, 1, 1, 1;
  return x;
}

TEST(MulticlassErrors, TrainingData) {
  const RowMatrix x = points();
  expect_error(made(x, {0, 1, 0, 1}, 1), StatusCode::invalid_argument,
               "the number of classes must be at least 2, got 1");
  expect_error(made(x, {0, 1, 3, 1}, 3), StatusCode::invalid_argument,
               "training label 2 is 3; labels must be integers 0 to 2 (3 classes)");
  expect_error(made(x, {0, -1, 2, 1}, 3), StatusCode::invalid_argument,
               "training label 1 is -1; labels must be integers 0 to 2 (3 classes)");
  expect_error(made(x, {0, 0.5, 2, 1}, 3), StatusCode::invalid_argument,
               "training label 1 is 0.5; labels must be integers 0 to 2 (3 classes)");
  expect_error(made(x, {0, 1, kNaN, 1}, 3), StatusCode::non_finite, "training label 2 is NaN");
  expect_error(made(x, {0, 1, 2}, 3), StatusCode::dimension_mismatch,
               "training labels have 3 values, training inputs have 4 rows");
  RowMatrix bad = x;
  bad(2, 1) = kNaN;
  expect_error(made(bad, {0, 1, 2, 1}, 3), StatusCode::non_finite, "training inputs row 2, column 1 is NaN");
  bad(2, 1) = kInf;
  EXPECT_EQ(made(bad, {0, 1, 2, 1}, 3).code(), StatusCode::non_finite);
  expect_error(made(RowMatrix(0, 2), {}, 3), StatusCode::invalid_argument, "training inputs are empty (0 rows)");
}

TEST(MulticlassErrors, KernelsAndOverflow) {
  const std::vector<double> y{0, 1, 2, 1};
  const MulticlassTrainingData data = make_multiclass_training_data(MatrixView(points()), y.data(), 4, 3).value();
  const SeArdKernel good{1.0, {1.0}};
  expect_error(MulticlassLaplace::fit(data, {good, good}).status(), StatusCode::dimension_mismatch,
               "2 kernels for 3 classes (give 1 or 3)");
  expect_error(MulticlassLaplace::fit(data, {good, {-1.0, {1.0}}, good}).status(), StatusCode::invalid_argument,
               "kernel of class 1: signal variance must be a finite number > 0, got -1");
  expect_error(MulticlassLaplace::fit(data, {good, good, {1.0, {1.0, 1.0, 1.0}}}).status(),
               StatusCode::dimension_mismatch, "kernel of class 2: 3 length-scales for 2 input columns");
  // A kernel so large that the Newton iterate overflows: an error, never a non-finite "success".
  Result<MulticlassLaplace> huge = MulticlassLaplace::fit(data, {SeArdKernel{1e308, {1.0}}});
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), StatusCode::numerical_failure) << huge.status().message();
}

TEST(MulticlassErrors, TestInputsAndRequests) {
  const std::vector<double> y{0, 1, 2, 1};
  const MulticlassTrainingData data = make_multiclass_training_data(MatrixView(points()), y.data(), 4, 3).value();
  const MulticlassLaplace model = testing::fitted_multiclass(data, {SeArdKernel{1.0, {1.0}}});
  RowMatrix three(1, 3);
  three << 0, 0, 0;
  expect_error(model.predict(MatrixView(three)).status(), StatusCode::dimension_mismatch,
               "test inputs have 3 columns, training inputs have 2 columns");
  RowMatrix nan(1, 2);
  nan << 0, kNaN;
  expect_error(model.predict(MatrixView(nan)).status(), StatusCode::non_finite, "test inputs row 0, column 1 is NaN");
  MulticlassRobustnessOptions options;
  options.gamma = 0.1;
  expect_error(certify_class_probability(model, {0.0, 0.0}, 3, options).status(), StatusCode::invalid_argument,
               "class 3 is out of range: the model has 3 classes");
  expect_error(certify_safety(model, {0.0}, options).status(), StatusCode::dimension_mismatch,
               "the point has 1 coordinate, the training inputs have 2 columns");
  expect_error(certify_safety(model, {0.0, kNaN}, options).status(), StatusCode::non_finite,
               "the point entry 1 is NaN");
  options.gamma = -1.0;
  EXPECT_EQ(certify_safety(model, {0.0, 0.0}, options).status().code(), StatusCode::invalid_argument);
  SoftmaxExpectationOptions none;
  EXPECT_EQ(softmax_expectation(Eigen::VectorXd::Zero(1), Eigen::MatrixXd::Zero(1, 1)).status().message(),
            "the softmax expectation needs at least 2 classes, got 1");
  Eigen::MatrixXd indefinite = Eigen::MatrixXd::Identity(3, 3);
  indefinite(0, 1) = indefinite(1, 0) = 3.0;
  EXPECT_EQ(softmax_expectation(Eigen::VectorXd::Zero(3), indefinite).status().code(), StatusCode::numerical_failure);
  Eigen::VectorXd nan_mean = Eigen::VectorXd::Zero(3);
  nan_mean[1] = kNaN;
  EXPECT_EQ(softmax_expectation(nan_mean, Eigen::MatrixXd::Identity(3, 3)).status().message(),
            "latent mean entry 1 is NaN");
}

// A class that never occurs in the training labels: allowed. Its latent is pushed down near the data, so its
// probability there is below 1/C; far from the data every class returns to the prior, 1/C each (shared kernel).
TEST(MulticlassErrors, AClassWithNoExampleIsAllowed) {
  const std::vector<double> y{0, 1, 0, 1};  // class 2 never occurs
  const MulticlassTrainingData data = make_multiclass_training_data(MatrixView(points()), y.data(), 4, 3).value();
  const MulticlassLaplace model = testing::fitted_multiclass(data, {SeArdKernel{2.0, {1.0}}});
  EXPECT_TRUE(std::isfinite(model.log_marginal_likelihood()));
  for (Eigen::Index i = 0; i < 4; ++i) {
    EXPECT_LT(model.pi_hat()(i, 2), 1.0 / 3.0);
    EXPECT_LT(model.f_hat()(i, 2), 0.0);
  }
  RowMatrix probe(2, 2);
  probe << 0.5, 0.5, 60.0, -60.0;
  const MulticlassPrediction p = model.predict(MatrixView(probe)).value();
  EXPECT_LT(p.probability(0, 2), 1.0 / 3.0);
  for (Eigen::Index c = 0; c < 3; ++c) EXPECT_NEAR(p.probability(1, c), 1.0 / 3.0, 1e-12);
}

}  // namespace
}  // namespace gpprobe
