// Hyperparameter priors (hyperparameter_prior.h) and the MAP fits that use them:
//  - the log densities against their closed forms written out here (normal; Student-t with nu = 1, the
//    Cauchy density 1 / (pi sigma (1 + z^2)), and nu = 2, (1 + z^2/2)^(-3/2) / (2 sqrt(2) sigma)), their
//    derivatives against central finite differences, and the spec parser's forms and refusals;
//  - binary (Laplace and EP), softmax and regression fits with a prior end where the gradient of
//    log q + log p vanishes (the evidence's gradient from the model, the prior's from the closed form);
//  - a length-scale the data give no gradient to (a feature constant in training) ends at exp(mu) with a
//    prior and stays at its start without one.
#include "gpprobe/classification/hyperparameter_prior.h"

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/classification/hyperparameter_fit.h"
#include "gpprobe/classification/multiclass_hyperparameter_fit.h"
#include "gpprobe/kernels/named_kernels.h"
#include "gpprobe/regression/hyperparameter_fit.h"
#include "gpprobe/regression/marginal_likelihood.h"

#include "gpc_fixtures.h"
#include "multiclass_fixtures.h"
#include "result_assertions.h"

namespace gpprobe {
namespace {

constexpr double kPi = 3.14159265358979323846;

LogPrior lognormal(double mu, double sigma) { return {PriorFamily::lognormal, mu, sigma, 4.0}; }
LogPrior student_t(double mu, double sigma, double nu) { return {PriorFamily::student_t, mu, sigma, nu}; }

TEST(HyperparameterPrior, LogDensitiesAreTheClosedForms) {
  for (double u : {-3.0, -0.4, 0.0, 0.7, 2.5}) {
    const double mu = 0.3, sigma = 1.7, z = (u - mu) / sigma;
    EXPECT_NEAR(lognormal(mu, sigma).log_density(u), -0.5 * std::log(2.0 * kPi) - std::log(sigma) - 0.5 * z * z, 1e-14);
    EXPECT_NEAR(student_t(mu, sigma, 1.0).log_density(u), -std::log(kPi * sigma * (1.0 + z * z)), 1e-14);
    EXPECT_NEAR(student_t(mu, sigma, 2.0).log_density(u),
                std::log(std::pow(1.0 + z * z / 2.0, -1.5) / (2.0 * std::sqrt(2.0) * sigma)), 1e-14);
    // Derivatives in u against central differences.
    for (const LogPrior& p : {lognormal(mu, sigma), student_t(mu, sigma, 1.0), student_t(-1.0, 0.5, 4.0)}) {
      double derivative = 0.0;
      p.log_density(u, &derivative);
      const double h = 1e-5;
      const double fd = (p.log_density(u + h) - p.log_density(u - h)) / (2.0 * h);
      EXPECT_NEAR(derivative, fd, 1e-8 * std::max(1.0, std::abs(derivative))) << u;
    }
  }
  double derivative = 1.0;
  EXPECT_EQ(LogPrior{}.log_density(4.0, &derivative), 0.0);
  EXPECT_EQ(derivative, 0.0);
}

TEST(HyperparameterPrior, ParsesTheFlagFormsAndRefusesOthers) {
  const LogPrior a = ok_value(parse_log_prior("lognormal:0.5,2", "--p"));
  EXPECT_EQ(a.family, PriorFamily::lognormal);
  EXPECT_EQ(a.mu, 0.5);
  EXPECT_EQ(a.sigma, 2.0);
  const LogPrior b = ok_value(parse_log_prior("student-t:-1,0.5,3", "--p"));
  EXPECT_EQ(b.family, PriorFamily::student_t);
  EXPECT_EQ(b.nu, 3.0);
  EXPECT_EQ(ok_value(parse_log_prior("none", "--p")).family, PriorFamily::none);
  const std::string forms = " must be none, lognormal:MU,SIGMA or student-t:MU,SIGMA,NU (on the log of the parameter)";
  for (const char* bad : {"lognormal", "lognormal:1", "lognormal:1,2,3", "gamma:1,2", "student-t:1,2", "lognormal:a,1",
                          "lognormal:1,inf"}) {
    const Result<LogPrior> r = parse_log_prior(bad, "--p");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().message(), "--p" + forms + ", got '" + bad + "'");
  }
  EXPECT_FALSE(parse_log_prior("lognormal:0,0", "--p").ok());
  EXPECT_FALSE(parse_log_prior("student-t:0,1,-2", "--p").ok());
}

TEST(HyperparameterPrior, TheKernelsLayoutGetsOneTermPerParameter) {
  HyperparameterPrior prior{lognormal(1.0, 0.5), student_t(0.0, 2.0, 3.0)};
  const std::vector<double> theta = {0.2, -0.5, 1.5};
  std::vector<double> gradient(3);
  const double sum = log_prior_density(prior, theta, &gradient);
  EXPECT_NEAR(sum,
              prior.signal_variance.log_density(0.2) + prior.length_scale.log_density(-0.5) +
                  prior.length_scale.log_density(1.5),
              1e-14);
  // Two softmax blocks [log s2, log l1, log l2]: the signal variance prior at positions 0 and 3.
  const std::vector<double> blocks = {0.2, -0.5, 1.5, 0.9, 0.1, -0.3};
  std::vector<double> g(6);
  const double total = multiclass_log_prior_density(prior, blocks, 2, &g);
  double expected = 0.0;
  for (std::size_t i = 0; i < 6; ++i) {
    const LogPrior& p = i % 3 == 0 ? prior.signal_variance : prior.length_scale;
    double derivative = 0.0;
    expected += p.log_density(blocks[i], &derivative);
    EXPECT_EQ(g[i], derivative) << i;
  }
  EXPECT_NEAR(total, expected, 1e-14);
}

// The xor case's two inputs and a third that is 0 in every training point.
ClassifierTrainingData xor_with_constant_column() {
  const nlohmann::json c = testing::gpc_golden_cases()[2];
  const RowMatrix x2 = testing::gpc_matrix(c["X_train"]);
  RowMatrix x(x2.rows(), 3);
  x.leftCols(2) = x2;
  x.col(2).setZero();
  const std::vector<double> y = c["y_train"].get<std::vector<double>>();
  return ok_value(make_gpc_training_data(MatrixView(x), y.data(), y.size()));
}

TEST(HyperparameterPrior, BinaryMapFitIsStationaryForLogqPlusLogPrior) {
  const ClassifierTrainingData data = xor_with_constant_column();
  ClassifierHyperparameterOptions fit_options;
  fit_options.prior = {lognormal(0.0, 1.0), lognormal(std::log(2.0), 0.5)};
  for (ClassifierMethod method : {ClassifierMethod::laplace, ClassifierMethod::ep}) {
    ClassifierOptions options;
    options.method = method;
    const ClassifierHyperparameterFit fit = ok_value(fit_gpc_hyperparameters(data, {1.0, {1.0}}, options, fit_options));
    EXPECT_TRUE(fit.converged) << method_name(method);
    const ClassifierEvidence at = ok_value(gpc_log_marginal_likelihood(data, fit.kernel, options));
    EXPECT_NEAR(at.value, fit.log_marginal_likelihood, 1e-9);
    std::vector<double> theta{std::log(fit.kernel.signal_variance)};
    for (double l : fit.kernel.length_scales) theta.push_back(std::log(l));
    std::vector<double> prior_gradient(theta.size());
    EXPECT_NEAR(fit.log_prior, log_prior_density(fit_options.prior, theta, &prior_gradient), 1e-12);
    for (std::size_t i = 0; i < theta.size(); ++i)
      EXPECT_LT(std::abs(at.gradient[i] + prior_gradient[i]), 1e-4) << method_name(method) << " " << i;
    // The constant column: no gradient from the data (exactly 0), so the prior's mode, l = 2.
    EXPECT_EQ(at.gradient[3], 0.0);
    EXPECT_NEAR(fit.kernel.length_scales[2], 2.0, 2e-4) << method_name(method);
    // Without a prior it keeps its start.
    const ClassifierHyperparameterFit ml = ok_value(fit_gpc_hyperparameters(data, {1.0, {1.0}}, options));
    EXPECT_EQ(ml.kernel.length_scales[2], 1.0) << method_name(method);
    EXPECT_EQ(ml.log_prior, 0.0);
    // The MAP objective is at least the ML optimum's under the same prior.
    std::vector<double> ml_theta{std::log(ml.kernel.signal_variance)};
    for (double l : ml.kernel.length_scales) ml_theta.push_back(std::log(l));
    EXPECT_GE(fit.log_marginal_likelihood + fit.log_prior,
              ml.log_marginal_likelihood + log_prior_density(fit_options.prior, ml_theta) - 1e-9);
  }
  ClassifierHyperparameterOptions bad;
  bad.prior.length_scale = lognormal(0.0, -1.0);
  EXPECT_EQ(fit_gpc_hyperparameters(data, {1.0, {1.0}}, {}, bad).status().message(),
            "the length-scale prior needs a finite mu and a finite sigma > 0, got mu 0, sigma -1");
}

TEST(HyperparameterPrior, SoftmaxMapFitIsStationaryForLogqPlusLogPrior) {
  const nlohmann::json c = testing::multiclass_golden_cases()[0];  // c3-blobs-2d-shared
  const MulticlassTrainingData two = testing::multiclass_data(c);
  RowMatrix x(two.x.rows(), 3);
  x.leftCols(2) = two.x;
  x.col(2).setConstant(0.5);
  const std::vector<double> y = c["y"].get<std::vector<double>>();
  const MulticlassTrainingData data =
      ok_value(make_multiclass_training_data(MatrixView(x), y.data(), y.size(), c["C"].get<std::size_t>()));
  for (bool shared : {true, false}) {
    MulticlassHyperparameterOptions options;
    options.shared = shared;
    options.prior = {student_t(0.0, 2.0, 4.0), lognormal(std::log(3.0), 0.7)};
    const MulticlassHyperparameterFit fit =
        ok_value(fit_multiclass_hyperparameters(data, {SeArdKernel{1.0, {1.0, 1.0, 1.0}}}, options));
    const MulticlassLaplace at = testing::fitted_multiclass(data, fit.kernels);
    EXPECT_NEAR(at.log_marginal_likelihood(), fit.log_marginal_likelihood, 1e-8);
    std::vector<double> theta;
    for (std::size_t k = 0; k < (shared ? 1 : fit.kernels.size()); ++k) {
      theta.push_back(std::log(fit.kernels[k].signal_variance));
      for (double l : fit.kernels[k].length_scales) theta.push_back(std::log(l));
    }
    std::vector<double> prior_gradient(theta.size());
    EXPECT_NEAR(fit.log_prior, multiclass_log_prior_density(options.prior, theta, 3, &prior_gradient), 1e-12);
    std::vector<double> evidence_gradient;
    if (shared) {
      std::vector<double> tied(4, 0.0);
      for (const auto& row : at.gradient())
        for (std::size_t p = 0; p < 4; ++p) tied[p] += row[p];
      evidence_gradient = tied;
    } else {
      for (const auto& row : at.gradient()) evidence_gradient.insert(evidence_gradient.end(), row.begin(), row.end());
    }
    for (std::size_t i = 0; i < theta.size(); ++i)
      EXPECT_LT(std::abs(evidence_gradient[i] + prior_gradient[i]), 1e-3) << (shared ? "shared " : "per class ") << i;
    for (const SeArdKernel& k : fit.kernels) EXPECT_NEAR(k.length_scales[2], 3.0, 3e-3);
  }
}

TEST(HyperparameterPrior, RegressionMapFitPutsThePriorOnAmplitudeAndLengthScalesOnly) {
  // 30 points of sin(3x) plus fixed small noise-like wiggles.
  const std::size_t n = 30;
  RowMatrix x(n, 1);
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x(Eigen::Index(i), 0) = -1.5 + 3.0 * double(i) / double(n - 1);
    y[i] = std::sin(3.0 * x(Eigen::Index(i), 0)) + 0.1 * std::cos(17.0 * double(i));
  }
  Kernel kernel = named_kernels().front().kernel;  // rbf: constant.value * rbf.length_scale
  const std::vector<KernelParameter> ps = kernel.parameters();
  HyperparameterFitOptions options;
  options.prior = {lognormal(0.0, 1.0), lognormal(std::log(0.3), 0.5)};
  const std::vector<const LogPrior*> priors = regression_parameter_priors(kernel, options.prior);
  ASSERT_EQ(priors.size(), ps.size());
  for (std::size_t i = 0; i < ps.size(); ++i) {
    if (ps[i].name == "constant.value") EXPECT_EQ(priors[i], &options.prior.signal_variance);
    else if (ps[i].name == "rbf.length_scale") EXPECT_EQ(priors[i], &options.prior.length_scale);
    else EXPECT_EQ(priors[i], nullptr) << ps[i].name;
  }
  const HyperparameterFit fit = ok_value(fit_hyperparameters(MatrixView(x), y.data(), n, kernel, 0.1, options));
  std::vector<double> theta = fit.kernel.log_parameters();
  const std::size_t P = theta.size();
  double mean = 0.0;
  for (double v : y) mean += v / double(n);
  Eigen::VectorXd residual(n);
  for (std::size_t i = 0; i < n; ++i) residual[Eigen::Index(i)] = y[i] - mean;
  const MarginalLikelihood at =
      ok_value(log_marginal_likelihood(fit.kernel, fit.noise_variance, x.data(), n, 1, residual, true));
  EXPECT_NEAR(at.value, fit.log_marginal_likelihood, 1e-8);
  double log_prior = 0.0;
  for (std::size_t i = 0; i < P; ++i) {
    double derivative = 0.0;
    if (priors[i] != nullptr) log_prior += priors[i]->log_density(theta[i], &derivative);
    EXPECT_LT(std::abs(at.gradient[i] + derivative), 1e-4) << ps[i].name;
  }
  EXPECT_LT(std::abs(at.gradient[P]), 1e-4);  // the noise: no prior
  EXPECT_NEAR(fit.log_prior, log_prior, 1e-12);
  EXPECT_NE(fit.log_prior, 0.0);
}

}  // namespace
}  // namespace gpprobe
