// Embind registration of binary GP classification (gp_classifier.h, fitted by classifier_fit.h): the
// ClassifierHandle that JavaScript fits or optimises and then queries, and MacKay's approximation (shown
// as one). The bundled examples, the synthetic data and the lab's vocabulary are registered in
// bindings_classification_examples.cpp. Conventions of binding_support.h. The kernel crosses as
// numbers under the TS API's names (signalVariance, lengthScales: the CLI's --signal-variance and
// --length-scales), and every call returns its own report: nothing is left in the handle for a later
// call to read.
#include <cstdint>
#include <memory>
#include <string>

#include <emscripten/bind.h>

#include "gpprobe/classification/classifier_fit.h"
#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/probability.h"
#include "gpprobe/explain/gpc_output.h"

#include "binding_support.h"
#include "certify_values.h"
#include "explain_values.h"

namespace gpprobe::wasm {
namespace {

// The model and its hyperparameters; lengthScales holds 1 value (every column) or one per column.
struct ClassifierSettings {
  std::string method, likelihood;
  double signalVariance = 1;
  val lengthScales = val::array();  // Float64Array or number[]
};

struct ClassifierOptimizeSettings {
  double restarts = 0, seed = 0, maxIterations = 0;
  bool sharedLengthScale = false;
  // MAP priors on log s2 and each log l (hyperparameter_prior.h): "none" (maximum likelihood),
  // "lognormal:MU,SIGMA" or "student-t:MU,SIGMA,NU", the CLI's --signal-variance-prior / --length-scale-prior.
  std::string signalVariancePrior = "none", lengthScalePrior = "none";
};

struct ClassifierOptimizeReport : OptimizeRunsReport {};

struct ClassifierPredictReport : BindingStatus {
  double clampedVariances = 0;  // rounding-negative latent variances set to 0 (common_form.h)
};

struct ClassifierStateValue : BindingStatus {
  std::string method, likelihood;
  double signalVariance = 0;
  val lengthScales = val::null();  // Float64Array, one per input column
  double logMarginalLikelihood = 0;
  val gradient = val::null();  // Float64Array: d/d[log signal variance, log length-scale 1..d]
  double iterations = 0, size = 0, dimension = 0;
};

Status not_fitted() { return Status(StatusCode::invalid_argument, "the classifier is not fitted"); }

// The settings as the core's fit sequence takes them (classifier_fit.h); the core checks them.
Result<ClassifierFitSettings> fit_settings(const ClassifierSettings& s) {
  ClassifierFitSettings f;
  Result<ClassifierMethod> method = parse_method(s.method);
  if (!method.ok()) return method.status();
  Result<ClassifierLikelihood> likelihood = parse_likelihood(s.likelihood);
  if (!likelihood.ok()) return likelihood.status();
  f.model.method = method.value();
  f.model.likelihood = likelihood.value();
  f.kernel.signal_variance = s.signalVariance;
  f.kernel.length_scales = emscripten::convertJSArrayToNumberVector<double>(s.lengthScales);
  return f;
}

// One fitted classifier. JavaScript owns it and must call delete() (GpClassifier.dispose does).
class ClassifierHandle {
 public:
  // x: rows by cols float64, labels: rows float64 (0/1 or -1/+1).
  Status fit(std::uintptr_t x, std::size_t rows, std::size_t cols, std::uintptr_t labels, const ClassifierSettings& s) {
    Result<ClassifierFitSettings> settings = fit_settings(s);
    if (!settings.ok()) return settings.status();
    Result<ClassifierFit> fitted =
        fit_classifier(MatrixView(doubles(x), rows, cols), doubles(labels), rows, settings.value());
    if (!fitted.ok()) return fitted.status();
    gpc_ = std::make_unique<GpClassifier>(std::move(fitted.value().classifier));
    return Status::success();
  }

  // Maximises the log marginal likelihood (plus the log prior: MAP) from the given hyperparameters, then
  // fits at the optimum.
  ClassifierOptimizeReport optimize(std::uintptr_t x, std::size_t rows, std::size_t cols, std::uintptr_t labels,
                                    const ClassifierSettings& s, const ClassifierOptimizeSettings& o, val progress) {
    using Report = ClassifierOptimizeReport;
    Result<ClassifierFitSettings> settings = fit_settings(s);
    if (!settings.ok()) return failed<Report>(settings.status());
    ClassifierFitSettings& f = settings.value();
    f.optimize = true;
    if (const Status checked = optimizer_counts(o, &f.hyperparameters); !checked.ok()) return failed<Report>(checked);
    f.hyperparameters.shared_length_scale = o.sharedLengthScale;
    Result<HyperparameterPrior> prior = parse_hyperparameter_prior(o.signalVariancePrior, "signalVariancePrior",
                                                                   o.lengthScalePrior, "lengthScalePrior", true, "");
    if (!prior.ok()) return failed<Report>(prior.status());
    f.hyperparameters.prior = prior.value();
    Result<ClassifierFit> fitted =
        fit_classifier(MatrixView(doubles(x), rows, cols), doubles(labels), rows, f, progress_from(progress));
    if (!fitted.ok()) return failed<Report>(fitted.status());
    gpc_ = std::make_unique<GpClassifier>(std::move(fitted.value().classifier));
    return optimize_runs_report<Report>(*fitted.value().optimum);
  }

  // Writes 3 columns of `rows` doubles at `out`: latent mean, latent variance, probability p(y = +1).
  ClassifierPredictReport predict(std::uintptr_t test, std::size_t rows, std::size_t cols, std::uintptr_t out,
                                  val progress) const {
    if (!gpc_) return failed<ClassifierPredictReport>(not_fitted());
    double* b = doubles_out(out);
    PredictionReport report;
    const Status s = gpc_->predict(MatrixView(doubles(test), rows, cols), {b, b + rows, b + 2 * rows},
                                   progress_from(progress), &report);
    if (!s.ok()) return failed<ClassifierPredictReport>(s);
    ClassifierPredictReport r;
    r.clampedVariances = double(report.clamped_variances);
    return r;
  }

  // Certified robustness at `point` (certify_values.h); `on_interval` sees each split's interval.
  Reply<RobustnessCertificate> certify_robustness(val point, const RobustnessSettings& s, val progress,
                                                  val on_interval) const {
    if (!gpc_) return failed<Reply<RobustnessCertificate>>(not_fitted());
    return robustness_certificate(gpc_->common_form(), point, s, progress, on_interval);
  }

  // Delta_gamma and LIME of p(y = +1) at the rows of `points` (explain_values.h).
  ExplainValue explain(val points, const ExplainSettings& s, val progress) const {
    if (!gpc_) return failed<ExplainValue>(not_fitted());
    return explain_output(ClassifierOutput(gpc_->common_form()), points, s, progress);
  }

  Reply<RobustnessSweep> robustness_sweep(val point, val gammas, const RobustnessSettings& s, val progress) const {
    if (!gpc_) return failed<Reply<RobustnessSweep>>(not_fitted());
    return robustness_sweep_certificates(gpc_->common_form(), point, gammas, s, progress);
  }

  ClassifierStateValue state() const {
    if (!gpc_) return failed<ClassifierStateValue>(not_fitted());
    ClassifierStateValue v;
    v.method = method_name(gpc_->method());
    v.likelihood = likelihood_name(gpc_->likelihood());
    v.signalVariance = gpc_->kernel().signal_variance;
    v.lengthScales = copy_out(gpc_->kernel().length_scales);
    v.logMarginalLikelihood = gpc_->log_marginal_likelihood();
    v.gradient = copy_out(gpc_->log_marginal_likelihood_gradient());
    v.iterations = double(gpc_->iterations());
    v.size = double(gpc_->common_form().size());
    v.dimension = double(gpc_->common_form().dimension());
    return v;
  }

 private:
  std::unique_ptr<GpClassifier> gpc_;
};

// MacKay's approximation sigmoid(mean / sqrt(1 + pi variance / 8)) of the logistic E[sigmoid(f)]
// (probability.h) at n latent means and variances; n values at `out`. For showing beside the exact
// probability, labelled as an approximation.
Status mackay_probabilities(std::uintptr_t mean, std::uintptr_t variance, std::size_t n, std::uintptr_t out) {
  const double *m = doubles(mean), *v = doubles(variance);
  double* p = doubles_out(out);
  for (std::size_t i = 0; i < n; ++i) p[i] = mackay_approximation(m[i], v[i]);
  return Status::success();
}

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_classification) {
  using namespace gpprobe::wasm;
  emscripten::value_object<ClassifierSettings>("ClassifierSettings")
      .field("method", &ClassifierSettings::method)
      .field("likelihood", &ClassifierSettings::likelihood)
      .field("signalVariance", &ClassifierSettings::signalVariance)
      .field("lengthScales", &ClassifierSettings::lengthScales);
  emscripten::value_object<ClassifierOptimizeSettings>("ClassifierOptimizeSettings")
      .field("restarts", &ClassifierOptimizeSettings::restarts)
      .field("seed", &ClassifierOptimizeSettings::seed)
      .field("maxIterations", &ClassifierOptimizeSettings::maxIterations)
      .field("sharedLengthScale", &ClassifierOptimizeSettings::sharedLengthScale)
      .field("signalVariancePrior", &ClassifierOptimizeSettings::signalVariancePrior)
      .field("lengthScalePrior", &ClassifierOptimizeSettings::lengthScalePrior);
  optimize_runs_result<ClassifierOptimizeReport>("ClassifierOptimizeReport");
  result_object<ClassifierPredictReport>("ClassifierPredictReport", [](auto& o) {
    o.field("clampedVariances", &ClassifierPredictReport::clampedVariances);
  });
  result_object<ClassifierStateValue>("ClassifierStateValue", [](auto& o) {
    o.field("method", &ClassifierStateValue::method)
        .field("likelihood", &ClassifierStateValue::likelihood)
        .field("signalVariance", &ClassifierStateValue::signalVariance)
        .field("lengthScales", &ClassifierStateValue::lengthScales)
        .field("logMarginalLikelihood", &ClassifierStateValue::logMarginalLikelihood)
        .field("gradient", &ClassifierStateValue::gradient)
        .field("iterations", &ClassifierStateValue::iterations)
        .field("size", &ClassifierStateValue::size)
        .field("dimension", &ClassifierStateValue::dimension);
  });

  emscripten::class_<ClassifierHandle> handle("ClassifierHandle");
  handle.constructor<>();
  bind_method<&ClassifierHandle::fit>(handle, "ClassifierHandle", "fit");
  bind_method<&ClassifierHandle::optimize>(handle, "ClassifierHandle", "optimize");
  bind_method<&ClassifierHandle::predict>(handle, "ClassifierHandle", "predict");
  bind_method<&ClassifierHandle::state>(handle, "ClassifierHandle", "state");
  bind_method<&ClassifierHandle::certify_robustness>(handle, "ClassifierHandle", "certifyRobustness");
  bind_method<&ClassifierHandle::robustness_sweep>(handle, "ClassifierHandle", "robustnessSweep");
  bind_method<&ClassifierHandle::explain>(handle, "ClassifierHandle", "explain");

  bind_function<&mackay_probabilities>("mackayProbabilities");
}
