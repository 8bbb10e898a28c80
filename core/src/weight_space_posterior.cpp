#include "weight_space_posterior.h"

#include <algorithm>
#include <vector>

#include "gpprobe/cholesky_update.h"
#include "gpprobe/row_products.h"

namespace gpprobe {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

// G = Psi_c' Psi_c and s = Psi_c' 1 over the rows of one label class.
void class_statistics(const RowMatrix& psi, const std::vector<std::uint8_t>& labels, std::uint8_t label,
                      MatrixXd* G, VectorXd* s) {
  const Index D = psi.cols();
  std::vector<Index> rows;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] == label) rows.push_back(Index(i));
  // The transposed class block, D by n_c row-major: its rows are the columns of Psi_c, so the Gram
  // matrix Psi_c' Psi_c is one row product.
  RowMatrix T(D, Index(rows.size()));
  for (Index c = 0; c < Index(rows.size()); ++c) T.col(c) = psi.row(rows[std::size_t(c)]).transpose();
  G->resize(D, D);
  multiply_transposed(T.data(), std::size_t(D), T.data(), std::size_t(D), rows.size(), G->data());
  *s = T.rowwise().sum();
}

}  // namespace

Status WeightSpacePosterior::fit(const RowMatrix& psi, const std::vector<std::uint8_t>& labels) {
  class_statistics(psi, labels, 1, &G_positive_, &s_positive_);
  class_statistics(psi, labels, 0, &G_negative_, &s_negative_);
  return refresh();
}

Status WeightSpacePosterior::add(const RowMatrix&, const double* psi_new, std::uint8_t label) {
  const Eigen::Map<const VectorXd> x(psi_new, G_positive_.rows());
  MatrixXd& G = label ? G_positive_ : G_negative_;
  VectorXd& s = label ? s_positive_ : s_negative_;
  G.noalias() += x * x.transpose();
  s += x;
  const Status status = refresh();
  if (!status.ok()) {  // leave the posterior as it was
    G.noalias() -= x * x.transpose();
    s -= x;
  }
  return status;
}

Status WeightSpacePosterior::remove(const RowMatrix& psi, const std::vector<std::uint8_t>& labels, Index i) {
  const VectorXd x = psi.row(i).transpose();
  MatrixXd& G = labels[std::size_t(i)] ? G_positive_ : G_negative_;
  VectorXd& s = labels[std::size_t(i)] ? s_positive_ : s_negative_;
  G.noalias() -= x * x.transpose();
  s -= x;
  const Status status = refresh();
  if (!status.ok()) {  // leave the posterior as it was
    G.noalias() += x * x.transpose();
    s += x;
  }
  return status;
}

Status WeightSpacePosterior::refresh() {
  const Index D = G_positive_.rows();
  const double raised = prior_.raised.variance;
  const double base = prior_.variance;
  const double delta = prior_.raised.mean - prior_.mean;
  const MatrixXd identity = MatrixXd::Identity(D, D);
  MatrixXd L_alpha, L_beta;
  GPPROBE_RETURN_IF_ERROR(cholesky_factor(identity + G_positive_ / raised + G_negative_ / base, &L_alpha,
                                          "the weight precision of f_alpha"));
  GPPROBE_RETURN_IF_ERROR(cholesky_factor(identity + G_negative_ / raised + G_positive_ / base, &L_beta,
                                          "the weight precision of f_beta"));
  // u = A_alpha^-1 b_alpha - A_beta^-1 b_beta with b = s delta / n+ (a class's raising observations).
  VectorXd u_alpha = s_positive_ * (delta / raised);
  L_alpha.triangularView<Eigen::Lower>().solveInPlace(u_alpha);
  L_alpha.triangularView<Eigen::Lower>().transpose().solveInPlace(u_alpha);
  VectorXd u_beta = s_negative_ * (delta / raised);
  L_beta.triangularView<Eigen::Lower>().solveInPlace(u_beta);
  L_beta.triangularView<Eigen::Lower>().transpose().solveInPlace(u_beta);
  u_ = u_alpha - u_beta;

  condition_ = std::max(1.0, sum_of_inverses(L_alpha, L_beta, &S_));
  return Status::success();
}

void WeightSpacePosterior::predict(const RowMatrix& psi, const double* P, std::size_t count, double* mean,
                                   double* variance) const {
  const std::size_t D = std::size_t(psi.cols());
  multiply_vector(P, count, D, u_.data(), mean);
  std::vector<double> PS(count * D);
  multiply_transposed(P, count, S_.data(), D, D, PS.data());  // S is symmetric: rows = columns
  rowwise_dot(P, PS.data(), count, D, variance);
}

LatentWeights WeightSpacePosterior::weights(const RowMatrix& psi) const {
  return LatentWeights::from_weight_space(prior_.variance, u_, S_, std::size_t(psi.rows()));
}

}  // namespace gpprobe
