#include "gpprobe/common/lbfgs_restarts.h"

#include "gpprobe/common/random_stream.h"

namespace gpprobe {

Result<RestartedMinimum> minimize_with_restarts(const Objective& f, const std::vector<double>& start,
                                                const std::vector<double>& lower, const std::vector<double>& upper,
                                                const RestartOptions& options, const ProgressCallback& progress,
                                                const std::string& what) {
  if (options.lbfgs.max_iterations == 0)
    return Status(StatusCode::invalid_argument, "max_iterations must be at least 1");
  const std::size_t runs = options.restarts + 1;
  const std::size_t per_run = options.lbfgs.max_iterations;
  const std::size_t total = runs * per_run;
  RandomStream rng(options.seed);
  std::vector<double> x0 = start;
  RestartedMinimum best;
  for (std::size_t run = 0; run < runs; ++run) {
    if (run > 0) {
      for (std::size_t i = 0; i < x0.size(); ++i) x0[i] = rng.uniform(lower[i], upper[i]);
    }
    const std::size_t offset = run * per_run;
    Result<LbfgsResult> result = minimize_lbfgs(f, x0, lower, upper, options.lbfgs, [&](std::size_t done, std::size_t) {
      return report_progress(progress, offset + done, total);
    });
    if (!result.ok() && result.status().code() == StatusCode::cancelled) {
      return Status(StatusCode::cancelled,
                    what + " cancelled in run " + std::to_string(run + 1) + " of " + std::to_string(runs));
    }
    if (!result.ok()) {  // the objective is not finite at this start: the run contributes nothing
      if (result.status().code() != StatusCode::numerical_failure) return result.status();
      best.run_values.push_back(std::numeric_limits<double>::infinity());
    } else {
      const LbfgsResult& r = result.value();
      best.iterations += r.iterations;
      best.evaluations += r.evaluations;
      best.run_values.push_back(r.value);
      if (best.x.empty() || r.value < best.value) {
        best.value = r.value;
        best.x = r.x;
        best.converged = r.converged;
      }
    }
    if (!report_progress(progress, offset + per_run, total)) {
      return Status(StatusCode::cancelled,
                    what + " cancelled after run " + std::to_string(run + 1) + " of " + std::to_string(runs));
    }
  }
  return best;
}

}  // namespace gpprobe
