// Weight-space form of the probe posterior (cheap when the dimension is small next to O):
// f(a) = mu0 + W' psi(a), W ~ N(0, I_D), so with the sufficient statistics of each label class
//
//   G1 = Psi_1' Psi_1, s1 = Psi_1' 1 (positives),   G0, s0 likewise (negatives),
//   A_alpha = I + G1/n+ + G0/v,  A_beta = I + G0/n+ + G1/v,
//   u = A_alpha^-1 s1 delta/n+ - A_beta^-1 s0 delta/n+,   S = A_alpha^-1 + A_beta^-1,
//   at a query:  mean = psi' u,  variance = psi' S psi = |T psi|^2  with S = T'T, T lower triangular.
//
// The triangular T halves the per-query product (D^2/2 multiply-adds instead of D^2) and makes the
// variance a sum of squares, never negative. Factoring S costs D^3/3, so it is made only when a
// scoring pass is long enough to repay it (prepare()) and dropped whenever S changes; short passes
// (the drift checks of kept scores) use S itself.
//
// Float32 queries with ProbeOptions::float32_products take T psi through float32 products
// (float32_products.h), centred: T psi = T (psi - m) + T m with m the observations' mean feature vector and
// T m kept in float64, so only the offset psi - m and T are rounded to float. Embeddings share a large
// common direction, and centring takes it out of what is rounded. The error of |T psi|^2 grows with the
// cancellation in it, measured by q / variance with q = sum_ij (T_ij (psi - m)_j)^2 = sum_j S_jj (psi - m)_j^2
// (O(D) per query); measured, the relative error of the variance stays below ~1e-7 sqrt(q / variance).
// A query with q > kFloat32Cancellation * variance is scored again in float64. The mean psi'u stays float64.
//
// Fit O(O D^2 + D^3); per query O(D^2). Adding or removing an observation is a rank-one change of
// G and s and a Sherman-Morrison update of each GP's kept inverse C = A^-1 and mean weights, O(D^2),
// checked against G and s after every change (a drift guard: residuals of A C and A u); when a check
// fails, or a removal's denominator cancels, everything is refactored from G and s in O(D^3).
#pragma once

#include <memory>
#include <vector>

#include <Eigen/Core>

#include "probe/latent_posterior.h"

namespace gpprobe {

class WeightSpacePosterior final : public LatentPosterior {
 public:
  explicit WeightSpacePosterior(const BetaGpPrior& prior) : prior_(prior) {}

  std::unique_ptr<LatentPosterior> clone() const override { return std::make_unique<WeightSpacePosterior>(*this); }
  Status fit(const RowMatrix& psi, const std::vector<std::uint8_t>& labels) override;
  Status add(const RowMatrix& psi, const double* psi_new, std::uint8_t label) override;
  Status remove(const RowMatrix& psi, const std::vector<std::uint8_t>& labels, Eigen::Index i) override;
  void predict(const RowMatrix& psi, const double* P, std::size_t count, std::size_t pass, double* mean,
               double* variance) const override;
  void predict_float32(const RowMatrix& psi, const double* P, std::size_t count, std::size_t pass, double* mean,
                       double* variance) const override;
  void prepare(std::size_t queries) const override;
  LatentWeights weights(const RowMatrix& psi) const override;
  ObservationInfluence influence(const RowMatrix& psi, const double* x, std::uint8_t label) const override;
  double condition() const override { return condition_; }

 private:
  // Factorisations, inverses, u and S from the sufficient statistics.
  Status refresh();
  // G and s change by sign * (x x', x) in x's class; C, u and S follow by Sherman-Morrison.
  Status change(const Eigen::VectorXd& x, bool positive, double sign);
  // The drift guard of change(); updates condition_ when the state passes.
  bool accurate();

  BetaGpPrior prior_;
  Eigen::MatrixXd G_positive_, G_negative_;  // D by D
  Eigen::VectorXd s_positive_, s_negative_;  // D
  RowMatrix C_alpha_, C_beta_;               // D by D: A_alpha^-1, A_beta^-1
  Eigen::VectorXd u_alpha_, u_beta_;         // D: each GP's posterior mean weights
  Eigen::VectorXd u_;                        // D: u_alpha - u_beta
  RowMatrix S_;                              // D by D, symmetric
  // T with S = T'T (D by D, lower), also rounded to float, and S's diagonal; or null until prepare()
  // makes it; shared by clones, replaced atomically (std::atomic_load/store), reset by every change of S.
  // Only passes long enough to have made it use it (factored()): a short pass uses S whether or not an
  // earlier long pass left T behind, so a query's numbers never depend on what was scored before.
  struct VarianceFactor {
    RowMatrix T;
    std::vector<float> T32;
    Eigen::VectorXd S_diagonal;
    Eigen::VectorXd centre, centre_image;  // m and T m
  };
  mutable std::shared_ptr<const VarianceFactor> variance_factor_;
  // Whether a pass of `queries` queries is long enough for T (prepare() makes it for such passes).
  bool long_pass(std::size_t queries) const { return 2 * queries >= std::size_t(S_.rows()); }
  // T for a pass of `queries` queries: null for a short pass (S serves it), or when factoring failed.
  std::shared_ptr<const VarianceFactor> factored(std::size_t queries) const {
    return long_pass(queries) ? std::atomic_load(&variance_factor_) : nullptr;
  }
  double condition_ = 1.0;
  double observations_ = 0.0;  // O, for the mean feature vector m = (s_positive + s_negative) / O
};

}  // namespace gpprobe
