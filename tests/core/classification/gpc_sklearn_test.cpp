// scikit-learn parity (tests/reference/classification, scripts/fixtures/make_gpc_fixtures.py): the
// logistic Laplace mode, log marginal likelihood, its gradient and the latent predictions equal
// GaussianProcessClassifier(optimizer=None)'s, and the optimiser reaches sklearn's optimum.
#include <gtest/gtest.h>

#include "gpprobe/classification/hyperparameter_fit.h"
#include "gpprobe/classification/laplace_classifier.h"

#include "gpc_fixtures.h"

namespace gpprobe {
namespace {

using testing::expect_all_near;
using testing::relatively_near;

SeArdKernel kernel_of(const nlohmann::json& c) {
  return {c["signal_variance"].get<double>(), c["lengthscales"].get<std::vector<double>>()};
}

TEST(ClassifierSklearn, LogisticLaplaceEqualsSklearn) {
  testing::ErrorLog log;
  for (const auto& c : testing::gpc_sklearn_cases("sklearn.json")) {
    const std::string name = c["name"];
    const ClassifierTrainingData data = testing::gpc_data(c);
    Result<LaplaceFit> fit = fit_laplace(data, kernel_of(c).kernel(), ClassifierLikelihood::logistic, true);
    ASSERT_TRUE(fit.ok()) << name << ": " << fit.status().message();
    // sklearn stops when its LML changes by < 1e-10, so its mode is good to about 1e-10.
    expect_all_near(fit.value().f_hat, c["f_hat"], 1e-8, name + ": f_hat", &log);
    EXPECT_TRUE(relatively_near(fit.value().log_marginal_likelihood, c["log_marginal_likelihood"], 1e-8)) << name;
    log.add("LML", fit.value().log_marginal_likelihood, c["log_marginal_likelihood"]);
    expect_all_near(fit.value().gradient, c["log_marginal_likelihood_gradient"], 1e-8, name + ": LML gradient", &log);

    ClassifierOptions options;
    options.likelihood = ClassifierLikelihood::logistic;
    Result<GpClassifier> gpc = GpClassifier::fit(data, kernel_of(c), options);
    ASSERT_TRUE(gpc.ok());
    const RowMatrix test = testing::gpc_matrix(c["X_test"]);
    std::vector<double> mean(std::size_t(test.rows())), variance(mean.size());
    ASSERT_TRUE(gpc.value().predict(MatrixView(test), {mean.data(), variance.data(), nullptr}).ok());
    expect_all_near(mean, c["latent_mean"], 1e-8, name + ": latent mean", &log);
    expect_all_near(variance, c["latent_variance"], 1e-8, name + ": latent variance", &log);
  }
}

TEST(ClassifierSklearn, OptimiserReachesSklearnsOptimum) {
  // Stated tolerance: our optimum is at least sklearn's minus 1e-6 (both run L-BFGS-B from the same start;
  // sklearn's own mode is only converged to ~1e-10 in the LML).
  for (const auto& c : testing::gpc_sklearn_cases("optimum.json")) {
    const std::string name = c["name"];
    ClassifierOptions options;
    options.likelihood = ClassifierLikelihood::logistic;
    Result<ClassifierHyperparameterFit> fit = fit_gpc_hyperparameters(testing::gpc_data(c), kernel_of(c), options);
    ASSERT_TRUE(fit.ok()) << name << ": " << fit.status().message();
    const double sklearn = c["sklearn_log_marginal_likelihood"];
    EXPECT_GE(fit.value().log_marginal_likelihood, sklearn - 1e-6) << name;
    EXPECT_GE(fit.value().log_marginal_likelihood, fit.value().start_log_marginal_likelihood) << name;
    // The same optimum, so the same hyperparameters (the LML is flat near it: 1e-3 in log space).
    const std::vector<double> theta = c["sklearn_theta"].get<std::vector<double>>();
    EXPECT_NEAR(std::log(fit.value().kernel.signal_variance), theta[0], 1e-3) << name;
    for (std::size_t j = 0; j + 1 < theta.size(); ++j)
      EXPECT_NEAR(std::log(fit.value().kernel.length_scales[j]), theta[j + 1], 1e-3) << name;
    std::cout << "  " << name << ": ours " << fit.value().log_marginal_likelihood << ", sklearn " << sklearn << " ("
              << fit.value().iterations << " L-BFGS iterations)\n";
  }
}

}  // namespace
}  // namespace gpprobe
