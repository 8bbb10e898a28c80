// The robustness boxes of tests/reference/gpc_golden.json and the models they were computed on.
//
// The reference's boxes were bounded on the reference's own fitted model. Our fits agree with it to
// 1e-8 (Laplace) and 1e-7 (EP) only — their stopping rules differ — so comparing bounds to 1e-9 needs
// the very same model: reference_form() builds the common form from the reference's mean weights and
// site precisions (Laplace: grad_log_lik and W; EP: alpha and site_tau), M = L^-1 diag(sqrt W) with
// L L' = I + sqrt(W) K sqrt(W).
#pragma once

#include <string>

#include <Eigen/Cholesky>

#include "gpprobe/classification/common_form.h"
#include "gpprobe/kernels/kernel_matrix.h"

#include "classification/gpc_fixtures.h"
#include "result_assertions.h"

namespace gpprobe::testing {

inline ClassifierLikelihood likelihood_of(const std::string& model) {
  return model == "laplace_logistic" ? ClassifierLikelihood::logistic : ClassifierLikelihood::probit;
}

inline ClassifierCommonForm reference_form(const nlohmann::json& c, const std::string& model) {
  const RowMatrix X = gpc_matrix(c["X_train"]);
  const std::size_t n = std::size_t(X.rows()), d = std::size_t(X.cols());
  const SeArdKernel kernel = gpc_kernel(c).expanded(d);
  const nlohmann::json& block = c[model];
  const bool ep = model == "ep_probit";
  const std::vector<double> alpha = block[ep ? "alpha" : "grad_log_lik"].get<std::vector<double>>();
  const std::vector<double> W = block[ep ? "site_tau" : "W"].get<std::vector<double>>();
  const RowMatrix K = kernel_matrix(kernel.kernel(), X.data(), n, d);
  const Eigen::VectorXd sW = Eigen::Map<const Eigen::VectorXd>(W.data(), Eigen::Index(n)).cwiseSqrt();
  const Eigen::MatrixXd B =
      Eigen::MatrixXd::Identity(Eigen::Index(n), Eigen::Index(n)) + sW.asDiagonal() * K * sW.asDiagonal();
  const Eigen::MatrixXd L = B.llt().matrixL();
  const RowMatrix M = L.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd(sW.asDiagonal()));
  return ClassifierCommonForm::from_factor(X, kernel, likelihood_of(model),
                                           Eigen::Map<const Eigen::VectorXd>(alpha.data(), Eigen::Index(n)), M)
      .value();
}

// Our own fit of the same block (Laplace or EP at the case's hyperparameters).
inline ClassifierCommonForm fitted_form(const nlohmann::json& c, const std::string& model) {
  ClassifierOptions options;
  options.method = model == "ep_probit" ? ClassifierMethod::ep : ClassifierMethod::laplace;
  options.likelihood = likelihood_of(model);
  return ok_value(GpClassifier::fit(gpc_data(c), gpc_kernel(c), options)).common_form();
}

}  // namespace gpprobe::testing
