// Learning GP classification hyperparameters: never below the start, at a stationary point, seeded
// restarts, held parameters, progress and cancel. (Parity with scikit-learn's optimum: gpc_sklearn_test.)
#include "gpprobe/classification/hyperparameter_fit.h"

#include <cmath>

#include <gtest/gtest.h>

#include "gpprobe/common/random_stream.h"
#include "gpprobe/kernels/kernel_matrix.h"

#include "gpc_fixtures.h"
#include "result_assertions.h"

namespace gpprobe {
namespace {

const nlohmann::json& xor_case() {
  static const nlohmann::json c = testing::gpc_golden_cases()[2];
  return c;
}

TEST(ClassifierHyperparameterFit, NeverEndsBelowItsStartAndStopsAtAStationaryPoint) {
  const ClassifierTrainingData data = testing::gpc_data(xor_case());
  RandomStream rng(5);
  for (ClassifierMethod method : {ClassifierMethod::laplace, ClassifierMethod::ep}) {
    for (int trial = 0; trial < 4; ++trial) {
      const SeArdKernel start{std::exp(rng.uniform(-2.0, 3.0)),
                              {std::exp(rng.uniform(-1.5, 1.5)), std::exp(rng.uniform(-1.5, 1.5))}};
      ClassifierOptions options;
      options.method = method;
      Result<ClassifierHyperparameterFit> fit = fit_gpc_hyperparameters(data, start, options);
      ASSERT_TRUE(fit.ok()) << fit.status().message();
      const ClassifierHyperparameterFit& f = fit.value();
      EXPECT_GE(f.log_marginal_likelihood, f.start_log_marginal_likelihood) << method_name(method) << " " << trial;
      EXPECT_TRUE(f.converged);
      // The reported value is the likelihood at the reported kernel, where the gradient vanishes.
      const ClassifierEvidence at = ok_value(gpc_log_marginal_likelihood(data, f.kernel, options));
      EXPECT_EQ(at.value, f.log_marginal_likelihood);
      for (double g : at.gradient) EXPECT_LT(std::abs(g), 1e-4) << method_name(method) << " " << trial;
    }
  }
}

TEST(ClassifierHyperparameterFit, SharedLengthScaleIsStationaryAlongTheIsotropicDirection) {
  // XOR is symmetric in its two inputs, so the shared optimum is also a point where each ARD length-scale's
  // own derivative is about half of the shared one; the property tested is the chain rule: with one
  // length-scale l for every column, d log q / d log l = sum_j d log q / d log l_j, which must vanish there.
  const ClassifierTrainingData data = testing::gpc_data(xor_case());
  ClassifierHyperparameterOptions shared;
  shared.shared_length_scale = true;
  for (ClassifierMethod method : {ClassifierMethod::laplace, ClassifierMethod::ep}) {
    ClassifierOptions options;
    options.method = method;
    const ClassifierHyperparameterFit fit = ok_value(fit_gpc_hyperparameters(data, {1.0, {0.7}}, options, shared));
    ASSERT_EQ(fit.kernel.length_scales.size(), 1u);
    EXPECT_TRUE(fit.converged);
    EXPECT_GE(fit.log_marginal_likelihood, fit.start_log_marginal_likelihood);
    const ClassifierEvidence at = ok_value(gpc_log_marginal_likelihood(data, fit.kernel, options));
    ASSERT_EQ(at.gradient.size(), 3u);  // d/d[log s2, log l_1, log l_2]
    // The fit evaluates the isotropic kernel from squared distances (gpc_isotropic_log_marginal_likelihood),
    // the expanded kernel here pair by pair: the same value to rounding.
    EXPECT_NEAR(at.value, fit.log_marginal_likelihood, 1e-12 * std::abs(at.value));
    EXPECT_LT(std::abs(at.gradient[0]), 1e-4) << method_name(method);
    EXPECT_LT(std::abs(at.gradient[1] + at.gradient[2]), 1e-4) << method_name(method);
    // A 1-D scan along l (s2 at its optimum) finds nothing better than the optimiser's l.
    for (double factor : {0.8, 0.9, 0.97, 1.03, 1.1, 1.25}) {
      const SeArdKernel moved{fit.kernel.signal_variance, {fit.kernel.length_scales[0] * factor}};
      EXPECT_LT(ok_value(gpc_log_marginal_likelihood(data, moved, options)).value, fit.log_marginal_likelihood)
          << factor;
    }
    // One length-scale per column has more freedom: its optimum is at least as high.
    const ClassifierHyperparameterFit ard = ok_value(fit_gpc_hyperparameters(data, {1.0, {0.7}}, options));
    EXPECT_GE(ard.log_marginal_likelihood, fit.log_marginal_likelihood - 1e-9) << method_name(method);
  }
}

TEST(ClassifierHyperparameterFit, RestartsAreSeededAndNeverLose) {
  const ClassifierTrainingData data = testing::gpc_data(xor_case());
  ClassifierHyperparameterOptions fit_options;
  fit_options.restarts = 3;
  fit_options.seed = 17;
  fit_options.signal_variance_upper = 100.0;  // keep the random starts where Laplace is quick
  fit_options.length_scale_lower = 0.05;
  fit_options.length_scale_upper = 20.0;
  const SeArdKernel start{1.0, {1.0}};
  const auto a = ok_value(fit_gpc_hyperparameters(data, start, {}, fit_options));
  const auto b = ok_value(fit_gpc_hyperparameters(data, start, {}, fit_options));
  ASSERT_EQ(a.run_values.size(), 4u);
  for (double v : a.run_values) EXPECT_LE(v, a.log_marginal_likelihood);
  EXPECT_EQ(a.log_marginal_likelihood, b.log_marginal_likelihood);
  EXPECT_EQ(a.kernel.length_scales, b.kernel.length_scales);
}

TEST(ClassifierHyperparameterFit, HeldParametersStayPut) {
  ClassifierHyperparameterOptions fit_options;
  fit_options.signal_variance_lower = fit_options.signal_variance_upper = 2.0;
  const auto fit = ok_value(fit_gpc_hyperparameters(testing::gpc_data(xor_case()), {2.0, {1.0, 1.0}}, {}, fit_options));
  EXPECT_EQ(fit.kernel.signal_variance, 2.0);
  EXPECT_NE(fit.kernel.length_scales[0], 1.0);
  EXPECT_EQ(fit_gpc_hyperparameters(testing::gpc_data(xor_case()), {2.0, {1.0}}, {},
                                    [] {
                                      ClassifierHyperparameterOptions o;
                                      o.length_scale_lower = 0.0;
                                      return o;
                                    }())
                .status()
                .message(),
            "length-scale bounds must satisfy 0 < lower <= upper < inf");
}

TEST(ClassifierHyperparameterFit, ReportsProgressAndCancels) {
  const ClassifierTrainingData data = testing::gpc_data(xor_case());
  ClassifierHyperparameterOptions fit_options;
  fit_options.restarts = 2;
  fit_options.max_iterations = 50;
  fit_options.signal_variance_upper = 100.0;
  std::size_t last = 0;
  const auto fit =
      fit_gpc_hyperparameters(data, {1.0, {1.0}}, {}, fit_options, [&](std::size_t done, std::size_t total) {
        EXPECT_EQ(total, 150u);
        EXPECT_GE(done, last);
        last = done;
        return true;
      });
  ASSERT_TRUE(fit.ok());
  EXPECT_EQ(last, 150u);
  const Status cancelled =
      fit_gpc_hyperparameters(data, {1.0, {1.0}}, {}, fit_options, [](std::size_t done, std::size_t) {
        return done < 2;
      }).status();
  EXPECT_EQ(cancelled.code(), StatusCode::cancelled);
  EXPECT_EQ(cancelled.message(), "hyperparameter fit cancelled in run 1 of 3");
}

// The start's evidence doubles as L-BFGS's first evaluation (not computed twice): it is the evidence at
// the start to rounding of its parameters, and a one-iteration fit's result is the fit's own first step
// from that value (its reported likelihood is evaluated afresh at its kernel, bit for bit).
TEST(ClassifierHyperparameterFit, TheStartsEvidenceIsTheEvidenceAtTheStart) {
  const ClassifierTrainingData data = testing::gpc_data(xor_case());
  for (ClassifierMethod method : {ClassifierMethod::laplace, ClassifierMethod::ep}) {
    ClassifierOptions options;
    options.method = method;
    const SeArdKernel start{1.7, {0.9, 1.3}};
    ClassifierHyperparameterOptions fit_options;
    fit_options.max_iterations = 1;
    Result<ClassifierHyperparameterFit> fit = fit_gpc_hyperparameters(data, start, options, fit_options);
    ASSERT_TRUE(fit.ok()) << fit.status().message();
    const double expected = ok_value(gpc_log_marginal_likelihood(data, start, options)).value;
    EXPECT_NEAR(fit.value().start_log_marginal_likelihood, expected, 1e-13 * std::abs(expected)) << method_name(method);
    EXPECT_GT(fit.value().log_marginal_likelihood, fit.value().start_log_marginal_likelihood) << method_name(method);
    EXPECT_EQ(ok_value(gpc_log_marginal_likelihood(data, fit.value().kernel, options)).value,
              fit.value().log_marginal_likelihood)
        << method_name(method);
  }
}

TEST(ClassifierHyperparameterFit, IsotropicEvidenceFromSquaredDistancesEqualsTheExpandedKernels) {
  // The shared length-scale fit's evidence: from D2, gradient [log s2, log l]; against the expanded
  // kernel pair by pair, whose length-scale entries sum to the isotropic derivative (chain rule).
  const ClassifierTrainingData data = testing::gpc_data(xor_case());
  const RowMatrix D2 = squared_distances(data.x.data(), data.size(), data.dimension());
  for (ClassifierMethod method : {ClassifierMethod::laplace, ClassifierMethod::ep}) {
    ClassifierOptions options;
    options.method = method;
    for (const auto& [s2, l] : {std::pair{1.0, 0.7}, std::pair{5.0, 2.5}, std::pair{0.2, 0.3}}) {
      const ClassifierEvidence iso = ok_value(gpc_isotropic_log_marginal_likelihood(data, D2, s2, l, options));
      const ClassifierEvidence full = ok_value(gpc_log_marginal_likelihood(data, SeArdKernel{s2, {l}}, options));
      ASSERT_EQ(iso.gradient.size(), 2u);
      ASSERT_EQ(full.gradient.size(), 1u + data.dimension());
      EXPECT_NEAR(iso.value, full.value, 1e-12 * std::abs(full.value)) << method_name(method) << " " << l;
      EXPECT_NEAR(iso.gradient[0], full.gradient[0], 1e-10 * (1.0 + std::abs(full.gradient[0]))) << method_name(method);
      double sum = 0.0;
      for (std::size_t j = 1; j < full.gradient.size(); ++j) sum += full.gradient[j];
      EXPECT_NEAR(iso.gradient[1], sum, 1e-10 * (1.0 + std::abs(sum))) << method_name(method) << " " << l;
      EXPECT_GT(std::abs(sum), 1e-3) << method_name(method) << " " << l;  // a derivative that is not zero
    }
  }
  EXPECT_EQ(gpc_isotropic_log_marginal_likelihood(data, RowMatrix::Zero(3, 3), 1.0, 1.0, {}).status().message(),
            "squared distances of 3 points for " + std::to_string(data.size()) + " training points");
}

}  // namespace
}  // namespace gpprobe
