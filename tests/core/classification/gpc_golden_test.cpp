// Every case of tests/reference/gpc_golden.json (the reference values of docs/design/classification.md and docs/design/certify.md), to the tolerances,
// compared relatively as the file's README says: |a - b| <= tol * max(1, |b|).
//   Laplace  f^, W, grad log p, latent mean/variance, probit probability 1e-8; LML 1e-9; gradient 1e-7;
//            logistic probability 1e-9 (forces the accurate quadrature)
//   EP       sites, training marginals 1e-6; LML, alpha and predictions 1e-7; gradient 1e-5
#include <gtest/gtest.h>

#include "gpprobe/classification/ep_classifier.h"
#include "gpprobe/classification/laplace_classifier.h"
#include "gpprobe/classification/probability.h"

#include "gpc_fixtures.h"
#include "result_assertions.h"

namespace gpprobe {
namespace {

using testing::expect_all_near;
using testing::relatively_near;

struct Predictions {
  std::vector<double> mean, variance, probability;
};

Predictions predict(const nlohmann::json& c, ClassifierMethod method, ClassifierLikelihood likelihood) {
  ClassifierOptions options;
  options.method = method;
  options.likelihood = likelihood;
  Result<GpClassifier> gpc = GpClassifier::fit(testing::gpc_data(c), testing::gpc_kernel(c), options);
  EXPECT_TRUE(gpc.ok()) << gpc.status().message();
  const RowMatrix test = testing::gpc_matrix(c["X_test"]);
  const std::size_t m = std::size_t(test.rows());
  Predictions p{std::vector<double>(m), std::vector<double>(m), std::vector<double>(m)};
  EXPECT_TRUE(ok_value(gpc).predict(MatrixView(test), {p.mean.data(), p.variance.data(), p.probability.data()}).ok());
  return p;
}

void check_laplace(const nlohmann::json& c, ClassifierLikelihood likelihood, const nlohmann::json& e,
                   testing::ErrorLog* log) {
  const std::string name = c["name"].get<std::string>() + " " + likelihood_name(likelihood);
  Result<LaplaceFit> fit = fit_laplace(testing::gpc_data(c), testing::gpc_kernel(c).kernel(), likelihood, true);
  ASSERT_TRUE(fit.ok()) << name << ": " << fit.status().message();
  const LaplaceFit& f = fit.value();
  expect_all_near(f.f_hat, e["f_hat"], 1e-8, name + ": f_hat", log);
  expect_all_near(f.W, e["W"], 1e-8, name + ": W", log);
  expect_all_near(f.alpha, e["grad_log_lik"], 1e-8, name + ": grad_log_lik", log);
  EXPECT_TRUE(relatively_near(f.log_marginal_likelihood, e["log_marginal_likelihood"], 1e-9)) << name << " LML";
  log->add("LML", f.log_marginal_likelihood, e["log_marginal_likelihood"]);
  expect_all_near(f.gradient, e["lml_gradient"], 1e-7, name + ": LML gradient", log);
  // Our stopping rule (1e-10) is looser than the reference's (1e-13): never more Newton steps.
  EXPECT_LE(f.iterations, e["newton_iterations"].get<std::size_t>()) << name;

  const Predictions p = predict(c, ClassifierMethod::laplace, likelihood);
  expect_all_near(p.mean, e["latent_mean"], 1e-8, name + ": latent mean", log);
  expect_all_near(p.variance, e["latent_variance"], 1e-8, name + ": latent variance", log);
  expect_all_near(p.probability, e["prob"], likelihood == ClassifierLikelihood::probit ? 1e-8 : 1e-9,
                  name + ": probability", log);
  if (likelihood == ClassifierLikelihood::logistic) {
    std::vector<double> mackay;
    for (std::size_t i = 0; i < p.mean.size(); ++i) mackay.push_back(mackay_approximation(p.mean[i], p.variance[i]));
    expect_all_near(mackay, e["prob_mackay"], 1e-8, name + ": MacKay approximation", log);
  }
}

TEST(ClassifierGolden, LaplaceProbitEveryCase) {
  testing::ErrorLog errors, *log = &errors;
  for (const auto& c : testing::gpc_golden_cases())
    if (c.contains("laplace_probit")) check_laplace(c, ClassifierLikelihood::probit, c["laplace_probit"], log);
}

TEST(ClassifierGolden, LaplaceLogisticEveryCase) {
  testing::ErrorLog errors;
  std::size_t cases = 0;
  for (const auto& c : testing::gpc_golden_cases()) {
    if (!c.contains("laplace_logistic")) continue;
    check_laplace(c, ClassifierLikelihood::logistic, c["laplace_logistic"], &errors);
    ++cases;
  }
  EXPECT_EQ(cases, 4u);
}

TEST(ClassifierGolden, EpProbitEveryCase) {
  testing::ErrorLog errors, *log = &errors;
  std::size_t cases = 0;
  for (const auto& c : testing::gpc_golden_cases()) {
    if (!c.contains("ep_probit")) continue;
    ++cases;
    const std::string name = c["name"].get<std::string>() + " EP";
    const nlohmann::json& e = c["ep_probit"];
    Result<EpFit> fit = fit_ep(testing::gpc_data(c), testing::gpc_kernel(c).kernel(), true);
    ASSERT_TRUE(fit.ok()) << name << ": " << fit.status().message();
    const EpFit& f = fit.value();
    expect_all_near(f.site_tau, e["site_tau"], 1e-6, name + ": site_tau", log);
    expect_all_near(f.site_nu, e["site_nu"], 1e-6, name + ": site_nu", log);
    expect_all_near(f.mean, e["post_mean_train"], 1e-6, name + ": post_mean_train", log);
    expect_all_near(f.variance, e["post_var_train"], 1e-6, name + ": post_var_train", log);
    expect_all_near(f.alpha, e["alpha"], 1e-7, name + ": alpha", log);
    EXPECT_TRUE(relatively_near(f.log_marginal_likelihood, e["log_marginal_likelihood"], 1e-7)) << name << " LML";
    log->add("LML", f.log_marginal_likelihood, e["log_marginal_likelihood"]);
    expect_all_near(f.gradient, e["lml_gradient"], 1e-5, name + ": LML gradient", log);
    EXPECT_LE(f.iterations, e["sweeps"].get<std::size_t>()) << name;
    EXPECT_EQ(f.clipped_sites, 0u) << name;

    const Predictions p = predict(c, ClassifierMethod::ep, ClassifierLikelihood::probit);
    expect_all_near(p.mean, e["latent_mean"], 1e-7, name + ": latent mean", log);
    expect_all_near(p.variance, e["latent_variance"], 1e-7, name + ": latent variance", log);
    expect_all_near(p.probability, e["prob"], 1e-7, name + ": probability", log);
  }
  EXPECT_EQ(cases, 4u);
}

}  // namespace
}  // namespace gpprobe
