// The posterior of the probe's latent f = f_alpha - f_beta given observations, in one of two equal
// forms (Woodbury): function space (O by O systems) or weight space (d+1 by d+1 systems).
// Internal to the probe: Probe owns the features Psi (O by D, D = d+1) and labels and passes them in.
//
// Residuals against the prior mean mu0 (delta = mean(eps + s) - mu0, n+ = var(eps + s), v = var(eps)):
//   f_alpha sees r = delta with noise n+ where y = 1, and r = 0 with noise v where y = 0;
//   f_beta  the other way round.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"
#include "gpprobe/linalg/cholesky_update.h"
#include "gpprobe/probe/beta_prior.h"
#include "gpprobe/probe/latent_weights.h"
#include "gpprobe/probe/observation_influence.h"

namespace gpprobe {

class LatentPosterior {
 public:
  virtual ~LatentPosterior() = default;
  // A copy to update on the side (an update that turns out ill-conditioned must leave the probe as it was).
  virtual std::unique_ptr<LatentPosterior> clone() const = 0;

  virtual Status fit(const RowMatrix& psi, const std::vector<std::uint8_t>& labels) = 0;
  // `psi` and `labels` are the data before the change; psi_new is one row of D features.
  virtual Status add(const RowMatrix& psi, const double* psi_new, std::uint8_t label) = 0;
  virtual Status remove(const RowMatrix& psi, const std::vector<std::uint8_t>& labels, Eigen::Index i) = 0;

  // Latent mean and variance of f at `count` queries with features P (count by D). `psi` is the data;
  // `pass` is the number of queries of the scoring pass these belong to (what prepare() was told). The
  // numbers depend only on the posterior, the queries and `pass`, never on earlier passes.
  virtual void predict(const RowMatrix& psi, const double* P, std::size_t count, std::size_t pass, double* mean,
                       double* variance) const = 0;
  // As predict(), for queries that arrived as float32, with float32 products where the form has them and
  // they are accurate (ProbeOptions::float32_products); otherwise predict() itself.
  virtual void predict_float32(const RowMatrix& psi, const double* P, std::size_t count, std::size_t pass, double* mean,
                               double* variance) const {
    predict(psi, P, count, pass, mean, variance);
  }
  // Told before predict() runs over `queries` queries in all (in blocks): a form may precompute what
  // pays off only over many queries (weight space: the triangular factor of S). Safe to call from
  // several threads; predict() gives the same numbers to rounding either way.
  virtual void prepare(std::size_t queries) const { (void)queries; }

  // Condition estimate of the linear systems behind the last fit or update: for each SPD system
  // A = L L' the sum over j of A_jj (A^-1)_jj (Cholesky is blind to diagonal scaling, and this is about
  // 1 / lambda_min of the unit-diagonal scaling of A), the larger of f_alpha's and f_beta's. Outputs lose
  // about log10(condition * 1e-16) of their 16 digits. 1 before any fit.
  virtual double condition() const = 0;

  // The same posterior in the weight-space form of latent_weights.h (for the certified bounds).
  virtual LatentWeights weights(const RowMatrix& psi) const = 0;

  // What observing one more point with features x (D values) and `label` would change, from this
  // posterior, which must not contain that point (observation_influence.h).
  virtual ObservationInfluence influence(const RowMatrix& psi, const double* x, std::uint8_t label) const = 0;
};

// Noise variance and residual of observation with label y for f_alpha (raises_alpha) or f_beta.
struct SyntheticObservation {
  double noise;
  double residual;
};

// sum_j A_jj (A^-1)_jj for A = L L' with L lower (A_jj = |row j of L|^2) and the diagonal of A^-1.
inline double scaled_condition(const Eigen::MatrixXd& L, const Eigen::VectorXd& inverse_diagonal) {
  return L.rowwise().squaredNorm().dot(inverse_diagonal);
}

// out = A_alpha^-1 + A_beta^-1 from their Cholesky factors: the posterior's precision-free covariance term
// in either form (M of function space, S of weight space). Returns the larger scaled_condition of the two.
inline double sum_of_inverses(const Eigen::MatrixXd& L_alpha, const Eigen::MatrixXd& L_beta, RowMatrix* out) {
  const Eigen::Index n = L_alpha.rows();
  out->resize(n, n);
  RowMatrix inverse_beta(n, n);
  inverse_from_cholesky(L_alpha, out->data());
  inverse_from_cholesky(L_beta, inverse_beta.data());
  const double condition =
      std::max(scaled_condition(L_alpha, out->diagonal()), scaled_condition(L_beta, inverse_beta.diagonal()));
  *out += inverse_beta;
  return condition;
}

inline SyntheticObservation synthetic_observation(const BetaGpPrior& prior, bool raises) {
  return raises ? SyntheticObservation{prior.raised.variance, prior.raised.mean - prior.mean}
                : SyntheticObservation{prior.variance, 0.0};
}

// One latent GP's share of an ObservationInfluence from its posterior at x: g = C x (C the GP's weight
// covariance), the GP's residual mean x'w there, and the observation's noise and residual.
inline void set_influence(const SyntheticObservation& o, Eigen::VectorXd g, double x_mean, double x_variance,
                          ObservationInfluence::Share* share) {
  const double denominator = o.noise + x_variance;
  share->direction.assign(g.data(), g.data() + g.size());
  share->mean_step = (o.residual - x_mean) / denominator;
  share->variance_step = 1.0 / denominator;
}

}  // namespace gpprobe
