#include "probe/function_space_posterior.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "gpprobe/linalg/blocked_cholesky.h"
#include "gpprobe/linalg/cholesky_update.h"
#include "gpprobe/linalg/row_products.h"

namespace gpprobe {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

Status FunctionSpacePosterior::fit(const RowMatrix& psi, const std::vector<std::uint8_t>& labels) {
  const Index O = psi.rows();
  MatrixXd K(O, O);
  // K is symmetric (exactly: one triangle mirrored), so row-major output is its column-major storage too.
  multiply_self_transposed(psi.data(), std::size_t(O), std::size_t(psi.cols()), K.data());
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
  positives_ = std::size_t(std::count(labels.begin(), labels.end(), std::uint8_t(1)));
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
  positives_ += positive ? 1 : 0;
  refresh();
  return Status::success();
}

Status FunctionSpacePosterior::remove(const RowMatrix&, const std::vector<std::uint8_t>& labels, Index i) {
  positives_ -= labels[std::size_t(i)] != 0 ? 1 : 0;
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
  // Per GP: U = L^-1 (row-major lower, for row products) and c = L^-1 r, so that at a query
  // v = U z gives mean z K^-1 r = v.c and variance k - z K^-1 z' = k - |v|^2. Never K^-1 itself: a
  // quadratic form in the explicit inverse squares the condition number (negative variances).
  const Index O = L_alpha_.rows();
  // The variance v - |v|^2 may cancel down to 1/(1/v + sum_i 1/noise_i), no lower (Cauchy-Schwarz on
  // the features: psi' A psi <= v + v^2 sum_i 1/noise_i with A the weight-space precision), so its
  // rounding error relative to the result is up to 1 + v sum_i 1/noise_i times eps, however well
  // conditioned K itself is.
  const double P = double(positives_), N = double(O) - P, v = prior_.variance, raised = prior_.raised.variance;
  condition_ = 1.0 + v * std::max(P / raised + N / v, N / raised + P / v);
  for (auto [L, r, U, c] :
       {std::tuple{&L_alpha_, &r_alpha_, &U_alpha_, &c_alpha_}, std::tuple{&L_beta_, &r_beta_, &U_beta_, &c_beta_}}) {
    *c = L->triangularView<Eigen::Lower>().solve(*r);
    const RowMatrix rows = L->triangularView<Eigen::Lower>();
    RowMatrix transposed(O, O);
    invert_lower_transposed(rows.data(), std::size_t(O), transposed.data());  // L^-T
    U->noalias() = transposed.transpose();
    // (K^-1)_jj = |column j of L^-1|^2 = |row j of L^-T|^2.
    condition_ = std::max(condition_, scaled_condition(*L, transposed.rowwise().squaredNorm()));
  }
}

void FunctionSpacePosterior::predict(const RowMatrix& psi, const double* P, std::size_t count, std::size_t,
                                     double* mean, double* variance) const {
  const std::size_t O = std::size_t(psi.rows());
  const std::size_t D = std::size_t(psi.cols());
  const double v = prior_.variance;  // k(q, q) = v exactly, for f_alpha and f_beta
  if (O == 0) {
    std::fill(mean, mean + count, 0.0);
    std::fill(variance, variance + count, 2.0 * v);
    return;
  }
  thread_local std::vector<double> Z, V, mean_part, explained;  // per-thread scratch (probe.cpp, score)
  Z.resize(count * O);
  V.resize(count * O);
  mean_part.resize(count);
  explained.resize(count);
  multiply_transposed(P, count, psi.data(), O, D, Z.data());  // kernel rows z = k(q, X)
  std::fill(mean, mean + count, 0.0);
  std::fill(variance, variance + count, 0.0);
  for (auto [U, c, sign] : {std::tuple{&U_alpha_, &c_alpha_, 1.0}, std::tuple{&U_beta_, &c_beta_, -1.0}}) {
    multiply_lower_transposed(Z.data(), count, U->data(), O, V.data());  // rows v' = (L^-1 z)'
    multiply_vector(V.data(), count, O, c->data(), mean_part.data());
    rowwise_dot(V.data(), V.data(), count, O, explained.data());
    for (std::size_t i = 0; i < count; ++i) {
      mean[i] += sign * mean_part[i];
      variance[i] += v - explained[i];
    }
  }
}

ObservationInfluence FunctionSpacePosterior::influence(const RowMatrix& psi, const double* x_data,
                                                       std::uint8_t label) const {
  // With z = Psi x and v = L^-1 z per GP: g = C x = x - Psi' K^-1 z = x - Psi' U' v, x'g = |x|^2 - |v|^2
  // and the GP's residual mean at x is v.c (the weight-space C = I - Psi' K^-1 Psi by Woodbury).
  const Index O = psi.rows(), D = psi.cols();
  const Eigen::Map<const VectorXd> x(x_data, D);
  VectorXd z(O);
  multiply_vector(psi.data(), std::size_t(O), std::size_t(D), x_data, z.data());
  ObservationInfluence out;
  for (auto [U, c, raises, share] : {std::tuple{&U_alpha_, &c_alpha_, label != 0, &out.alpha},
                                     std::tuple{&U_beta_, &c_beta_, label == 0, &out.beta}}) {
    const VectorXd v = U->triangularView<Eigen::Lower>() * z;
    VectorXd g = x;
    if (O > 0) g.noalias() -= psi.transpose() * (U->transpose() * v);
    const double p = x.squaredNorm() - v.squaredNorm();
    set_influence(synthetic_observation(prior_, raises), std::move(g), O > 0 ? v.dot(*c) : 0.0, p, share);
  }
  return out;
}

LatentWeights FunctionSpacePosterior::weights(const RowMatrix& psi) const {
  // The certified bounds' form: w = K_alpha^-1 r_alpha - K_beta^-1 r_beta = U_alpha' c_alpha - U_beta' c_beta
  // and M_fs = K_alpha^-1 + K_beta^-1. predict() sums, per GP, (U z)_k c_k for the mean and (U z)_k^2
  // for the variance with |(U z)_k| <= v |row k of U|_1 (every |z_j| <= v): those sums bound its rounding.
  const double v = prior_.variance;
  const VectorXd w = U_alpha_.transpose() * c_alpha_ - U_beta_.transpose() * c_beta_;
  RowMatrix M_fs;
  sum_of_inverses(L_alpha_, L_beta_, &M_fs);
  double mean_terms = 0.0, variance_terms = 0.0;
  for (auto [U, c] : {std::pair{&U_alpha_, &c_alpha_}, std::pair{&U_beta_, &c_beta_}}) {
    const VectorXd row_sums = U->cwiseAbs().rowwise().sum();
    mean_terms += v * row_sums.dot(c->cwiseAbs());
    variance_terms += v * v * row_sums.squaredNorm();
  }
  return LatentWeights::from_function_space(v, psi, w, M_fs, mean_terms, variance_terms);
}

}  // namespace gpprobe
