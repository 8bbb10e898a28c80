// The probe's two latent GPs f_alpha and f_beta, each on its own (the Probe's posterior keeps only their
// difference f = f_alpha - f_beta): what leave-one-out (leave_one_out.h) and the knowledge gain of one
// more label (knowledge_gain.h) need. Private to core/src.
//
// Each is heteroscedastic GP regression on the observations' features Psi (O by D) with the residuals
// r_g and noise variances n_g of latent_posterior.h's synthetic observations, K_g = Psi Psi' + diag(n_g):
//
//   at a point with features p (k = Psi p):  mean_g = k' K_g^-1 r_g   (against the prior mean mu0)
//                                            variance_g = v - k' K_g^-1 k
//   at observation i:                        inverse_diagonal_g,i = [K_g^-1]_ii
//                                            weighted_residual_g,i = [K_g^-1 r_g]_i
//
// Function space factors K_g = L_g L_g' (O by O). Weight space (W ~ N(0, I_D)) factors the precision
// A_g = I + Psi' N_g^-1 Psi = L_g L_g' (D by D), with weight mean u_g = A_g^-1 Psi' N_g^-1 r_g, and gets the
// same numbers by Woodbury: with m_i = psi_i' u_g and s_i = psi_i' A_g^-1 psi_i (the posterior at
// observation i, its own noise included),  [K_g^-1]_ii = (n_i - s_i) / n_i^2,  [K_g^-1 r_g]_i = (r_i - m_i) / n_i.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"
#include "gpprobe/probe/beta_prior.h"
#include "gpprobe/probe/probe.h"

namespace gpprobe {

class LatentPair {
 public:
  // `space` automatic: the cheaper form for O observations of D - 1 dimensions and `points` later points.
  static Result<LatentPair> fit(const RowMatrix& psi, const std::vector<std::uint8_t>& labels, const BetaGpPrior& prior,
                                PosteriorSpace space, std::size_t points);

  PosteriorSpace space() const { return function_space_ ? PosteriorSpace::function : PosteriorSpace::weight; }

  // Per GP g (0: alpha, 1: beta) and observation i: [K_g^-1]_ii and [K_g^-1 r_g]_i, each O values.
  void observation_terms(int g, double* inverse_diagonal, double* weighted_residual) const;

  // Mean (against mu0) and variance of f_alpha and f_beta at `count` points with features P (count by D).
  void predict(const double* P, std::size_t count, double* mean_alpha, double* variance_alpha, double* mean_beta,
               double* variance_beta) const;

  // The noise variance n_g,i and residual r_g,i of observation i for GP g.
  double noise(int g, std::size_t i) const { return gps_[std::size_t(g)].noise[i]; }
  double residual(int g, std::size_t i) const { return gps_[std::size_t(g)].residual[i]; }

 private:
  struct Gp {
    Eigen::MatrixXd L;             // Cholesky factor of K_g (function space) or A_g (weight space)
    Eigen::VectorXd coefficients;  // K_g^-1 r_g (function space) or u_g (weight space)
    std::vector<double> noise, residual;
  };

  // mean and variance of GP g at the points whose kernel rows (function space) or features (weight
  // space) are the columns of B (O or D by count).
  void predict_one(const Gp& gp, const Eigen::MatrixXd& B, double* mean, double* variance) const;

  const RowMatrix* psi_ = nullptr;  // the probe's features; the probe outlives this object
  double prior_variance_ = 0.0;     // v
  bool function_space_ = true;
  std::array<Gp, 2> gps_;
};

}  // namespace gpprobe
