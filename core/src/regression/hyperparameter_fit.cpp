#include "gpprobe/regression/hyperparameter_fit.h"

#include <cmath>
#include <numeric>

#include "gpprobe/common/lbfgs_restarts.h"
#include "gpprobe/kernels/kernel_parameters.h"
#include "gpprobe/kernels/named_kernels.h"
#include "gpprobe/regression/gp_regression.h"
#include "gpprobe/regression/marginal_likelihood.h"

namespace gpprobe {

namespace {

// exp(theta), except that a parameter held by its bounds (lower == upper) is its bound exactly.
double value_of(double theta, double lower, double upper) { return lower == upper ? lower : std::exp(theta); }

}  // namespace

std::vector<const LogPrior*> regression_parameter_priors(const Kernel& kernel, const HyperparameterPrior& prior) {
  std::vector<const LogPrior*> out;
  for (const KernelParameter& p : kernel.parameters()) {
    const bool length_scale = p.name.find(".length_scale") != std::string::npos;
    const std::string suffix = "constant.value";
    const bool amplitude =
        p.name.size() >= suffix.size() && p.name.compare(p.name.size() - suffix.size(), suffix.size(), suffix) == 0;
    const LogPrior* chosen = length_scale ? &prior.length_scale : amplitude ? &prior.signal_variance : nullptr;
    out.push_back(chosen != nullptr && chosen->family != PriorFamily::none ? chosen : nullptr);
  }
  return out;
}

Result<HyperparameterFit> fit_hyperparameters(const MatrixView& x, const double* y, std::size_t n,
                                              const Kernel& given_kernel, double noise_variance,
                                              const HyperparameterFitOptions& given_options,
                                              const ProgressCallback& progress) {
  GPPROBE_RETURN_IF_ERROR(check_training_data(x, y, n));
  // The held parameters: the noise by its name, the kernel's by theirs.
  HyperparameterFitOptions options = given_options;
  std::vector<std::string> held;
  for (const std::string& name : options.fixed) {
    if (name == kNoiseVariance) options.noise_lower = options.noise_upper = noise_variance;
    else held.push_back(name);
  }
  Result<Kernel> fixed_kernel = fix_parameters(given_kernel, held);
  if (!fixed_kernel.ok()) return fixed_kernel.status();
  const Kernel& kernel = fixed_kernel.value();
  GPPROBE_RETURN_IF_ERROR(kernel.check(x.cols()));
  if (!(std::isfinite(noise_variance) && noise_variance > 0.0)) {
    return Status(StatusCode::invalid_argument,
                  "noise variance must be a finite number > 0 to be optimised, got " + std::to_string(noise_variance));
  }
  if (!(options.noise_lower > 0.0 && options.noise_lower <= options.noise_upper &&
        std::isfinite(options.noise_upper))) {
    return Status(StatusCode::invalid_argument, "noise bounds must satisfy 0 < lower <= upper < inf");
  }
  GPPROBE_RETURN_IF_ERROR(options.prior.check());

  const std::size_t d = x.cols();
  RowMatrix points{Eigen::Index(n), Eigen::Index(d)};
  x.copy_rows(0, n, points.data());
  const Eigen::Map<const Eigen::VectorXd> targets(y, Eigen::Index(n));
  // A plain left-to-right sum: Eigen's vectorised mean depends on the buffer's alignment, so the same
  // targets at another address could round differently in the last bit.
  const double mean = std::isnan(options.mean) ? std::accumulate(y, y + n, 0.0) / double(n) : options.mean;
  const Eigen::VectorXd residual = targets.array() - mean;

  // Minimise -log p in theta; bounds in log space.
  std::vector<double> lower, upper;
  for (const KernelParameter& p : kernel.parameters()) {
    lower.push_back(std::log(p.lower));
    upper.push_back(std::log(p.upper));
  }
  lower.push_back(std::log(options.noise_lower));
  upper.push_back(std::log(options.noise_upper));
  const std::size_t P = kernel.parameter_count();
  const std::vector<const LogPrior*> priors = regression_parameter_priors(kernel, options.prior);
  const auto log_prior = [&](const std::vector<double>& theta, std::vector<double>* gradient) {
    double sum = 0.0;
    for (std::size_t i = 0; i < P; ++i) {
      if (priors[i] == nullptr) continue;
      double derivative = 0.0;
      sum += priors[i]->log_density(theta[i], &derivative);
      if (gradient) (*gradient)[i] -= derivative;
    }
    return sum;
  };
  Status last_failure;  // why the likelihood could not be evaluated, for the message if no run succeeds
  const Objective objective = [&](const std::vector<double>& theta, std::vector<double>* gradient) {
    Result<MarginalLikelihood> lml = log_marginal_likelihood(kernel.with_log_parameters(theta.data()),
                                                             std::exp(theta[P]), points.data(), n, d, residual, true);
    if (!lml.ok()) {
      last_failure = lml.status();
      return std::numeric_limits<double>::infinity();
    }
    for (std::size_t i = 0; i <= P; ++i) (*gradient)[i] = -lml.value().gradient[i];
    return -(lml.value().value + log_prior(theta, gradient));
  };

  std::vector<double> start = kernel.log_parameters();
  start.push_back(std::log(noise_variance));
  const RestartOptions restart{options.restarts, options.seed, LbfgsOptions{options.max_iterations}};
  Result<RestartedMinimum> minimum =
      minimize_with_restarts(objective, start, lower, upper, restart, progress, "hyperparameter fit");
  if (!minimum.ok()) return minimum.status();
  const RestartedMinimum& m = minimum.value();
  if (m.x.empty()) {
    return Status(StatusCode::numerical_failure, "the marginal likelihood could not be evaluated at any of the " +
                                                     count_of(m.run_values.size(), "starting point") + ": " +
                                                     last_failure.message());
  }
  // A held parameter (lower == upper) keeps its given double, not exp(log v).
  const std::vector<KernelParameter> ps = kernel.parameters();
  std::vector<double> values(P);
  for (std::size_t i = 0; i < P; ++i) values[i] = value_of(m.x[i], ps[i].lower, ps[i].upper);
  HyperparameterFit best{kernel.with_values(values.data()),
                         value_of(m.x[P], options.noise_lower, options.noise_upper),
                         -m.value,
                         {},
                         m.iterations,
                         m.evaluations};
  for (double v : m.run_values) best.run_values.push_back(-v);
  best.log_prior = log_prior(m.x, nullptr);
  best.log_marginal_likelihood = -m.value - best.log_prior;
  return best;
}

}  // namespace gpprobe
