#include "probe/latent_pair.h"

#include <Eigen/Cholesky>

#include "gpprobe/linalg/cholesky_update.h"
#include "gpprobe/linalg/row_products.h"

#include "probe/latent_posterior.h"

namespace gpprobe {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

Result<LatentPair> LatentPair::fit(const RowMatrix& psi, const std::vector<std::uint8_t>& labels,
                                   const BetaGpPrior& prior, PosteriorSpace space, std::size_t points) {
  const Index O = psi.rows(), D = psi.cols();
  LatentPair pair;
  pair.psi_ = &psi;
  pair.prior_variance_ = prior.variance;
  if (space == PosteriorSpace::automatic) space = cheaper_space(std::size_t(O), std::size_t(D - 1), points);
  pair.function_space_ = space == PosteriorSpace::function;
  const char* names[2] = {"f_alpha", "f_beta"};
  MatrixXd K;
  if (pair.function_space_) {
    K.resize(O, O);
    // K is symmetric, so the row-major product can be written straight into column-major storage.
    multiply_transposed(psi.data(), std::size_t(O), psi.data(), std::size_t(O), std::size_t(D), K.data());
  }
  for (int g = 0; g < 2; ++g) {
    Gp& gp = pair.gps_[std::size_t(g)];
    gp.noise.resize(std::size_t(O));
    gp.residual.resize(std::size_t(O));
    for (Index i = 0; i < O; ++i) {
      // f_alpha is raised by a positive observation, f_beta by a negative one (latent_posterior.h).
      const bool raises = (labels[std::size_t(i)] != 0) == (g == 0);
      const SyntheticObservation site = synthetic_observation(prior, raises);
      gp.noise[std::size_t(i)] = site.noise;
      gp.residual[std::size_t(i)] = site.residual;
    }
    const Eigen::Map<const VectorXd> n(gp.noise.data(), O), r(gp.residual.data(), O);
    const std::string what =
        std::string(pair.function_space_ ? "the kernel matrix of " : "the weight precision of ") + names[g];
    if (pair.function_space_) {
      MatrixXd K_g = K;
      K_g.diagonal() += n;
      GPPROBE_RETURN_IF_ERROR(cholesky_factor(K_g, &gp.L, what));
      gp.coefficients = gp.L.triangularView<Eigen::Lower>().solve(r);  // we want K_g^-1 r_g, not L^-1 r_g
      gp.L.triangularView<Eigen::Lower>().transpose().solveInPlace(gp.coefficients);
    } else {
      const VectorXd precision = n.cwiseInverse();
      MatrixXd A = MatrixXd::Identity(D, D);
      A.noalias() += psi.transpose() * precision.asDiagonal() * psi;
      GPPROBE_RETURN_IF_ERROR(cholesky_factor(A, &gp.L, what));
      gp.coefficients = psi.transpose() * r.cwiseProduct(precision);
      gp.L.triangularView<Eigen::Lower>().solveInPlace(gp.coefficients);
      gp.L.triangularView<Eigen::Lower>().transpose().solveInPlace(gp.coefficients);
    }
  }
  return pair;
}

void LatentPair::predict_one(const Gp& gp, const MatrixXd& B, double* mean, double* variance) const {
  const MatrixXd X = gp.L.triangularView<Eigen::Lower>().solve(B);
  for (Index j = 0; j < B.cols(); ++j) {
    mean[j] = B.col(j).dot(gp.coefficients);
    const double explained = X.col(j).squaredNorm();
    // Function space: v - k' K_g^-1 k; weight space: p' A_g^-1 p.
    variance[j] = function_space_ ? prior_variance_ - explained : explained;
  }
}

void LatentPair::predict(const double* P, std::size_t count, double* mean_alpha, double* variance_alpha,
                         double* mean_beta, double* variance_beta) const {
  const RowMatrix& psi = *psi_;
  const Index O = psi.rows(), D = psi.cols();
  MatrixXd B;
  if (function_space_) {
    // The kernel rows P Psi' (count by O, row-major) are the columns of B (O by count, column-major).
    B.resize(O, Index(count));
    if (O > 0) multiply_transposed(P, count, psi.data(), std::size_t(O), std::size_t(D), B.data());
  } else {
    // P (count by D, row-major) is P' column-major.
    B = Eigen::Map<const MatrixXd>(P, D, Index(count));
  }
  predict_one(gps_[0], B, mean_alpha, variance_alpha);
  predict_one(gps_[1], B, mean_beta, variance_beta);
}

void LatentPair::observation_terms(int g, double* inverse_diagonal, double* weighted_residual) const {
  const Gp& gp = gps_[std::size_t(g)];
  const Index O = psi_->rows();
  if (function_space_) {
    // [K^-1]_ii = |column i of L^-1|^2, as K^-1 = L^-T L^-1.
    const MatrixXd L_inverse = gp.L.triangularView<Eigen::Lower>().solve(MatrixXd::Identity(O, O));
    for (Index i = 0; i < O; ++i) {
      inverse_diagonal[i] = L_inverse.col(i).squaredNorm();
      weighted_residual[i] = gp.coefficients[i];
    }
    return;
  }
  // Woodbury: from the posterior at each observation, its own noise included.
  const MatrixXd B = psi_->transpose();
  std::vector<double> m(static_cast<std::size_t>(O)), s(static_cast<std::size_t>(O));
  predict_one(gp, B, m.data(), s.data());
  for (Index i = 0; i < O; ++i) {
    const double n = gp.noise[std::size_t(i)];
    inverse_diagonal[i] = (n - s[std::size_t(i)]) / (n * n);
    weighted_residual[i] = (gp.residual[std::size_t(i)] - m[std::size_t(i)]) / n;
  }
}

}  // namespace gpprobe
