#include "gpprobe/classification/gp_classifier.h"

#include <cmath>
#include <limits>
#include <string>

#include "gpprobe/classification/ep_classifier.h"
#include "gpprobe/classification/laplace_classifier.h"

#include "common/input_checks.h"

namespace gpprobe {

namespace {

// What either approximation leaves behind: its evidence and the common form's alpha and M.
struct Approximation {
  ClassifierEvidence evidence;
  Eigen::VectorXd alpha;
  RowMatrix variance_factor;
};

template <class Fit>
Approximation take(Fit&& fit) {
  return {{fit.log_marginal_likelihood, std::move(fit.gradient), fit.iterations},
          std::move(fit.alpha),
          std::move(fit.variance_factor)};
}

Result<Approximation> fitted(const ClassifierTrainingData& data, const Kernel& pairwise,
                             const ClassifierOptions& options, const RowMatrix* squared_distances) {
  if (options.method == ClassifierMethod::laplace) {
    Result<LaplaceFit> fit = fit_laplace(data, pairwise, options.likelihood, options.with_gradient,
                                         options.max_iterations, squared_distances);
    if (!fit.ok()) return fit.status();
    return take(std::move(fit.value()));
  }
  Result<EpFit> fit = fit_ep(data, pairwise, options.with_gradient, options.max_iterations, squared_distances);
  if (!fit.ok()) return fit.status();
  return take(std::move(fit.value()));
}

// numerical_failure naming the method and the first non-finite quantity of a fit, for every caller
// (the classifier, its evidence for the hyperparameter search, robustness, the evaluation lab): a
// signal variance near the largest double overflows the evidence's sums (NaN) while the sites or the
// mode still look converged.
Status check_finite_fit(const Approximation& a, const SeArdKernel& kernel, const ClassifierOptions& options) {
  const char* what = nullptr;
  double value = 0.0;
  auto check = [&](const char* name, const double* values, Eigen::Index n) {
    for (Eigen::Index i = 0; i < n && !what; ++i)
      if (!std::isfinite(values[i])) what = name, value = values[i];
  };
  check("log marginal likelihood", &a.evidence.value, 1);
  check("log marginal likelihood's gradient", a.evidence.gradient.data(), Eigen::Index(a.evidence.gradient.size()));
  check("alpha", a.alpha.data(), a.alpha.size());
  check("variance factor", a.variance_factor.data(), a.variance_factor.size());
  if (!what) return Status::success();
  return Status(StatusCode::numerical_failure,
                std::string(options.method == ClassifierMethod::laplace ? "Laplace" : "EP") + ": the fit's " + what +
                    " is " +
                    (std::isnan(value) ? "NaN"
                     : value > 0       ? "+Inf"
                                       : "-Inf") +
                    " with signal variance " + number_text(kernel.signal_variance) +
                    " (the kernel's scale is beyond double precision)");
}

Result<Approximation> approximate(const ClassifierTrainingData& data, const SeArdKernel& kernel,
                                  const ClassifierOptions& options, const RowMatrix* squared_distances = nullptr) {
  // A row of the kernel matrix sums up to n s2: past the largest double, whether a fit overflows (NaN) or
  // happens to stay finite depends on the order of the floating-point sums, and so on the build (AVX-512
  // or not). Refused alike in every build, before any sum.
  const double n = double(data.size());
  if (!(kernel.signal_variance * n < std::numeric_limits<double>::max())) {
    return Status(StatusCode::numerical_failure,
                  std::string(options.method == ClassifierMethod::laplace ? "Laplace" : "EP") + ": signal variance " +
                      number_text(kernel.signal_variance) + " times the " + number_text(n) +
                      " training points is beyond the largest double, so the kernel's sums overflow (the kernel's "
                      "scale is beyond double precision)");
  }
  Result<Approximation> a = fitted(data, kernel.kernel(), options, squared_distances);
  if (!a.ok()) return a.status();
  GPPROBE_RETURN_IF_ERROR(check_finite_fit(a.value(), kernel, options));
  return a;
}

}  // namespace

Status check_options(const ClassifierOptions& options) {
  if (options.method == ClassifierMethod::ep && options.likelihood != ClassifierLikelihood::probit) {
    return Status(StatusCode::invalid_argument,
                  "EP is available with the probit likelihood only (its site moments are closed-form); use the "
                  "Laplace method for the logistic likelihood");
  }
  if (options.max_iterations == 0) return Status(StatusCode::invalid_argument, "max_iterations must be at least 1");
  return Status::success();
}

Result<ClassifierEvidence> gpc_log_marginal_likelihood(const ClassifierTrainingData& data, const SeArdKernel& kernel,
                                                       const ClassifierOptions& options) {
  GPPROBE_RETURN_IF_ERROR(check_options(options));
  GPPROBE_RETURN_IF_ERROR(kernel.check(data.dimension()));
  Result<Approximation> a = approximate(data, kernel.expanded(data.dimension()), options);
  if (!a.ok()) return a.status();
  return std::move(a.value().evidence);
}

Result<ClassifierEvidence> gpc_isotropic_log_marginal_likelihood(const ClassifierTrainingData& data,
                                                                 const RowMatrix& squared_distances,
                                                                 double signal_variance, double length_scale,
                                                                 const ClassifierOptions& options) {
  GPPROBE_RETURN_IF_ERROR(check_options(options));
  const SeArdKernel kernel{signal_variance, {length_scale}};
  GPPROBE_RETURN_IF_ERROR(kernel.check(data.dimension()));
  if (std::size_t(squared_distances.rows()) != data.size() || std::size_t(squared_distances.cols()) != data.size()) {
    return Status(StatusCode::dimension_mismatch, "squared distances of " + std::to_string(squared_distances.rows()) +
                                                      " points for " + std::to_string(data.size()) +
                                                      " training points");
  }
  Result<Approximation> a = approximate(data, kernel, options, &squared_distances);
  if (!a.ok()) return a.status();
  return std::move(a.value().evidence);
}

Result<GpClassifier> GpClassifier::fit(const MatrixView& x, const double* labels, std::size_t n,
                                       const SeArdKernel& kernel, const ClassifierOptions& options) {
  Result<ClassifierTrainingData> data = make_gpc_training_data(x, labels, n);
  if (!data.ok()) return data.status();
  return fit(data.value(), kernel, options);
}

Result<GpClassifier> GpClassifier::fit(const ClassifierTrainingData& data, const SeArdKernel& kernel,
                                       const ClassifierOptions& options) {
  GPPROBE_RETURN_IF_ERROR(check_options(options));
  GPPROBE_RETURN_IF_ERROR(kernel.check(data.dimension()));
  const SeArdKernel full = kernel.expanded(data.dimension());
  Result<Approximation> a = approximate(data, full, options);
  if (!a.ok()) return a.status();
  Approximation& fit = a.value();
  Result<ClassifierCommonForm> form = ClassifierCommonForm::from_factor(
      data.x, full, options.likelihood, std::move(fit.alpha), std::move(fit.variance_factor));
  if (!form.ok()) return form.status();
  return GpClassifier(std::move(form.value()), options, std::move(fit.evidence));
}

}  // namespace gpprobe
