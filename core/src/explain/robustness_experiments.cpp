#include "gpprobe/explain/robustness_experiments.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "gpprobe/certify/robustness_region.h"
#include "gpprobe/common/lbfgs.h"
#include "gpprobe/explain/feature_sensitivity.h"
#include "gpprobe/explain/gpc_output.h"
#include "gpprobe/linalg/parallel_for.h"

#include "common/input_checks.h"

namespace gpprobe {

Result<EpochFit> fit_for_epochs(const ClassifierTrainingData& data, const ClassifierOptions& options,
                                std::size_t epochs) {
  if (epochs == 0) return Status(StatusCode::invalid_argument, "epochs must be at least 1");
  GPPROBE_RETURN_IF_ERROR(check_options(options));
  const std::size_t d = data.dimension();
  auto kernel_of = [&](const std::vector<double>& theta) {
    SeArdKernel k{std::exp(theta[0]), std::vector<double>(d)};
    for (std::size_t j = 0; j < d; ++j) k.length_scales[j] = std::exp(theta[j + 1]);
    return k;
  };
  ClassifierOptions evidence_options = options;
  evidence_options.with_gradient = true;
  // The authors' start (GPML: ell = 1, sf = 1) and scikit-learn's bounds.
  const std::vector<double> start(d + 1, 0.0), lower(d + 1, std::log(1e-5)), upper(d + 1, std::log(1e5));
  std::size_t evaluations = 0;
  double best = std::numeric_limits<double>::infinity(), first = best;
  std::vector<double> best_theta;
  Status first_failure;
  const Objective objective = [&](const std::vector<double>& theta, std::vector<double>* gradient) {
    // Beyond the budget nothing is evaluated: the line search steps back and the run ends.
    if (evaluations >= epochs) return std::numeric_limits<double>::infinity();
    ++evaluations;
    Result<ClassifierEvidence> e = gpc_log_marginal_likelihood(data, kernel_of(theta), evidence_options);
    if (!e.ok()) {
      if (evaluations == 1) first_failure = e.status();
      return std::numeric_limits<double>::infinity();
    }
    for (std::size_t i = 0; i <= d; ++i) (*gradient)[i] = -e.value().gradient[i];
    const double value = -e.value().value;
    if (evaluations == 1) first = value;
    if (value < best) best = value, best_theta = theta;
    return value;
  };
  LbfgsOptions lbfgs;
  lbfgs.max_iterations = epochs;
  const ProgressCallback within_budget = [&](std::size_t, std::size_t) { return evaluations < epochs; };
  Result<LbfgsResult> run = minimize_lbfgs(objective, start, lower, upper, lbfgs, within_budget);
  if (!first_failure.ok()) return first_failure;
  if (!run.ok() && run.status().code() != StatusCode::cancelled) return run.status();
  if (best_theta.empty()) {
    return Status(StatusCode::numerical_failure, "the log marginal likelihood could not be evaluated at the start");
  }
  EpochFit fit;
  fit.kernel = kernel_of(best_theta);
  fit.log_marginal_likelihood = -best;
  fit.start_log_marginal_likelihood = -first;
  fit.evaluations = evaluations;
  return fit;
}

std::vector<std::size_t> shortest_length_scales(const SeArdKernel& kernel, std::size_t count,
                                                const MatrixView& inputs) {
  const std::size_t d = kernel.length_scales.size();
  std::vector<std::size_t> order;
  const std::vector<bool> constant = constant_features(inputs);
  for (std::size_t j = 0; j < d; ++j)
    if (inputs.empty() || (j < constant.size() && !constant[j])) order.push_back(j);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return kernel.length_scales[a] < kernel.length_scales[b]; });
  order.resize(std::min(count, order.size()));
  return order;
}

Result<std::vector<DeltaRobustness>> delta_robustness(const ClassifierCommonForm& form, const MatrixView& points,
                                                      const RobustnessOptions& options,
                                                      const ProgressCallback& progress) {
  const std::size_t m = points.rows(), d = points.cols();
  if (d != form.dimension()) {
    return Status(StatusCode::dimension_mismatch, "the points have " + count_of(d, "column") +
                                                      ", the training inputs have " +
                                                      count_of(form.dimension(), "column"));
  }
  RobustnessOptions both = options;
  both.search = RobustnessSearch::both;
  std::vector<double> rows(m * d);
  points.copy_rows(0, m, rows.data());
  std::vector<DeltaRobustness> out(m);
  const Status status = parallel_tasks(
      m,
      [&](std::size_t p) {
        const std::vector<double> point(rows.begin() + std::ptrdiff_t(p * d),
                                        rows.begin() + std::ptrdiff_t((p + 1) * d));
        Result<RobustnessCertificate> cert = certify_robustness(form, point, both);
        if (!cert.ok())
          return Status(cert.status().code(), "point " + std::to_string(p) + ": " + cert.status().message());
        const RobustnessCertificate& c = cert.value();
        DeltaRobustness& r = out[p];
        r.probability = c.probability_at_point;
        r.minimum = {c.minimum.lower, c.minimum.upper};
        r.maximum = {c.maximum.lower, c.maximum.upper};
        r.delta_lower = std::max(0.0, c.maximum.lower - c.minimum.upper);
        r.delta_upper = c.maximum.upper - c.minimum.lower;
        r.status = c.minimum.status != SearchStatus::converged ? c.minimum.status : c.maximum.status;
        return Status::success();
      },
      [&](std::size_t done) {
        if (report_progress(progress, done, m)) return Status::success();
        return Status(StatusCode::cancelled, "the robustness study was cancelled after " + count_of(done, "point") +
                                                 " of " + std::to_string(m));
      });
  GPPROBE_RETURN_IF_ERROR(status);
  return out;
}

Result<TimedExtreme> timed_maximum(const ClassifierCommonForm& form, const std::vector<double>& point,
                                   const RobustnessOptions& options) {
  if (point.size() != form.dimension()) {
    return Status(StatusCode::dimension_mismatch, "the point has " + count_of(point.size(), "coordinate") +
                                                      ", the training inputs have " +
                                                      count_of(form.dimension(), "column"));
  }
  Result<RobustnessRegion> region =
      RobustnessRegion::linf_ball(point, options.gamma, options.dims, options.valid_range);
  if (!region.ok()) return region.status();
  const auto start = std::chrono::steady_clock::now();
  const ClassifierOutput output(form, options.variance);
  Result<std::unique_ptr<BoxBounder>> bounder = output.around(point, region.value().dims());
  if (!bounder.ok()) return bounder.status();
  Result<OutputExtreme> maximum =
      search_extreme(*bounder.value(), Extremum::maximum, region.value().box(),
                     {options.tolerance, options.max_iterations, options.time_limit_seconds});
  if (!maximum.ok()) return maximum.status();
  TimedExtreme out;
  out.maximum = std::move(maximum).value();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace gpprobe
