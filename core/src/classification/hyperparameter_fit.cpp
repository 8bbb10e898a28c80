#include "gpprobe/classification/hyperparameter_fit.h"

#include <cmath>
#include <limits>

#include "gpprobe/common/lbfgs_restarts.h"
#include "gpprobe/kernels/kernel_matrix.h"

#include "linalg/heap_reuse.h"

namespace gpprobe {

namespace {

SeArdKernel from_theta(const std::vector<double>& theta) {
  SeArdKernel k;
  k.signal_variance = std::exp(theta[0]);
  for (std::size_t j = 1; j < theta.size(); ++j) k.length_scales.push_back(std::exp(theta[j]));
  return k;
}

Status check_bounds(const char* name, double lower, double upper) {
  if (lower > 0.0 && lower <= upper && std::isfinite(upper)) return Status::success();
  return Status(StatusCode::invalid_argument, std::string(name) + " bounds must satisfy 0 < lower <= upper < inf");
}

}  // namespace

double log_prior_density(const HyperparameterPrior& prior, const std::vector<double>& theta,
                         std::vector<double>* gradient) {
  double sum = 0.0;
  for (std::size_t i = 0; i < theta.size(); ++i) {
    double derivative = 0.0;
    sum += (i == 0 ? prior.signal_variance : prior.length_scale).log_density(theta[i], &derivative);
    if (gradient) (*gradient)[i] = derivative;
  }
  return sum;
}

Result<ClassifierHyperparameterFit> fit_gpc_hyperparameters(const ClassifierTrainingData& data,
                                                            const SeArdKernel& start, const ClassifierOptions& options,
                                                            const ClassifierHyperparameterOptions& fit_options,
                                                            const ProgressCallback& progress) {
  const std::size_t d = data.dimension();
  GPPROBE_RETURN_IF_ERROR(check_options(options));
  GPPROBE_RETURN_IF_ERROR(start.check(d));
  GPPROBE_RETURN_IF_ERROR(
      check_bounds("signal variance", fit_options.signal_variance_lower, fit_options.signal_variance_upper));
  GPPROBE_RETURN_IF_ERROR(check_bounds("length-scale", fit_options.length_scale_lower, fit_options.length_scale_upper));
  GPPROBE_RETURN_IF_ERROR(fit_options.prior.check());
  keep_freed_blocks();
  ClassifierOptions evidence_options = options;
  evidence_options.with_gradient = true;

  const SeArdKernel first = fit_options.shared_length_scale
                                ? SeArdKernel{start.signal_variance, {start.length_scales[0]}}
                                : start.expanded(d);
  std::vector<double> theta{std::log(first.signal_variance)};
  std::vector<double> lower{std::log(fit_options.signal_variance_lower)};
  std::vector<double> upper{std::log(fit_options.signal_variance_upper)};
  for (double l : first.length_scales) {
    theta.push_back(std::log(l));
    lower.push_back(std::log(fit_options.length_scale_lower));
    upper.push_back(std::log(fit_options.length_scale_upper));
  }
  // The start's own evidence: the result must not fall below it, and a failure here is the user's to see.
  // Evaluated at exp(theta), the point L-BFGS starts from (an ulp from `first` at most), so that its first
  // evaluation is this one.
  // A shared length-scale is the isotropic kernel: its evidence from the points' squared distances,
  // computed once here (each evaluation is then free of O(n^2 d) kernel work), its gradient [log s2, log l].
  const RowMatrix D2 = fit_options.shared_length_scale ? squared_distances(data.x.data(), data.size(), d) : RowMatrix();
  const auto evidence = [&](const std::vector<double>& t) {
    return fit_options.shared_length_scale
               ? gpc_isotropic_log_marginal_likelihood(data, D2, std::exp(t[0]), std::exp(t[1]), evidence_options)
               : gpc_log_marginal_likelihood(data, from_theta(t), evidence_options);
  };
  Result<ClassifierEvidence> at_start = evidence(theta);
  if (!at_start.ok()) return at_start.status();

  const Objective objective = [&](const std::vector<double>& t, std::vector<double>* gradient) {
    // L-BFGS starts where at_start was just evaluated (inside the bounds): the same evidence, not again
    // (an EP evidence is 10-20 sweeps of O(n^3), and the GPC probes' EP fit takes a handful of steps).
    Result<ClassifierEvidence> e = t == theta ? at_start : evidence(t);
    if (!e.ok()) return std::numeric_limits<double>::infinity();
    const std::vector<double>& g = e.value().gradient;  // [log s2, log l] shared, else 1 + d entries
    std::vector<double> prior_gradient(t.size(), 0.0);
    const double log_prior = log_prior_density(fit_options.prior, t, &prior_gradient);
    for (std::size_t i = 0; i < t.size(); ++i) (*gradient)[i] = -(g[i] + prior_gradient[i]);
    return -(e.value().value + log_prior);
  };
  const RestartOptions restart{fit_options.restarts, fit_options.seed, LbfgsOptions{fit_options.max_iterations}};
  Result<RestartedMinimum> minimum =
      minimize_with_restarts(objective, theta, lower, upper, restart, progress, "hyperparameter fit");
  if (!minimum.ok()) return minimum.status();
  const RestartedMinimum& m = minimum.value();

  ClassifierHyperparameterFit fit;
  fit.start_log_marginal_likelihood = at_start.value().value;
  for (double v : m.run_values) fit.run_values.push_back(-v);
  fit.iterations = m.iterations;
  fit.evaluations = m.evaluations;
  fit.converged = m.converged;
  if (m.x.empty()) {
    return Status(StatusCode::numerical_failure, "the log marginal likelihood could not be evaluated at any of the " +
                                                     count_of(m.run_values.size(), "starting point"));
  }
  fit.kernel = from_theta(m.x);
  fit.log_prior = log_prior_density(fit_options.prior, m.x);
  fit.log_marginal_likelihood = -m.value - fit.log_prior;
  return fit;
}

}  // namespace gpprobe
