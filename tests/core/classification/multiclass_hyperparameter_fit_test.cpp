// Type-II maximum likelihood for the multi-class model (multiclass_hyperparameter_fit.h): per class and
// shared, the result is a stationary point of the evidence (its gradient, recomputed from scratch, is
// below 1e-3 in every free parameter), never worse than the start, reproducible with a seed, and the
// shared fit keeps one kernel for every class.
#include "gpprobe/classification/multiclass_hyperparameter_fit.h"

#include <gtest/gtest.h>

#include "multiclass_fixtures.h"

namespace gpprobe {
namespace {

void expect_stationary(const MulticlassTrainingData& data, const MulticlassHyperparameterFit& fit, bool shared) {
  const MulticlassLaplace at = testing::fitted_multiclass(data, fit.kernels);
  EXPECT_NEAR(at.log_marginal_likelihood(), fit.log_marginal_likelihood, 1e-9);
  if (shared) {
    for (double g : at.tied_gradient()) EXPECT_LE(std::abs(g), 1e-3);
  } else {
    for (const auto& row : at.gradient())
      for (double g : row) EXPECT_LE(std::abs(g), 1e-3);
  }
}

TEST(MulticlassHyperparameterFit, PerClassAndShared) {
  const nlohmann::json c = testing::multiclass_golden_cases()[0];  // c3-blobs-2d-shared
  const MulticlassTrainingData data = testing::multiclass_data(c);
  const std::vector<SeArdKernel> start = testing::multiclass_kernels(c);
  MulticlassHyperparameterOptions options;
  options.shared = true;
  const MulticlassHyperparameterFit shared = fit_multiclass_hyperparameters(data, start, options).value();
  EXPECT_TRUE(shared.converged);
  EXPECT_GE(shared.log_marginal_likelihood, shared.start_log_marginal_likelihood);
  EXPECT_NEAR(shared.start_log_marginal_likelihood, c["log_marginal_likelihood"].get<double>(), 1e-9);
  for (const SeArdKernel& k : shared.kernels) {
    EXPECT_EQ(k.signal_variance, shared.kernels[0].signal_variance);
    EXPECT_EQ(k.length_scales, shared.kernels[0].length_scales);
  }
  expect_stationary(data, shared, true);

  options.shared = false;
  options.restarts = 2;
  options.seed = 4;
  const MulticlassHyperparameterFit per_class = fit_multiclass_hyperparameters(data, start, options).value();
  EXPECT_EQ(per_class.run_values.size(), 3u);
  // More freedom: at least the shared optimum (the per-class run 0 starts from the same point).
  EXPECT_GE(per_class.log_marginal_likelihood, shared.log_marginal_likelihood - 1e-6);
  expect_stationary(data, per_class, false);
  const MulticlassHyperparameterFit again = fit_multiclass_hyperparameters(data, start, options).value();
  EXPECT_EQ(again.log_marginal_likelihood, per_class.log_marginal_likelihood);
  EXPECT_EQ(again.kernels[1].length_scales, per_class.kernels[1].length_scales);
}

TEST(MulticlassHyperparameterFit, Errors) {
  const nlohmann::json c = testing::multiclass_golden_cases()[0];
  const MulticlassTrainingData data = testing::multiclass_data(c);
  MulticlassHyperparameterOptions options;
  options.length_scale_lower = 0.0;
  EXPECT_EQ(fit_multiclass_hyperparameters(data, testing::multiclass_kernels(c), options).status().message(),
            "length-scale bounds must satisfy 0 < lower <= upper < inf");
  EXPECT_EQ(fit_multiclass_hyperparameters(data, {SeArdKernel{1.0, {1.0}}, SeArdKernel{1.0, {1.0}}}).status().code(),
            StatusCode::dimension_mismatch);
}

}  // namespace
}  // namespace gpprobe
