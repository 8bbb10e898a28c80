// Expectation propagation for binary GP classification with the probit likelihood (Rasmussen &
// Williams Alg. 3.5, 3.6, eq. 3.65, 5.27; docs/design/classification.md, "EP probit"):
//
//   sites     t_i(f_i) = N(f_i | nu~_i / tau~_i, 1 / tau~_i), from tau~ = nu~ = 0, Sigma = K, mu = 0.
//   sweep     for i = 1..n in index order: cavity tau_ = 1/Sigma_ii - tau~_i, nu_ = mu_i/Sigma_ii - nu~_i;
//             moments of Phi(y f) N(f | m_, v_) (eq. 3.58); tau~_i = 1/v^ - tau_ (formed as tau_ c/(1-c),
//             c = v_ r (z + r) / (1 + v_), >= 0 with no cancellation; only where rounding makes
//             r (z + r) <= 0, at cavity z < -1e8, is c clipped to 0, and counted), nu~_i = m^/v^ - nu_; Sigma -= dtau/(1 + dtau Sigma_ii) s s' (s = Sigma[:, i])
//             and mu = Sigma nu~ updated in O(n).
//   after     the sweep that converges, and every 8th sweep, Sigma and mu are recomputed from scratch:
//             sW = sqrt tau~, L = chol(I + sW K sW), Sigma = K - C'C with C = L \ (sW K), mu = Sigma nu~;
//             the sweeps in between continue from the downdated ones (R&W recompute after every sweep:
//             that costs more than the sweep). A cavity precision <= 0 on a downdated Sigma is taken
//             again on a recomputed one before it counts as a failure.
//   stop      when no site moved more than 1e-9 (1 + max|tau~| + max|nu~|) in a sweep. (GPML's rule,
//             |delta log Z| < 1e-4, leaves errors of 2e-5 to 3e-4 in the probabilities.)
//   weights   alpha = nu~ - Q K nu~, Q = sW B^-1 sW (Alg. 3.6): the common form with M = L^-1 diag(sW).
//   evidence  eq. 3.65 rearranged without 1/tau~ (docs/design/classification.md, "EP probit"), with the cavities at convergence:
//             log Z = sum log Phi(y m_ / sqrt(1 + v_)) + 1/2 sum log(1 + tau~/tau_) - sum log L_ii
//                     + 1/2 nu~'Sigma nu~ + sum (tau~ nu_^2/tau_ - 2 nu_ nu~ - nu~^2) / (2 (tau_ + tau~))
//   gradient  dlog Z/dtheta_p = 1/2 tr((alpha alpha' - Q) dK/dtheta_p)      (eq. 5.27, at convergence)
//
// Cost per sweep about 1.5 n^3 flops, plus 8/3 n^3 per recomputation, all in blocked products (deferred_covariance.h, blocked_cholesky.h).
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "gpprobe/classification/training_data.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"

namespace gpprobe {

struct EpFit {
  Eigen::VectorXd site_tau;   // n, site precisions tau~ (> 0)
  Eigen::VectorXd site_nu;    // n, site natural means nu~
  Eigen::VectorXd mean;       // n, marginal means of q(f) at the training points
  Eigen::VectorXd variance;   // n, marginal variances of q(f) at the training points
  Eigen::VectorXd alpha;      // n, the mean weights of the common form
  RowMatrix variance_factor;  // n by n lower, M = L^-1 diag(sqrt tau~): Q = M'M
  double log_marginal_likelihood = 0.0;
  std::vector<double> gradient;   // d log Z / d theta (kernel.parameter_count() values) when asked
  std::size_t iterations = 0;     // sweeps
  std::size_t clipped_sites = 0;  // site updates of the last sweep whose precision was clipped at 0 (see above)
};

// numerical_failure "EP: the sites did not converge in 100 sweeps (...)" with the last sweep's
// largest change, never a silent result.
// squared_distances: as fit_laplace's (laplace_classifier.h).
Result<EpFit> fit_ep(const ClassifierTrainingData& data, const Kernel& kernel, bool with_gradient,
                     std::size_t max_sweeps = 100, const RowMatrix* squared_distances = nullptr);

}  // namespace gpprobe
