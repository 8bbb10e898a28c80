// The probe's latent f = f_alpha - f_beta in weight space, the form the certified bounds work from
// (docs/design/certify.md, "The probe's certificate"). With ã = [a; 1] (length D = d + 1):
//
//   latent mean      m(a)  = sqrt(v) ã'u / |ã|,        u = Psi'(K_alpha^-1 r_alpha - K_beta^-1 r_beta)
//   latent variance  s2(a) = v (2 - ã'Mã / ã'ã),       M = Psi'(K_alpha^-1 + K_beta^-1) Psi
//
// M is symmetric PSD with eigenvalues in [0, 2) (M = 2I - S, S = A_alpha^-1 + A_beta^-1 > 0 the
// weight-space covariance), so s2 lies in (0, 2v]. The weight-space posterior holds u and S itself;
// the function-space one maps its O-vector and O by O matrix through the features Psi (O by D).
//
//   u                  D
//   M                  D by D, symmetric
//   mean_rounding      how far the probe's own floating-point latent mean at any query may lie from
//   variance_rounding  these formulas (and the variance likewise): an a-priori bound
//                      64 eps (D + O) sum|terms| over both evaluation paths, with sum|terms| bounded
//                      through |psi_i| = sqrt(v): sqrt(v)|u|_1 for the mean, v (2 + sum|M_jk|) for the
//                      variance, plus in function space the sums of its own evaluation path (given
//                      by the posterior: predict() forms L^-1 z, function_space_posterior.h)
//   rayleigh_max       an upper bound of the largest eigenvalue of M (< 2), so s2 >= v (2 - rayleigh_max)
#pragma once

#include <cstddef>

#include <Eigen/Core>

#include "gpprobe/common/matrix_view.h"

namespace gpprobe {

struct LatentValue {
  double mean = 0.0;
  double variance = 0.0;
};

struct LatentWeights {
  double variance = 0.0;  // v, the prior variance of f_alpha and of f_beta
  Eigen::VectorXd u;      // D
  Eigen::MatrixXd M;      // D by D
  double mean_rounding = 0.0;
  double variance_rounding = 0.0;
  double rayleigh_max = 2.0;

  std::size_t dimension() const { return std::size_t(u.size()) - 1; }  // d

  // Latent mean and variance at a query a (d values), in O(D^2).
  LatentValue at(const double* a) const;

  // From the weight-space posterior: u and S (D by D, symmetric), O observations.
  static LatentWeights from_weight_space(double v, const Eigen::VectorXd& u, const RowMatrix& S,
                                         std::size_t observations);
  // From the function-space posterior: features psi (O by D), w (O) and M_fs = K_alpha^-1 + K_beta^-1;
  // path_mean_terms and path_variance_terms bound the sums of |terms| in how it evaluates them.
  static LatentWeights from_function_space(double v, const RowMatrix& psi, const Eigen::VectorXd& w,
                                           const RowMatrix& M_fs, double path_mean_terms, double path_variance_terms);
  // The prior (no observation): u = 0, M = 0, for queries of dimension d.
  static LatentWeights prior(double v, std::size_t dimension);
};

// An upper bound of the largest eigenvalue of the symmetric matrix A: the computed eigenvalue plus its
// backward-error bound (Weyl: |computed - exact| <= c eps |A|_F). 0 for an empty matrix.
double largest_eigenvalue_bound(const Eigen::MatrixXd& A);

}  // namespace gpprobe
