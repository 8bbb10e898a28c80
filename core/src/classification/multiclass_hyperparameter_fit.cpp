#include "gpprobe/classification/multiclass_hyperparameter_fit.h"

#include <cmath>
#include <limits>
#include <string>

#include "gpprobe/common/lbfgs_restarts.h"

#include "linalg/heap_reuse.h"

namespace gpprobe {

namespace multiclass_fit_detail {

// theta (blocks of 1 + d) -> C kernels.
std::vector<SeArdKernel> kernels_of(const std::vector<double>& theta, std::size_t C, std::size_t d, bool shared) {
  std::vector<SeArdKernel> out;
  for (std::size_t c = 0; c < C; ++c) {
    const std::size_t at = shared ? 0 : c * (1 + d);
    SeArdKernel k;
    k.signal_variance = std::exp(theta[at]);
    for (std::size_t j = 0; j < d; ++j) k.length_scales.push_back(std::exp(theta[at + 1 + j]));
    out.push_back(std::move(k));
  }
  return out;
}

Status check_range(const char* name, double lower, double upper) {
  if (lower > 0.0 && lower <= upper && std::isfinite(upper)) return Status::success();
  return Status(StatusCode::invalid_argument, std::string(name) + " bounds must satisfy 0 < lower <= upper < inf");
}

}  // namespace multiclass_fit_detail

double multiclass_log_prior_density(const HyperparameterPrior& prior, const std::vector<double>& theta, std::size_t d,
                                    std::vector<double>* gradient) {
  double sum = 0.0;
  for (std::size_t i = 0; i < theta.size(); ++i) {
    double derivative = 0.0;
    sum += (i % (1 + d) == 0 ? prior.signal_variance : prior.length_scale).log_density(theta[i], &derivative);
    if (gradient) (*gradient)[i] = derivative;
  }
  return sum;
}

Result<MulticlassHyperparameterFit> fit_multiclass_hyperparameters(const MulticlassTrainingData& data,
                                                                   const std::vector<SeArdKernel>& start,
                                                                   const MulticlassHyperparameterOptions& options,
                                                                   const ProgressCallback& progress) {
  using namespace multiclass_fit_detail;
  const std::size_t C = data.classes, d = data.dimension();
  GPPROBE_RETURN_IF_ERROR(check_range("signal variance", options.signal_variance_lower, options.signal_variance_upper));
  GPPROBE_RETURN_IF_ERROR(check_range("length-scale", options.length_scale_lower, options.length_scale_upper));
  if (start.size() != 1 && start.size() != C) {
    return Status(StatusCode::dimension_mismatch, count_of(start.size(), "kernel") + " for " +
                                                      count_of(C, "class", "classes") + " (give 1 or " +
                                                      std::to_string(C) + ")");
  }
  for (std::size_t c = 0; c < start.size(); ++c) {
    const Status checked = start[c].check(d);
    if (!checked.ok()) return Status(checked.code(), "kernel of class " + std::to_string(c) + ": " + checked.message());
  }
  GPPROBE_RETURN_IF_ERROR(options.prior.check());
  keep_freed_blocks();
  const std::size_t blocks = options.shared ? 1 : C;
  std::vector<double> theta, lower, upper;
  for (std::size_t c = 0; c < blocks; ++c) {
    const SeArdKernel k = start[start.size() == 1 ? 0 : c].expanded(d);
    theta.push_back(std::log(k.signal_variance));
    lower.push_back(std::log(options.signal_variance_lower));
    upper.push_back(std::log(options.signal_variance_upper));
    for (double l : k.length_scales) {
      theta.push_back(std::log(l));
      lower.push_back(std::log(options.length_scale_lower));
      upper.push_back(std::log(options.length_scale_upper));
    }
  }
  // Each evaluation's Newton starts from the last successful evaluation's alpha, or one Newton step from
  // its mode f^, whichever has the higher Psi (L-BFGS moves theta a little between evaluations, so the mode
  // moves a little): the same mode, fewer Newton steps.
  RowMatrix last_alpha, last_f;
  const auto evidence = [&](const std::vector<double>& t) {
    MulticlassOptions newton;
    newton.tied_gradient_only = options.shared;  // the objective reads only the sum of the class rows
    if (last_alpha.size() > 0) newton.start_a = &last_alpha;
    if (last_f.size() > 0) newton.start_f = &last_f;
    Result<MulticlassLaplace> fit = MulticlassLaplace::fit(data, kernels_of(t, C, d, options.shared), newton);
    if (fit.ok()) last_alpha = fit.value().alpha();
    if (fit.ok()) last_f = fit.value().f_hat();
    return fit;
  };
  Result<MulticlassLaplace> at_start = evidence(theta);
  if (!at_start.ok()) return at_start.status();
  const double start_value = at_start.value().log_marginal_likelihood();

  // The first run's first evaluation is the start itself: answered from the fit above, not fitted twice.
  bool start_pending = true;
  // The weights of the best evaluation so far (a warm start for the caller's refit at the optimum).
  double best_value = std::numeric_limits<double>::infinity();
  std::vector<double> best_theta;
  RowMatrix best_alpha;
  const Objective objective = [&](const std::vector<double>& t, std::vector<double>* gradient) {
    Result<MulticlassLaplace> fit = start_pending && t == theta ? std::move(at_start) : evidence(t);
    start_pending = false;
    if (!fit.ok()) return std::numeric_limits<double>::infinity();
    if (options.shared) {
      const std::vector<double> g = fit.value().tied_gradient();
      for (std::size_t p = 0; p < g.size(); ++p) (*gradient)[p] = -g[p];
    } else {
      const auto& rows = fit.value().gradient();
      for (std::size_t c = 0; c < C; ++c)
        for (std::size_t p = 0; p <= d; ++p) (*gradient)[c * (1 + d) + p] = -rows[c][p];
    }
    std::vector<double> prior_gradient(t.size(), 0.0);
    const double log_prior = multiclass_log_prior_density(options.prior, t, d, &prior_gradient);
    for (std::size_t p = 0; p < t.size(); ++p) (*gradient)[p] -= prior_gradient[p];
    const double value = -(fit.value().log_marginal_likelihood() + log_prior);
    if (value < best_value) {
      best_value = value;
      best_theta = t;
      best_alpha = fit.value().alpha();
    }
    return value;
  };
  const RestartOptions restart{options.restarts, options.seed, LbfgsOptions{options.max_iterations}};
  Result<RestartedMinimum> minimum =
      minimize_with_restarts(objective, theta, lower, upper, restart, progress, "multi-class hyperparameter fit");
  if (!minimum.ok()) return minimum.status();
  const RestartedMinimum& m = minimum.value();
  if (m.x.empty()) {
    return Status(StatusCode::numerical_failure, "the log marginal likelihood could not be evaluated at any of the " +
                                                     count_of(m.run_values.size(), "starting point"));
  }
  MulticlassHyperparameterFit fit;
  fit.kernels = kernels_of(m.x, C, d, options.shared);
  fit.log_prior = multiclass_log_prior_density(options.prior, m.x, d);
  fit.log_marginal_likelihood = -m.value - fit.log_prior;
  fit.start_log_marginal_likelihood = start_value;
  for (double v : m.run_values) fit.run_values.push_back(-v);
  fit.iterations = m.iterations;
  fit.evaluations = m.evaluations;
  fit.converged = m.converged;
  if (best_theta == m.x) fit.alpha = best_alpha;
  return fit;
}

}  // namespace gpprobe
