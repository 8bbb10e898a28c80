// Embind registration of binary GP classification (gp_classifier.h, gpc_hyperparameter_fit.h): the
// ClassifierHandle that JavaScript fits or optimises and then queries, the bundled examples, the lab's
// vocabulary, the benchmark's synthetic data and MacKay's approximation (shown as one). Conventions of binding_support.h. The kernel crosses as
// numbers under the TS API's names (signalVariance, lengthScales: the CLI's --signal-variance and
// --length-scales), and every call returns its own report: nothing is left in the handle for a later
// call to read.
#include <emscripten/bind.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "binding_support.h"
#include "certificate_values.h"
#include "gpprobe/classification_examples.h"
#include "gpprobe/experiment.h"
#include "gpprobe/gp_classifier.h"
#include "gpprobe/gpc_hyperparameter_fit.h"
#include "gpprobe/gpc_probability.h"
#include "gpprobe/synthetic_classification.h"

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
};

struct ClassifierOptimizeReport : BindingStatus {
  val runValues = val::null();  // Float64Array: each run's best log marginal likelihood
  double iterations = 0, startLogMarginalLikelihood = 0;
  bool converged = false;
};

struct ClassifierPredictReport : BindingStatus {
  double clampedVariances = 0;  // rounding-negative latent variances set to 0 (gpc_common_form.h)
};

struct ClassifierStateValue : BindingStatus {
  std::string method, likelihood;
  double signalVariance = 0;
  val lengthScales = val::null();  // Float64Array, one per input column
  double logMarginalLikelihood = 0;
  val gradient = val::null();      // Float64Array: d/d[log signal variance, log length-scale 1..d]
  double iterations = 0, size = 0, dimension = 0;
};

Status not_fitted() { return Status(StatusCode::invalid_argument, "the classifier is not fitted"); }

struct Parsed {
  GpcOptions options;
  SeArdKernel kernel;
};

Result<Parsed> parse(const ClassifierSettings& s) {
  Parsed p;
  Result<GpcMethod> method = parse_method(s.method);
  if (!method.ok()) return method.status();
  Result<GpcLikelihood> likelihood = parse_likelihood(s.likelihood);
  if (!likelihood.ok()) return likelihood.status();
  p.options.method = method.value();
  p.options.likelihood = likelihood.value();
  GPPROBE_RETURN_IF_ERROR(check_options(p.options));
  p.kernel.signal_variance = s.signalVariance;
  p.kernel.length_scales = emscripten::convertJSArrayToNumberVector<double>(s.lengthScales);
  return p;
}

// One fitted classifier. JavaScript owns it and must call delete() (GpClassifier.dispose does).
class ClassifierHandle {
 public:
  // x: rows by cols float64, labels: rows float64 (0/1 or -1/+1).
  Status fit(std::uintptr_t x, std::size_t rows, std::size_t cols, std::uintptr_t labels, const ClassifierSettings& s) {
    Result<Parsed> p = parse(s);
    if (!p.ok()) return p.status();
    Result<GpcTrainingData> data = make_gpc_training_data(MatrixView(doubles(x), rows, cols), doubles(labels), rows);
    if (!data.ok()) return data.status();
    return refit(data.value(), p.value().kernel, p.value().options);
  }

  // Maximises the log marginal likelihood from the given hyperparameters, then fits at the optimum.
  ClassifierOptimizeReport optimize(std::uintptr_t x, std::size_t rows, std::size_t cols, std::uintptr_t labels,
                                    const ClassifierSettings& s, const ClassifierOptimizeSettings& o, val progress) {
    using Report = ClassifierOptimizeReport;
    Result<Parsed> p = parse(s);
    if (!p.ok()) return failed<Report>(p.status());
    if (!(o.restarts >= 0 && o.seed >= 0 && o.maxIterations >= 1)) {
      return failed<Report>(Status(StatusCode::invalid_argument, "restarts and seed must be >= 0 and maxIterations >= 1"));
    }
    Result<GpcTrainingData> data = make_gpc_training_data(MatrixView(doubles(x), rows, cols), doubles(labels), rows);
    if (!data.ok()) return failed<Report>(data.status());
    GpcHyperparameterOptions options;
    options.restarts = std::size_t(o.restarts);
    options.seed = std::uint64_t(o.seed);
    options.max_iterations = std::size_t(o.maxIterations);
    options.shared_length_scale = o.sharedLengthScale;
    Result<GpcHyperparameterFit> fit = fit_gpc_hyperparameters(data.value(), p.value().kernel, p.value().options,
                                                               options, progress_from(progress));
    if (!fit.ok()) return failed<Report>(fit.status());
    const Status refitted = refit(data.value(), fit.value().kernel, p.value().options);
    if (!refitted.ok()) return failed<Report>(refitted);
    Report r;
    r.runValues = copy_out(fit.value().run_values);
    r.iterations = double(fit.value().iterations);
    r.startLogMarginalLikelihood = fit.value().start_log_marginal_likelihood;
    r.converged = fit.value().converged;
    return r;
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

  // Certified robustness at `point` (certificate_values.h); `on_interval` sees each split's interval.
  RobustnessCertificateValue certify_robustness(val point, const RobustnessSettings& s, val progress, val on_interval) const {
    if (!gpc_) return failed<RobustnessCertificateValue>(not_fitted());
    return robustness_certificate(gpc_->common_form(), point, s, progress, on_interval);
  }

  RobustnessSweepValue robustness_sweep(val point, val gammas, const RobustnessSettings& s, val progress) const {
    if (!gpc_) return failed<RobustnessSweepValue>(not_fitted());
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
  Status refit(const GpcTrainingData& data, const SeArdKernel& kernel, const GpcOptions& options) {
    Result<GpClassifier> gpc = GpClassifier::fit(data, kernel, options);
    if (!gpc.ok()) return gpc.status();
    gpc_ = std::make_unique<GpClassifier>(std::move(gpc).value());
    return Status::success();
  }

  std::unique_ptr<GpClassifier> gpc_;
};

struct ClassificationExampleValue : BindingStatus {
  std::string name, title;
  val inputNames = val::null();  // string[]
  val x = val::null();           // Float64Array, n by d row-major
  val labels = val::null();      // Float64Array, 0/1
  double rows = 0, cols = 0;
};

ClassificationExampleValue classification_example_value(const std::string& name, double seed) {
  Result<ClassificationExample> e = classification_example(name, std::uint64_t(seed));
  if (!e.ok()) return failed<ClassificationExampleValue>(e.status());
  const ClassificationExample& v = e.value();
  ClassificationExampleValue r;
  r.name = v.name;
  r.title = v.title;
  r.inputNames = array_of(v.input_names);
  r.x = copy_out(v.x.data(), std::size_t(v.x.size()));
  r.labels = copy_out(v.labels);
  r.rows = double(v.x.rows());
  r.cols = double(v.x.cols());
  return r;
}

// Seeded synthetic classification data (synthetic_classification.h, the benchmark's workload): x as
// float64 rows * dimension at `x`, labels 0/1 as float64 at `labels`.
Status synthetic_classification_data(double rows, double dimension, double seed, std::uintptr_t x, std::uintptr_t labels) {
  if (!(rows >= 1 && dimension >= 1)) {
    return Status(StatusCode::invalid_argument, "synthetic classification data need rows >= 1 and dimension >= 1");
  }
  const SyntheticClassification data =
      synthetic_classification(std::size_t(rows), std::size_t(dimension), std::uint64_t(seed));
  std::copy(data.x.data(), data.x.data() + data.x.size(), doubles_out(x));
  std::copy(data.labels.begin(), data.labels.end(), doubles_out(labels));
  return Status::success();
}

// MacKay's approximation sigmoid(mean / sqrt(1 + pi variance / 8)) of the logistic E[sigmoid(f)]
// (gpc_probability.h) at n latent means and variances; n values at `out`. For showing beside the exact
// probability, labelled as an approximation.
Status mackay_probabilities(std::uintptr_t mean, std::uintptr_t variance, std::size_t n, std::uintptr_t out) {
  const double *m = doubles(mean), *v = doubles(variance);
  double* p = doubles_out(out);
  for (std::size_t i = 0; i < n; ++i) p[i] = mackay_approximation(m[i], v[i]);
  return Status::success();
}

struct ClassificationDefaults {
  std::string method, likelihood;
  double signalVariance = 0, lengthScale = 0, restarts = 0, seed = 0, maxIterations = 0;
  // The probing experiment's GP classification probes (experiment.h GpcProbeOptions).
  double probeLaplaceIterations = 0, probeEpIterations = 0;
};

struct ClassificationVocabulary : BindingStatus {
  val methods = val::null(), likelihoods = val::null();  // string[]
  val examples = val::null();                            // ExampleEntryValue[] (bindings_vocabulary.cpp)
  ClassificationDefaults defaults;
};

ClassificationVocabulary classification_vocabulary() {
  ClassificationVocabulary v;
  v.methods = array_of(std::vector<std::string>{method_name(GpcMethod::laplace), method_name(GpcMethod::ep)});
  v.likelihoods = array_of(std::vector<std::string>{likelihood_name(GpcLikelihood::probit),
                                                    likelihood_name(GpcLikelihood::logistic)});
  val examples = val::array();
  for (const ExampleEntry& e : classification_examples()) {
    val entry = val::object();
    entry.set("name", e.name);
    entry.set("title", e.title);
    examples.call<void>("push", entry);
  }
  v.examples = examples;
  const GpcOptions model;
  const SeArdKernel kernel;  // s2 = 1; every length-scale 1 (the CLI's defaults)
  const GpcHyperparameterOptions fit;
  const GpcProbeOptions probe;
  v.defaults = {method_name(model.method), likelihood_name(model.likelihood), kernel.signal_variance, 1.0,
                double(fit.restarts), double(fit.seed), double(fit.max_iterations),
                double(probe.laplace_iterations), double(probe.ep_iterations)};
  return v;
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
      .field("sharedLengthScale", &ClassifierOptimizeSettings::sharedLengthScale);
  result_object<ClassifierOptimizeReport>("ClassifierOptimizeReport", [](auto& o) {
    o.field("runValues", &ClassifierOptimizeReport::runValues)
        .field("iterations", &ClassifierOptimizeReport::iterations)
        .field("startLogMarginalLikelihood", &ClassifierOptimizeReport::startLogMarginalLikelihood)
        .field("converged", &ClassifierOptimizeReport::converged);
  });
  result_object<ClassifierPredictReport>("ClassifierPredictReport",
                                         [](auto& o) { o.field("clampedVariances", &ClassifierPredictReport::clampedVariances); });
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
  result_object<ClassificationExampleValue>("ClassificationExampleValue", [](auto& o) {
    o.field("name", &ClassificationExampleValue::name)
        .field("title", &ClassificationExampleValue::title)
        .field("inputNames", &ClassificationExampleValue::inputNames)
        .field("x", &ClassificationExampleValue::x)
        .field("labels", &ClassificationExampleValue::labels)
        .field("rows", &ClassificationExampleValue::rows)
        .field("cols", &ClassificationExampleValue::cols);
  });
  emscripten::value_object<ClassificationDefaults>("ClassificationDefaults")
      .field("method", &ClassificationDefaults::method)
      .field("likelihood", &ClassificationDefaults::likelihood)
      .field("signalVariance", &ClassificationDefaults::signalVariance)
      .field("lengthScale", &ClassificationDefaults::lengthScale)
      .field("restarts", &ClassificationDefaults::restarts)
      .field("seed", &ClassificationDefaults::seed)
      .field("maxIterations", &ClassificationDefaults::maxIterations)
      .field("probeLaplaceIterations", &ClassificationDefaults::probeLaplaceIterations)
      .field("probeEpIterations", &ClassificationDefaults::probeEpIterations);
  result_object<ClassificationVocabulary>("ClassificationVocabulary", [](auto& o) {
    o.field("methods", &ClassificationVocabulary::methods)
        .field("likelihoods", &ClassificationVocabulary::likelihoods)
        .field("examples", &ClassificationVocabulary::examples)
        .field("defaults", &ClassificationVocabulary::defaults);
  });

  emscripten::class_<ClassifierHandle> handle("ClassifierHandle");
  handle.constructor<>();
  bind_method<&ClassifierHandle::fit>(handle, "ClassifierHandle", "fit");
  bind_method<&ClassifierHandle::optimize>(handle, "ClassifierHandle", "optimize");
  bind_method<&ClassifierHandle::predict>(handle, "ClassifierHandle", "predict");
  bind_method<&ClassifierHandle::state>(handle, "ClassifierHandle", "state");
  bind_method<&ClassifierHandle::certify_robustness>(handle, "ClassifierHandle", "certifyRobustness");
  bind_method<&ClassifierHandle::robustness_sweep>(handle, "ClassifierHandle", "robustnessSweep");

  bind_function<&classification_example_value>("classificationExample");
  bind_function<&synthetic_classification_data>("syntheticClassification");
  bind_function<&classification_vocabulary>("classificationVocabulary");
  bind_function<&mackay_probabilities>("mackayProbabilities");
}
