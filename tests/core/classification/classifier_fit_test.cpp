// The one fit sequence of the classifiers (classifier_fit.h), as every face calls it: the checks in their
// order and words, a prior only with optimize, the softmax kernels from 1 or C values, the class counts,
// and the optimum's warm start reaching the same mode as a cold start.
#include "gpprobe/classification/classifier_fit.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace gpprobe {
namespace {

void expect_status(const Status& s, StatusCode code, const std::string& message) {
  EXPECT_EQ(s.code(), code) << s.message();
  EXPECT_EQ(s.message(), message);
}

struct Blobs {
  RowMatrix x{9, 2};
  std::vector<double> y{0, 0, 0, 1, 1, 1, 2, 2, 2};
  Blobs() { x << 0, 0, 0.3, 0.1, 0.1, 0.4, 2, 0, 2.2, 0.3, 1.8, 0.2, 0, 2, 0.2, 2.3, -0.1, 1.7; }
};

TEST(ClassifierFitSequence, BinaryRefusesAPriorWithoutOptimize) {
  Blobs b;
  std::vector<double> y{0, 0, 0, 1, 1, 1, 1, 1, 1};
  ClassifierFitSettings s;
  s.kernel = {1.0, {1.0}};
  s.hyperparameters.prior.signal_variance.family = PriorFamily::lognormal;
  expect_status(fit_classifier(MatrixView(b.x), y.data(), 9, s).status(), StatusCode::invalid_argument,
                "a hyperparameter prior only applies when the hyperparameters are optimised");
  s.optimize = true;
  Result<ClassifierFit> f = fit_classifier(MatrixView(b.x), y.data(), 9, s);
  ASSERT_TRUE(f.ok()) << f.status().message();
  ASSERT_TRUE(f.value().optimum.has_value());
  // log p(log s2) of N(0, 1) at the fitted s2: the reported log prior (no length-scale prior).
  const double u = std::log(f.value().classifier.kernel().signal_variance);
  EXPECT_NEAR(f.value().optimum->log_prior, -0.5 * std::log(2 * kPriorPi) - 0.5 * u * u, 1e-12);
}

TEST(ClassifierFitSequence, BinaryChecksTheKernelBeforeTheData) {
  Blobs b;
  ClassifierFitSettings s;
  s.kernel = {1.0, {1.0, 1.0, 1.0}};
  // The labels are bad too (2 is not 0/1): the kernel's check comes first.
  expect_status(fit_classifier(MatrixView(b.x), b.y.data(), 9, s).status(), StatusCode::dimension_mismatch,
                "3 length-scales for 2 input columns");
  s.model.method = ClassifierMethod::ep;
  s.model.likelihood = ClassifierLikelihood::logistic;
  EXPECT_EQ(fit_classifier(MatrixView(b.x), b.y.data(), 9, s).status().code(), StatusCode::invalid_argument);
}

TEST(ClassifierFitSequence, SoftmaxKernelsByTheFacesNames) {
  Blobs b;
  MulticlassFitSettings s;
  s.signal_variances = {1.0, 2.0};
  s.length_scales = {{1.0}};
  s.signal_variances_name = "--signal-variance";
  expect_status(fit_multiclass_classifier(MatrixView(b.x), b.y.data(), 9, s).status(), StatusCode::invalid_argument,
                "--signal-variance has 2 values for 3 classes: give 1 or 3");
  s.signal_variances = {1.0};
  s.length_scales = {{1.0}, {1.0}};
  expect_status(fit_multiclass_classifier(MatrixView(b.x), b.y.data(), 9, s).status(), StatusCode::invalid_argument,
                "lengthScales has 2 lists for 3 classes: give 1 (shared) or 3");
  s.length_scales = {{1.0}, {1.0}, {1.0, -1.0}};
  expect_status(fit_multiclass_classifier(MatrixView(b.x), b.y.data(), 9, s).status(), StatusCode::invalid_argument,
                "kernel of class 2: length-scale 2 must be a finite number > 0, got -1");
}

TEST(ClassifierFitSequence, SoftmaxCountsClassesAndWarmStartsAtTheSameMode) {
  Blobs b;
  MulticlassFitSettings s;
  s.signal_variances = {1.0};
  s.length_scales = {{1.0}};
  s.classes = 4;  // a class without an example
  s.optimize = true;
  s.hyperparameters.shared = true;
  Result<MulticlassFit> f = fit_multiclass_classifier(MatrixView(b.x), b.y.data(), 9, s);
  ASSERT_TRUE(f.ok()) << f.status().message();
  // Each checked alone: GCC 12 at -O3 -march=native builds the literal std::vector<std::size_t>{3, 3, 3, 0}
  // as {3, 3, 3, 3} on this machine's AVX-512.
  const std::vector<std::size_t>& counts = f.value().class_counts;
  ASSERT_EQ(counts.size(), 4u);
  for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(counts[c], 3u) << c;
  EXPECT_EQ(counts[3], 0u);
  ASSERT_TRUE(f.value().optimum.has_value());
  EXPECT_GT(f.value().warm_start.size(), 0);
  // Refitted cold at the optimum's kernels: the same log marginal likelihood (Psi is strictly concave).
  MulticlassFitSettings cold;
  cold.classes = 4;
  for (const SeArdKernel& k : f.value().model.kernels()) {
    cold.signal_variances.push_back(k.signal_variance);
    cold.length_scales.push_back(k.length_scales);
  }
  Result<MulticlassFit> c = fit_multiclass_classifier(MatrixView(b.x), b.y.data(), 9, cold);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c.value().warm_start.size(), 0);
  EXPECT_NEAR(c.value().model.log_marginal_likelihood(), f.value().model.log_marginal_likelihood(),
              1e-9 * std::abs(f.value().model.log_marginal_likelihood()));
}

}  // namespace
}  // namespace gpprobe
