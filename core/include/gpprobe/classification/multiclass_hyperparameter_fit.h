// Type-II maximum likelihood for multi-class GP classification (multiclass_laplace.h): the SE-ARD
// hyperparameters that maximise the Laplace approximation's log marginal likelihood (eq. 3.44), by bounded
// L-BFGS with seeded restarts (lbfgs_restarts.h), in log space:
//
//   per_class  theta = [theta_0, ..., theta_{C-1}], theta_c = [log s2_c, log l_c1 .. l_cd]: C (1 + d) values,
//              gradient row c of MulticlassLaplace::gradient()
//   shared     theta = [log s2, log l_1 .. l_d], one kernel for every class (tied): the gradient is the sum
//              of the C rows (MulticlassLaplace::tied_gradient())
//
// The first run starts from the given kernels (for `shared`, the first one); `restarts` more start
// uniformly in the log-bounds (seed). A point where Newton fails counts as -inf (the line search steps
// back). The result is never worse than the start.
//
// With a prior (hyperparameter_prior.h) the fit is MAP: log q + sum over the kernels fitted (C, or 1 when
// shared) of log p(log s2_c) + sum_j log p(log l_cj), the prior's gradient added to the evidence's.
//
//   data    n training points, C classes        start  1 or C SeArdKernels (multiclass_laplace.h)
// Progress: L-BFGS iterations over all runs, total = (restarts + 1) * max_iterations; false cancels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/classification/hyperparameter_prior.h"
#include "gpprobe/classification/multiclass_laplace.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

struct MulticlassHyperparameterOptions {
  bool shared = false;  // one kernel for every class (tied hyperparameters)
  std::size_t restarts = 0;
  std::uint64_t seed = 0;
  std::size_t max_iterations = 200;  // L-BFGS iterations per run
  double signal_variance_lower = 1e-5, signal_variance_upper = 1e5;
  double length_scale_lower = 1e-5, length_scale_upper = 1e5;
  HyperparameterPrior prior;  // none: type-II maximum likelihood
};

// log p(theta) of theta = blocks of [log s2_c, log l_c1 .. l_cd] (each block 1 + d values) under `prior`,
// and its gradient into *gradient (same size, when not null).
double multiclass_log_prior_density(const HyperparameterPrior& prior, const std::vector<double>& theta, std::size_t d,
                                    std::vector<double>* gradient = nullptr);

struct MulticlassHyperparameterFit {
  std::vector<SeArdKernel> kernels;            // C (all equal when shared), d length-scales each
  double log_marginal_likelihood = 0.0;        // at `kernels`
  double start_log_marginal_likelihood = 0.0;  // at the start
  double log_prior = 0.0;                      // log p at `kernels` (0 without a prior)
  std::vector<double> run_values;              // each run's best log marginal likelihood + log prior
                                               // (-inf: failed start)
  std::size_t iterations = 0, evaluations = 0;
  bool converged = false;  // the best run stopped on its tolerance
  // The Newton weights (n by C) of the evaluation at `kernels` (empty if that point was not the best
  // evaluation seen): a warm start (MulticlassOptions::start_a) for the fit there, which then takes a
  // Newton step or two instead of a cold start's 7 to 13.
  RowMatrix alpha;
};

// invalid_argument for bounds that are not 0 < lower <= upper < inf; the kernels' own errors
// (multiclass_laplace.h); numerical_failure when Newton fails at the start itself.
Result<MulticlassHyperparameterFit> fit_multiclass_hyperparameters(const MulticlassTrainingData& data,
                                                                   const std::vector<SeArdKernel>& start,
                                                                   const MulticlassHyperparameterOptions& options = {},
                                                                   const ProgressCallback& progress = {});

}  // namespace gpprobe
