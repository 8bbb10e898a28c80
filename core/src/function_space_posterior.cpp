#include "function_space_posterior.h"

#include <vector>

#include "gpprobe/cholesky_update.h"
#include "gpprobe/row_products.h"

namespace gpprobe {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

Status FunctionSpacePosterior::fit(const RowMatrix& psi, const std::vector<std::uint8_t>& labels) {
  const Index O = psi.rows();
  MatrixXd K(O, O);
  // K is symmetric, so the row-major product can be written straight into column-major storage.
  multiply_transposed(psi.data(), std::size_t(O), psi.data(), std::size_t(O), std::size_t(psi.cols()), K.data());
  MatrixXd K_alpha = K, K_beta = K;
  r_alpha_.resize(O);
  r_beta_.resize(O);
  for (Index i = 0; i < O; ++i) {
    const bool positive = labels[std::size_t(i)] != 0;
    const SyntheticObservation a = synthetic_observation(prior_, positive);
    const SyntheticObservation b = synthetic_observation(prior_, !positive);
    K_alpha(i, i) += a.noise;
    K_beta(i, i) += b.noise;
    r_alpha_[i] = a.residual;
    r_beta_[i] = b.residual;
  }
  GPPROBE_RETURN_IF_ERROR(cholesky_factor(K_alpha, &L_alpha_, "the kernel matrix of f_alpha"));
  GPPROBE_RETURN_IF_ERROR(cholesky_factor(K_beta, &L_beta_, "the kernel matrix of f_beta"));
  refresh();
  return Status::success();
}

Status FunctionSpacePosterior::add(const RowMatrix& psi, const double* psi_new, std::uint8_t label) {
  const Index O = psi.rows();
  const Index D = psi.cols();
  VectorXd k(O);
  multiply_vector(psi.data(), std::size_t(O), std::size_t(D), psi_new, k.data());
  const double k_self = Eigen::Map<const VectorXd>(psi_new, D).squaredNorm();
  const bool positive = label != 0;
  const SyntheticObservation a = synthetic_observation(prior_, positive);
  const SyntheticObservation b = synthetic_observation(prior_, !positive);
  // Work on copies so a failure leaves the posterior as it was.
  MatrixXd L_alpha = L_alpha_, L_beta = L_beta_;
  GPPROBE_RETURN_IF_ERROR(append_row(&L_alpha, k, k_self + a.noise, "the kernel matrix of f_alpha"));
  GPPROBE_RETURN_IF_ERROR(append_row(&L_beta, k, k_self + b.noise, "the kernel matrix of f_beta"));
  L_alpha_ = std::move(L_alpha);
  L_beta_ = std::move(L_beta);
  r_alpha_.conservativeResize(O + 1);
  r_beta_.conservativeResize(O + 1);
  r_alpha_[O] = a.residual;
  r_beta_[O] = b.residual;
  refresh();
  return Status::success();
}

Status FunctionSpacePosterior::remove(const RowMatrix&, const std::vector<std::uint8_t>&, Index i) {
  delete_row(&L_alpha_, i);
  delete_row(&L_beta_, i);
  const Index O = r_alpha_.size();
  for (VectorXd* r : {&r_alpha_, &r_beta_}) {
    VectorXd shrunk(O - 1);
    shrunk << r->head(i), r->tail(O - i - 1);
    *r = std::move(shrunk);
  }
  refresh();
  return Status::success();
}

void FunctionSpacePosterior::refresh() {
  // We want alpha = K^-1 r (two triangular solves), not L^-1 r.
  VectorXd a_alpha = L_alpha_.triangularView<Eigen::Lower>().solve(r_alpha_);
  L_alpha_.triangularView<Eigen::Lower>().transpose().solveInPlace(a_alpha);
  VectorXd a_beta = L_beta_.triangularView<Eigen::Lower>().solve(r_beta_);
  L_beta_.triangularView<Eigen::Lower>().transpose().solveInPlace(a_beta);
  w_ = a_alpha - a_beta;

  sum_of_inverses(L_alpha_, L_beta_, &M_);
}

void FunctionSpacePosterior::predict(const RowMatrix& psi, const double* P, std::size_t count,
                                     double* mean, double* variance) const {
  const std::size_t O = std::size_t(psi.rows());
  const std::size_t D = std::size_t(psi.cols());
  const double prior_variance = 2.0 * prior_.variance;  // k(q, q) = v exactly, for f_alpha and f_beta
  if (O == 0) {
    std::fill(mean, mean + count, 0.0);
    std::fill(variance, variance + count, prior_variance);
    return;
  }
  std::vector<double> Z(count * O), ZM(count * O);
  multiply_transposed(P, count, psi.data(), O, D, Z.data());   // kernel rows k(q, X)
  multiply_vector(Z.data(), count, O, w_.data(), mean);
  multiply_transposed(Z.data(), count, M_.data(), O, O, ZM.data());  // M is symmetric: rows = columns
  rowwise_dot(Z.data(), ZM.data(), count, O, variance);
  for (std::size_t i = 0; i < count; ++i) variance[i] = prior_variance - variance[i];
}

LatentWeights FunctionSpacePosterior::weights(const RowMatrix& psi) const {
  return LatentWeights::from_function_space(prior_.variance, psi, w_, M_);
}

}  // namespace gpprobe
