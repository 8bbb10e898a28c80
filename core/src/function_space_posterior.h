// Function-space form of the probe posterior (cheap when observations O are few):
//
//   K = Psi Psi',  K_alpha = K + diag(noise_alpha) = L_alpha L_alpha',  same for beta;
//   w = K_alpha^-1 r_alpha - K_beta^-1 r_beta,   M = K_alpha^-1 + K_beta^-1;
//   at a query with kernel row z = k(q, X):  mean = z w,  variance = 2v - z M z'.
//
// Fit O(O^2 D + O^3); per query O(O D + O^2). Adding or removing an observation extends or shrinks
// the Cholesky factors in O(O^2) and recomputes w and M.
#pragma once

#include <Eigen/Core>

#include "latent_posterior.h"

namespace gpprobe {

class FunctionSpacePosterior final : public LatentPosterior {
 public:
  explicit FunctionSpacePosterior(const BetaGpPrior& prior) : prior_(prior) {}

  Status fit(const RowMatrix& psi, const std::vector<std::uint8_t>& labels) override;
  Status add(const RowMatrix& psi, const double* psi_new, std::uint8_t label) override;
  Status remove(const RowMatrix& psi, const std::vector<std::uint8_t>& labels, Eigen::Index i) override;
  void predict(const RowMatrix& psi, const double* P, std::size_t count, double* mean,
               double* variance) const override;
  LatentWeights weights(const RowMatrix& psi) const override;

 private:
  // w and M from the factors and residuals.
  void refresh();

  BetaGpPrior prior_;
  Eigen::MatrixXd L_alpha_, L_beta_;      // O by O lower
  Eigen::VectorXd r_alpha_, r_beta_;      // residuals against mu0
  Eigen::VectorXd w_;                     // O
  RowMatrix M_;                           // O by O, symmetric
};

}  // namespace gpprobe
