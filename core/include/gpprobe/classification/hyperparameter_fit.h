// Type-II maximum likelihood for GP classification: the SE-ARD hyperparameters that maximise the
// approximation's log marginal likelihood (Laplace eq. 3.32 or EP eq. 3.65, gp_classifier.h), by
// bounded L-BFGS in theta = [log s2, log l_1, ..., log l_d] with seeded restarts (lbfgs_restarts.h).
//
// With shared_length_scale the kernel is isotropic: theta = [log s2, log l], one length-scale for every
// input column (the start's first value), and d log q / d log l = sum_j d log q / d log l_j (chain rule:
// every l_j moves with l). The first run starts from the given kernel; `restarts` more start uniformly
// in the log-bounds. A hyperparameter point where the approximation fails to converge counts as -inf, so
// the line search steps back from it. The result is never worse than the (projected) start: L-BFGS only
// accepts steps that decrease -log q.
//
// With a prior (hyperparameter_prior.h) the fit is MAP: it maximises log q + log p(log s2) + sum_j
// log p(log l_j) (one term for a shared length-scale), the prior's gradient added to the evidence's.
//
//   data   n training points (training_data.h)     start  s2 and 1 or d length-scales
// Progress: done / total counts L-BFGS iterations over all runs, total = (restarts + 1) * max_iterations;
// returning false cancels with status `cancelled`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/hyperparameter_prior.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

struct ClassifierHyperparameterOptions {
  std::size_t restarts = 0;
  std::uint64_t seed = 0;
  std::size_t max_iterations = 200;  // L-BFGS iterations per run
  bool shared_length_scale = false;  // one length-scale for every input column (isotropic RBF)
  // Bounds (scikit-learn's defaults); lower == upper holds a parameter at that value.
  double signal_variance_lower = 1e-5, signal_variance_upper = 1e5;
  double length_scale_lower = 1e-5, length_scale_upper = 1e5;
  HyperparameterPrior prior;  // none: type-II maximum likelihood
};

// log p(theta) of theta = [log s2, log l...] under `prior`, and its gradient into *gradient (same size,
// when not null).
double log_prior_density(const HyperparameterPrior& prior, const std::vector<double>& theta,
                         std::vector<double>* gradient = nullptr);

struct ClassifierHyperparameterFit {
  SeArdKernel kernel;                          // d length-scales (1 with shared_length_scale)
  double log_marginal_likelihood = 0.0;        // at `kernel`
  double start_log_marginal_likelihood = 0.0;  // at the start
  double log_prior = 0.0;                      // log p at `kernel` (0 without a prior)
  std::vector<double> run_values;              // each run's best log marginal likelihood + log prior
                                               // (-inf: failed start)
  std::size_t iterations = 0;                  // L-BFGS iterations over all runs
  std::size_t evaluations = 0;
  bool converged = false;  // the best run stopped on its tolerance
};

// numerical_failure when the approximation fails at the start itself (its message says why).
Result<ClassifierHyperparameterFit> fit_gpc_hyperparameters(const ClassifierTrainingData& data,
                                                            const SeArdKernel& start, const ClassifierOptions& options,
                                                            const ClassifierHyperparameterOptions& fit_options = {},
                                                            const ProgressCallback& progress = {});

}  // namespace gpprobe
