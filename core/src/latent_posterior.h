// The posterior of the probe's latent f = f_alpha - f_beta given observations, in one of two equal
// forms (Woodbury): function space (O by O systems) or weight space (d+1 by d+1 systems).
// Internal to the probe: Probe owns the features Psi (O by D, D = d+1) and labels and passes them in.
//
// Residuals against the prior mean mu0 (delta = mean(eps + s) - mu0, n+ = var(eps + s), v = var(eps)):
//   f_alpha sees r = delta with noise n+ where y = 1, and r = 0 with noise v where y = 0;
//   f_beta  the other way round.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/beta_prior.h"
#include "gpprobe/cholesky_update.h"
#include "gpprobe/latent_weights.h"
#include "gpprobe/matrix_view.h"
#include "gpprobe/status.h"

namespace gpprobe {

class LatentPosterior {
 public:
  virtual ~LatentPosterior() = default;

  virtual Status fit(const RowMatrix& psi, const std::vector<std::uint8_t>& labels) = 0;
  // `psi` and `labels` are the data before the change; psi_new is one row of D features.
  virtual Status add(const RowMatrix& psi, const double* psi_new, std::uint8_t label) = 0;
  virtual Status remove(const RowMatrix& psi, const std::vector<std::uint8_t>& labels, Eigen::Index i) = 0;

  // Latent mean and variance of f at `count` queries with features P (count by D). `psi` is the data.
  virtual void predict(const RowMatrix& psi, const double* P, std::size_t count, double* mean,
                       double* variance) const = 0;

  // The same posterior in the weight-space form of latent_weights.h (for the certified bounds).
  virtual LatentWeights weights(const RowMatrix& psi) const = 0;
};

// Noise variance and residual of observation with label y for f_alpha (raises_alpha) or f_beta.
struct SyntheticObservation {
  double noise;
  double residual;
};

// out = A_alpha^-1 + A_beta^-1 from their Cholesky factors: the posterior's precision-free covariance term
// in either form (M of function space, S of weight space).
inline void sum_of_inverses(const Eigen::MatrixXd& L_alpha, const Eigen::MatrixXd& L_beta, RowMatrix* out) {
  const Eigen::Index n = L_alpha.rows();
  out->resize(n, n);
  RowMatrix inverse_beta(n, n);
  inverse_from_cholesky(L_alpha, out->data());
  inverse_from_cholesky(L_beta, inverse_beta.data());
  *out += inverse_beta;
}

inline SyntheticObservation synthetic_observation(const BetaGpPrior& prior, bool raises) {
  return raises ? SyntheticObservation{prior.raised.variance, prior.raised.mean - prior.mean}
                : SyntheticObservation{prior.variance, 0.0};
}

}  // namespace gpprobe
