#include "gpprobe/hyperparameter_fit.h"

#include <cmath>

#include "gpprobe/gp_regression.h"
#include "gpprobe/kernel_parameters.h"
#include "gpprobe/lbfgs.h"
#include "gpprobe/marginal_likelihood.h"
#include "gpprobe/named_kernels.h"
#include "gpprobe/random_stream.h"

namespace gpprobe {

namespace {

// exp(theta), except that a parameter held by its bounds (lower == upper) is its bound exactly.
double value_of(double theta, double lower, double upper) { return lower == upper ? lower : std::exp(theta); }

}  // namespace

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
  if (!(options.noise_lower > 0.0 && options.noise_lower <= options.noise_upper && std::isfinite(options.noise_upper))) {
    return Status(StatusCode::invalid_argument, "noise bounds must satisfy 0 < lower <= upper < inf");
  }
  if (options.max_iterations == 0) return Status(StatusCode::invalid_argument, "max_iterations must be at least 1");

  const std::size_t d = x.cols();
  RowMatrix points{Eigen::Index(n), Eigen::Index(d)};
  x.copy_rows(0, n, points.data());
  const Eigen::Map<const Eigen::VectorXd> targets(y, Eigen::Index(n));
  const double mean = std::isnan(options.mean) ? targets.mean() : options.mean;
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
  const Objective objective = [&](const std::vector<double>& theta, std::vector<double>* gradient) {
    Result<MarginalLikelihood> lml = log_marginal_likelihood(kernel.with_log_parameters(theta.data()),
                                                             std::exp(theta[P]), points.data(), n, d, residual, true);
    if (!lml.ok()) return std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i <= P; ++i) (*gradient)[i] = -lml.value().gradient[i];
    return -lml.value().value;
  };

  std::vector<double> start = kernel.log_parameters();
  start.push_back(std::log(noise_variance));
  RandomStream rng(options.seed);
  LbfgsOptions lbfgs;
  lbfgs.max_iterations = options.max_iterations;
  const std::size_t runs = options.restarts + 1;
  const std::size_t total = runs * options.max_iterations;

  HyperparameterFit best{kernel, noise_variance, -std::numeric_limits<double>::infinity(), {}, 0, 0};
  std::vector<double> best_theta;
  for (std::size_t run = 0; run < runs; ++run) {
    if (run > 0) {
      for (std::size_t i = 0; i <= P; ++i) start[i] = rng.uniform(lower[i], upper[i]);
    }
    const std::size_t offset = run * options.max_iterations;
    Result<LbfgsResult> result = minimize_lbfgs(objective, start, lower, upper, lbfgs,
                                                [&](std::size_t done, std::size_t) {
                                                  return report_progress(progress, offset + done, total);
                                                });
    if (!result.ok() && result.status().code() == StatusCode::cancelled) {
      return Status(StatusCode::cancelled, "hyperparameter fit cancelled in run " + std::to_string(run + 1) +
                                               " of " + std::to_string(runs));
    }
    if (!result.ok()) {  // the start itself has no likelihood: this run contributes nothing
      best.run_values.push_back(-std::numeric_limits<double>::infinity());
      continue;
    }
    best.iterations += result.value().iterations;
    best.evaluations += result.value().evaluations;
    const double value = -result.value().value;
    best.run_values.push_back(value);
    if (value > best.log_marginal_likelihood) {
      best.log_marginal_likelihood = value;
      best_theta = result.value().x;
    }
    if (!report_progress(progress, offset + options.max_iterations, total)) {
      return Status(StatusCode::cancelled, "hyperparameter fit cancelled after run " + std::to_string(run + 1) +
                                               " of " + std::to_string(runs));
    }
  }
  if (best_theta.empty()) {
    return Status(StatusCode::numerical_failure, "the marginal likelihood could not be evaluated at any of the " +
                                                     count_of(runs, "starting point") +
                                                     " (K + noise I is not positive definite there)");
  }
  const std::vector<KernelParameter> ps = kernel.parameters();
  std::vector<double> values(P);
  for (std::size_t i = 0; i < P; ++i) values[i] = value_of(best_theta[i], ps[i].lower, ps[i].upper);
  best.kernel = kernel.with_values(values.data());
  best.noise_variance = value_of(best_theta[P], options.noise_lower, options.noise_upper);
  return best;
}

}  // namespace gpprobe
