// Function-space form of the probe posterior (cheap when observations O are few):
//
//   K = Psi Psi',  K_alpha = K + diag(noise_alpha) = L_alpha L_alpha',  same for beta;
//   U = L^-1 and c = L^-1 r for each;  at a query with kernel row z = k(q, X) and v = U z:
//   mean = v_alpha.c_alpha - v_beta.c_beta,   variance = (v - |v_alpha|^2) + (v - |v_beta|^2).
// (Not z (K_alpha^-1 + K_beta^-1) z': that form squares the condition number of K and turns strongly
// observed variances negative.) v - |v_alpha|^2 still cancels where the data pin f down; condition()
// counts that too, so such probes move to weight space where its own estimate is lower.
//
// Fit O(O^2 D + O^3); per query O(O D + O^2). Adding or removing an observation extends or shrinks
// the Cholesky factors in O(O^2) and recomputes U and c.
#pragma once

#include <Eigen/Core>

#include "probe/latent_posterior.h"

namespace gpprobe {

class FunctionSpacePosterior final : public LatentPosterior {
 public:
  explicit FunctionSpacePosterior(const BetaGpPrior& prior) : prior_(prior) {}

  std::unique_ptr<LatentPosterior> clone() const override { return std::make_unique<FunctionSpacePosterior>(*this); }
  Status fit(const RowMatrix& psi, const std::vector<std::uint8_t>& labels) override;
  Status add(const RowMatrix& psi, const double* psi_new, std::uint8_t label) override;
  Status remove(const RowMatrix& psi, const std::vector<std::uint8_t>& labels, Eigen::Index i) override;
  void predict(const RowMatrix& psi, const double* P, std::size_t count, std::size_t pass, double* mean,
               double* variance) const override;
  LatentWeights weights(const RowMatrix& psi) const override;
  ObservationInfluence influence(const RowMatrix& psi, const double* x, std::uint8_t label) const override;
  double condition() const override { return condition_; }

 private:
  // U and c from the factors and residuals.
  void refresh();

  BetaGpPrior prior_;
  Eigen::MatrixXd L_alpha_, L_beta_;  // O by O lower
  Eigen::VectorXd r_alpha_, r_beta_;  // residuals against mu0
  RowMatrix U_alpha_, U_beta_;        // O by O lower: L^-1
  Eigen::VectorXd c_alpha_, c_beta_;  // O: L^-1 r
  std::size_t positives_ = 0;         // observations labelled 1
  double condition_ = 1.0;            // latent_posterior.h, and the cancellation in v - |v|^2
};

}  // namespace gpprobe
