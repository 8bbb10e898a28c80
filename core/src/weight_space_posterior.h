// Weight-space form of the probe posterior (cheap when the dimension is small next to O):
// f(a) = mu0 + W' psi(a), W ~ N(0, I_D), so with the sufficient statistics of each label class
//
//   G1 = Psi_1' Psi_1, s1 = Psi_1' 1 (positives),   G0, s0 likewise (negatives),
//   A_alpha = I + G1/n+ + G0/v,  A_beta = I + G0/n+ + G1/v,
//   u = A_alpha^-1 s1 delta/n+ - A_beta^-1 s0 delta/n+,   S = A_alpha^-1 + A_beta^-1,
//   at a query:  mean = psi' u,  variance = psi' S psi.
//
// Fit O(O D^2 + D^3); per query O(D^2). Adding or removing an observation is a rank-one change of
// G and s, followed by a D^3 refactorisation (no pass over the O observations).
#pragma once

#include <Eigen/Core>

#include "latent_posterior.h"

namespace gpprobe {

class WeightSpacePosterior final : public LatentPosterior {
 public:
  explicit WeightSpacePosterior(const BetaGpPrior& prior) : prior_(prior) {}

  std::unique_ptr<LatentPosterior> clone() const override { return std::make_unique<WeightSpacePosterior>(*this); }
  Status fit(const RowMatrix& psi, const std::vector<std::uint8_t>& labels) override;
  Status add(const RowMatrix& psi, const double* psi_new, std::uint8_t label) override;
  Status remove(const RowMatrix& psi, const std::vector<std::uint8_t>& labels, Eigen::Index i) override;
  void predict(const RowMatrix& psi, const double* P, std::size_t count, double* mean,
               double* variance) const override;
  LatentWeights weights(const RowMatrix& psi) const override;
  double condition() const override { return condition_; }

 private:
  // u and S from the sufficient statistics.
  Status refresh();

  BetaGpPrior prior_;
  Eigen::MatrixXd G_positive_, G_negative_;  // D by D
  Eigen::VectorXd s_positive_, s_negative_;  // D
  Eigen::VectorXd u_;                        // D
  RowMatrix S_;                              // D by D, symmetric
  double condition_ = 1.0;
};

}  // namespace gpprobe
