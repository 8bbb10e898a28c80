// Type-II maximum likelihood: the kernel parameters and the noise variance that maximise the log
// marginal likelihood (marginal_likelihood.h), found by bounded L-BFGS (lbfgs.h) in log space.
//
//   theta = [kernel log-parameters..., log noise],  bounds from each KernelParameter and
//   [noise_lower, noise_upper] (equal bounds fix a parameter, e.g. the lecture's variance 1)
//
// `fixed` names the parameters held at their given values: kernel parameters by their
// Kernel::parameters() names and the noise as kNoiseVariance ("noise_variance"). A held value comes
// back bit for bit (not through exp(log v)).
//
// The first run starts from the given kernel and noise; `restarts` more start from points drawn
// uniformly in the log-bounds (RandomStream seeded with `seed`, as sklearn's n_restarts_optimizer does
// with its random_state). The best run wins. A failed likelihood (a Cholesky that does not exist)
// counts as -inf, so the line search steps back from it.
//
// With a prior (classification/hyperparameter_prior.h) the fit is MAP: log p(y) plus the prior's log
// density at the log of every length-scale parameter ("*.length_scale", "*.length_scale[j]") and of
// every signal variance ("constant.value", the amplitude of a product like constant * rbf); the noise
// and any other parameter get none.
//
//   x  n by d,  y  n targets,  mean  fixed constant (NaN: the average of y)
// Progress: done / total counts L-BFGS iterations over all runs, total = (restarts + 1) * max_iterations;
// returning false cancels with status `cancelled`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpprobe/classification/hyperparameter_prior.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"

namespace gpprobe {

struct HyperparameterFitOptions {
  std::size_t restarts = 0;
  std::uint64_t seed = 0;
  std::size_t max_iterations = 200;  // per run
  double noise_lower = 1e-5;
  double noise_upper = 1e5;
  double mean = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::string> fixed;  // parameter names held at their values (see above)
  HyperparameterPrior prior;       // none: type-II maximum likelihood
};

// The prior each of `kernel`'s parameters gets (see above; nullptr: none), in Kernel::parameters() order.
std::vector<const LogPrior*> regression_parameter_priors(const Kernel& kernel, const HyperparameterPrior& prior);

struct HyperparameterFit {
  Kernel kernel;
  double noise_variance = 0.0;
  double log_marginal_likelihood = 0.0;
  std::vector<double> run_values;  // the optimum of each run, log p(y) + log prior (-inf: its start failed)
  std::size_t iterations = 0;      // over all runs
  std::size_t evaluations = 0;
  double log_prior = 0.0;  // log p at the result (0 without a prior)
};

Result<HyperparameterFit> fit_hyperparameters(const MatrixView& x, const double* y, std::size_t n, const Kernel& kernel,
                                              double noise_variance, const HyperparameterFitOptions& options = {},
                                              const ProgressCallback& progress = {});

}  // namespace gpprobe
