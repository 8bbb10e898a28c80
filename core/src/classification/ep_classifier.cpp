#include "gpprobe/classification/ep_classifier.h"

#include <algorithm>
#include <cmath>

#include "gpprobe/classification/likelihood.h"
#include "gpprobe/kernels/kernel_matrix.h"
#include "gpprobe/linalg/row_products.h"

#include "classification/factor.h"
#include "common/input_checks.h"
#include "linalg/deferred_covariance.h"

namespace gpprobe {

namespace {

// Sweeps between recomputations of the posterior from scratch (at most; and always at convergence).
constexpr std::size_t kRecomputeEvery = 8;

// The posterior given the sites, from scratch: L, M, Sigma = K - C'C (lower triangle) and mu = Sigma nu~.
struct SitePosterior {
  RowMatrix L, M, Sigma;
  Eigen::VectorXd mu;
};

Result<SitePosterior> posterior_of_sites(const RowMatrix& K, const Eigen::VectorXd& tau, const Eigen::VectorXd& nu) {
  const Eigen::VectorXd sW = tau.cwiseSqrt();
  Result<RowMatrix> L = factor_b(K, sW, "EP");
  if (!L.ok()) return L.status();
  SitePosterior p;
  p.L = std::move(L.value());
  p.M = variance_factor(p.L, sW);
  p.Sigma = posterior_covariance_lower(K, kernel_times_factor(K, p.M));
  p.mu = p.Sigma.selfadjointView<Eigen::Lower>() * nu;
  return p;
}

// The cavity of site i given the marginal (mean, variance) of q(f_i).
struct Cavity {
  double tau, nu;
};

Cavity cavity(double mean, double variance, double tau, double nu) {
  return {1.0 / variance - tau, mean / variance - nu};
}

}  // namespace

Result<EpFit> fit_ep(const ClassifierTrainingData& data, const Kernel& kernel, bool with_gradient,
                     std::size_t max_sweeps, const RowMatrix* squared_distances) {
  const std::size_t n = data.size(), d = data.dimension();
  const Eigen::Index N = Eigen::Index(n);
  const Eigen::VectorXd& y = data.y;
  const TrainingKernel pairwise(kernel, data.x.data(), n, d, squared_distances);
  const RowMatrix K = pairwise.matrix();

  EpFit fit;
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(N), nu = Eigen::VectorXd::Zero(N);
  Eigen::VectorXd mu = Eigen::VectorXd::Zero(N), s(N);
  DeferredCovariance sigma;
  sigma.reset(K);
  SitePosterior posterior;
  bool converged = false;
  double change = 0.0, tolerance = 0.0;
  std::size_t clipped = 0;
  bool fresh = true;            // sigma and mu are the sites' posterior computed from scratch
  std::size_t since_fresh = 0;  // sweeps since then
  while (!converged && fit.iterations < max_sweeps) {
    ++fit.iterations;
    change = 0.0;
    clipped = 0;
    for (Eigen::Index i = 0; i < N; ++i) {
      sigma.column(std::size_t(i), s.data());
      const double sii = s[i];
      Cavity c = cavity(mu[i], sii, tau[i], nu[i]);
      if (!(c.tau > 0.0) && !fresh) {
        // Downdates since the last recomputation may have drifted: recompute, and take site i again.
        Result<SitePosterior> p = posterior_of_sites(K, tau, nu);
        if (!p.ok()) return p.status();
        mu = p.value().mu;
        sigma.reset(std::move(p.value().Sigma));
        fresh = true;
        since_fresh = 0;
        --i;
        continue;
      }
      if (!(c.tau > 0.0)) {
        return Status(StatusCode::numerical_failure, "EP: the cavity of site " + std::to_string(i) + " has precision " +
                                                         number_text(c.tau, 3) + " in sweep " +
                                                         std::to_string(fit.iterations) + " (it must be > 0)");
      }
      // Moments of Phi(y f) N(f | m_, v_) (R&W eq. 3.58); v^ = v_ (1 - shrink).
      const double v = 1.0 / c.tau, m = c.nu * v, root = std::sqrt(1.0 + v);
      const double z = y[i] * m / root, r = normal_mills_ratio(z);
      const double m_hat = m + y[i] * v * r / root;
      // r (z + r) > 0 for every z, but rounding can make it <= 0 once z < -1e8: clip, and count it.
      double shrink = v * r * (z + r) / (1.0 + v);
      if (shrink < 0.0) {
        shrink = 0.0;
        ++clipped;
      }
      const double tau_new = c.tau * shrink / (1.0 - shrink);  // 1/v^ - tau_
      const double nu_new = m_hat * (c.tau + tau_new) - c.nu;  // m^/v^ - nu_
      const double dtau = tau_new - tau[i], dnu = nu_new - nu[i];
      change = std::max({change, std::abs(dtau), std::abs(dnu)});
      // Sigma -= kappa s s'; mu = Sigma nu~ follows in O(n).
      const double kappa = dtau / (1.0 + dtau * sii);
      mu += (dnu - kappa * (s.dot(nu) + dnu * sii)) * s;
      sigma.downdate(s.data(), kappa);
      tau[i] = tau_new;
      nu[i] = nu_new;
      fresh = false;
    }
    tolerance = 1e-9 * (1.0 + tau.lpNorm<Eigen::Infinity>() + nu.lpNorm<Eigen::Infinity>());
    converged = change <= tolerance;
    // The posterior from scratch (R&W recompute it after every sweep): when the sites have converged (the
    // fit's L, M, Sigma and mu), and every kRecomputeEvery sweeps against the downdates' rounding drift.
    // In between, the next sweep continues from the downdated Sigma and mu: a recomputation costs more
    // than a sweep's n downdates (4/3 n^3 multiply-adds against about 3/4 n^3).
    if (converged || ++since_fresh == kRecomputeEvery) {
      Result<SitePosterior> p = posterior_of_sites(K, tau, nu);
      if (!p.ok()) return p.status();
      posterior = std::move(p.value());
      mu = posterior.mu;
      sigma.reset(posterior.Sigma);
      fresh = true;
      since_fresh = 0;
    }
  }
  if (!converged) {
    return Status(StatusCode::numerical_failure,
                  "EP: the sites did not converge in " + count_of(fit.iterations, "sweep") +
                      " (the last sweep moved a site parameter by " + number_text(change, 3) + ", the tolerance is " +
                      number_text(tolerance, 3) + ")");
  }

  fit.clipped_sites = clipped;
  fit.site_tau = tau;
  fit.site_nu = nu;
  fit.mean = posterior.mu;
  fit.variance = posterior.Sigma.diagonal();
  fit.variance_factor = std::move(posterior.M);
  const RowMatrix& M = fit.variance_factor;
  Eigen::VectorXd Knu(N);
  multiply_vector(K.data(), n, n, nu.data(), Knu.data());
  const Eigen::VectorXd MKnu = M.triangularView<Eigen::Lower>() * Knu;
  fit.alpha = nu - M.triangularView<Eigen::Lower>().transpose() * MKnu;  // nu~ - Q K nu~

  // log Z_EP with the cavities at convergence.
  double value = -posterior.L.diagonal().array().log().sum() + 0.5 * nu.dot(fit.mean);
  for (Eigen::Index i = 0; i < N; ++i) {
    const Cavity c = cavity(fit.mean[i], fit.variance[i], tau[i], nu[i]);
    const double m = c.nu / c.tau, v = 1.0 / c.tau;
    value += log_normal_cdf(y[i] * m / std::sqrt(1.0 + v)) + 0.5 * std::log1p(tau[i] / c.tau) +
             (tau[i] * c.nu * c.nu / c.tau - 2.0 * c.nu * nu[i] - nu[i] * nu[i]) / (2.0 * (c.tau + tau[i]));
  }
  fit.log_marginal_likelihood = value;
  if (!with_gradient) return fit;

  // 1/2 tr((alpha alpha' - Q) dK): the contraction reads the upper triangle of G.
  RowMatrix G = gram_of_factor(fit.variance_factor);
  for (Eigen::Index i = 0; i < N; ++i)
    for (Eigen::Index j = i; j < N; ++j) G(i, j) = 0.5 * (fit.alpha[i] * fit.alpha[j] - G(i, j));
  fit.gradient = pairwise.contract(K, G.data());
  return fit;
}

}  // namespace gpprobe
