// Bounded L-BFGS (lbfgs.h) from a given start and from `restarts` further starts drawn uniformly in the
// box (RandomStream seeded with `seed`, as scikit-learn's n_restarts_optimizer does with its
// random_state); the best run wins. The machinery behind every type-II maximum likelihood fit
// (regression: hyperparameter_fit.h, classification: hyperparameter_fit.h).
//
//   f             the objective to minimise (a non-finite value makes the line search step back)
//   start         the first run's start (projected into the box)
//   lower, upper  the box, one bound per variable (lower == upper fixes a variable)
// Progress: done / total counts L-BFGS iterations over all runs, total = (restarts + 1) * max_iterations;
// returning false cancels with status `cancelled`, "<what> cancelled in run 2 of 4".
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpprobe/common/lbfgs.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

struct RestartOptions {
  std::size_t restarts = 0;
  std::uint64_t seed = 0;
  LbfgsOptions lbfgs;  // per run
};

struct RestartedMinimum {
  std::vector<double> x;  // the best run's minimiser; empty when f was not finite at any start
  double value = std::numeric_limits<double>::infinity();
  std::vector<double> run_values;  // each run's minimum (+inf for a run whose start failed), in run order
  std::size_t iterations = 0;      // over all runs
  std::size_t evaluations = 0;
  bool converged = false;  // the best run stopped on its tolerance, not on max_iterations
};

Result<RestartedMinimum> minimize_with_restarts(const Objective& f, const std::vector<double>& start,
                                                const std::vector<double>& lower, const std::vector<double>& upper,
                                                const RestartOptions& options, const ProgressCallback& progress,
                                                const std::string& what);

}  // namespace gpprobe
