#include "gpprobe/probe/latent_weights.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

namespace gpprobe {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// 64 eps n: the a-priori rounding factor of a sum of n products, with room for the few chained
// operations (features, products, the subtraction from 2v) of either evaluation path.
double rounding_factor(std::size_t n) { return 64.0 * kEpsilon * double(n); }

void set_rounding(LatentWeights* weights, std::size_t observations, double mean_terms, double variance_terms) {
  const double factor = rounding_factor(std::size_t(weights->u.size()) + observations);
  weights->mean_rounding = factor * mean_terms;
  weights->variance_rounding = factor * variance_terms;
}

}  // namespace

double largest_eigenvalue_bound(const MatrixXd& A) {
  if (A.rows() == 0) return 0.0;
  Eigen::SelfAdjointEigenSolver<MatrixXd> solver(A, Eigen::EigenvaluesOnly);
  const double size = A.norm();  // |A|_F, without squaring where the squares would under- or overflow
  return solver.eigenvalues().maxCoeff() +
         rounding_factor(std::size_t(A.rows())) * (size > 1e-150 && size < 1e150 ? size : A.stableNorm());
}

LatentValue LatentWeights::at(const double* a) const {
  const Index D = u.size();
  const Eigen::Map<const VectorXd> head(a, D - 1);
  VectorXd tilde(D);
  tilde << head, 1.0;
  const double norm2 = tilde.squaredNorm();
  LatentValue value;
  value.mean = std::sqrt(variance) * tilde.dot(u) / std::sqrt(norm2);
  value.variance = variance * (2.0 - tilde.dot(M * tilde) / norm2);
  return value;
}

LatentWeights LatentWeights::from_weight_space(double v, const VectorXd& u, const RowMatrix& S,
                                               std::size_t observations) {
  LatentWeights weights;
  weights.variance = v;
  weights.u = u;
  weights.M = -S;
  weights.M.diagonal().array() += 2.0;
  const double abs_M = weights.M.cwiseAbs().sum();
  set_rounding(&weights, observations, std::sqrt(v) * u.lpNorm<1>(), v * (2.0 + abs_M));
  weights.rayleigh_max = std::min(2.0, largest_eigenvalue_bound(weights.M));
  return weights;
}

LatentWeights LatentWeights::from_function_space(double v, const RowMatrix& psi, const VectorXd& w,
                                                 const RowMatrix& M_fs, double path_mean_terms,
                                                 double path_variance_terms) {
  LatentWeights weights;
  weights.variance = v;
  const Index O = psi.rows(), D = psi.cols();
  weights.u = psi.transpose() * w;
  weights.M = psi.transpose() * (M_fs * psi);
  weights.M = 0.5 * (weights.M + weights.M.transpose()).eval();  // exactly symmetric
  const double abs_M = weights.M.cwiseAbs().sum();
  set_rounding(&weights, std::size_t(O), std::sqrt(v) * weights.u.lpNorm<1>() + path_mean_terms,
               v * (2.0 + abs_M) + path_variance_terms);
  if (O < D) {
    // The nonzero eigenvalues of Psi' M_fs Psi are those of R M_fs R' with Psi' = Q R (Q orthonormal).
    Eigen::HouseholderQR<MatrixXd> qr(psi.transpose());
    const MatrixXd R = qr.matrixQR().topRows(O).triangularView<Eigen::Upper>();
    const MatrixXd small = R * M_fs * R.transpose();
    weights.rayleigh_max =
        largest_eigenvalue_bound(0.5 * (small + small.transpose())) + rounding_factor(std::size_t(D)) * abs_M;
  } else {
    weights.rayleigh_max = largest_eigenvalue_bound(weights.M);
  }
  weights.rayleigh_max = std::min(2.0, weights.rayleigh_max);
  return weights;
}

LatentWeights LatentWeights::prior(double v, std::size_t dimension) {
  LatentWeights weights;
  weights.variance = v;
  weights.u = VectorXd::Zero(Index(dimension + 1));
  weights.M = MatrixXd::Zero(Index(dimension + 1), Index(dimension + 1));
  weights.rayleigh_max = 0.0;
  set_rounding(&weights, 0, 0.0, 2.0 * v);
  return weights;
}

}  // namespace gpprobe
