// Embind registration of multi-class GP classification (multiclass_laplace.h, multiclass_hyperparameter_fit.h,
// multiclass_robustness.h): the MulticlassClassifierHandle that JavaScript fits or optimises, then queries
// for latent moments and class probabilities and certifies at a point. Conventions of binding_support.h.
// The kernels cross under the TS API's names: signalVariances (1 value for every class, or C) and
// lengthScales (1 list for every class, or C lists; each 1 value or one per column), the CLI's
// --signal-variance and --length-scales / --length-scales-per-class. Labels are class indices 0..C-1 with
// C = the largest + 1 unless `classes` says more (a class without an example is allowed).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <emscripten/bind.h>

#include "gpprobe/certify/multiclass_robustness.h"
#include "gpprobe/classification/classifier_fit.h"
#include "gpprobe/classification/multiclass_hyperparameter_fit.h"
#include "gpprobe/classification/multiclass_laplace.h"
#include "gpprobe/explain/multiclass_output.h"

#include "binding_support.h"
#include "certify_values.h"
#include "described_values.h"
#include "explain_values.h"

namespace gpprobe::wasm {
namespace {

struct MulticlassSettings {
  val signalVariances = val::array();  // Float64Array or number[]: 1 or C values
  val lengthScales = val::array();     // array of Float64Array / number[]: 1 list or C lists
  double classes = 0;                  // 0: the largest label + 1
};

struct MulticlassOptimizeSettings {
  double restarts = 0, seed = 0, maxIterations = 0;
  bool shared = false;  // one kernel for every class (tied hyperparameters)
  // MAP priors on each class's log s2 and log l (hyperparameter_prior.h), as ClassifierOptimizeSettings'.
  std::string signalVariancePrior = "none", lengthScalePrior = "none";
};

struct MulticlassOptimizeReport : OptimizeRunsReport {};

struct MulticlassPredictReport : BindingStatus {
  double errorEstimate = 0;  // the largest estimated error of any probability
  double unconverged = 0;    // points whose rule stopped at its node budget
  val rules = val::array();  // string[]: the quadratures used
};

struct MulticlassStateValue : BindingStatus {
  double classes = 0;
  bool sharedKernel = false;
  val signalVariances = val::null();  // Float64Array, C
  val lengthScales = val::null();     // Float64Array, C by d row-major
  double logMarginalLikelihood = 0;
  val gradient = val::null();     // Float64Array, C by (1 + d): d/d[log S_c, log L_c1..L_cd]
  val classCounts = val::null();  // Float64Array, C: training points per class
  double iterations = 0, size = 0, dimension = 0;
};

struct MulticlassRobustnessSettings {
  double gamma = 0, tolerance = 0, maxIterations = 0, timeLimitSeconds = 0;
  double classIndex = -1;        // -1: the predicted class
  val dims = val::array();       // Float64Array or number[] of whole numbers; empty: all
  val validRange = val::null();  // null or [lo, hi]
};

Status not_fitted() { return Status(StatusCode::invalid_argument, "the classifier is not fitted"); }

std::vector<double> numbers_of(const val& list) { return emscripten::convertJSArrayToNumberVector<double>(list); }

// The settings as the core's fit sequence takes them (classifier_fit.h): C from `classes` (0: the largest
// label + 1) and the kernel lists, which the core checks against C and d.
Result<MulticlassFitSettings> fit_settings(const MulticlassSettings& s) {
  MulticlassFitSettings f;
  GPPROBE_RETURN_IF_ERROR(count_argument("classes", s.classes, &f.classes));
  f.signal_variances = numbers_of(s.signalVariances);
  const std::size_t count = s.lengthScales["length"].as<std::size_t>();
  for (std::size_t i = 0; i < count; ++i) f.length_scales.push_back(numbers_of(s.lengthScales[i]));
  return f;
}

Result<MulticlassRobustnessOptions> options_of(const MulticlassRobustnessSettings& s) {
  MulticlassRobustnessOptions o;
  o.gamma = s.gamma;
  o.tolerance = s.tolerance;
  if (!(s.timeLimitSeconds >= 0.0)) return Status(StatusCode::invalid_argument, "timeLimitSeconds must be >= 0");
  o.time_limit_seconds = s.timeLimitSeconds;
  GPPROBE_RETURN_IF_ERROR(count_argument("maxIterations", s.maxIterations, &o.max_iterations));
  for (double v : numbers_of(s.dims)) {
    std::size_t i = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("each of dims", v, &i));
    o.dims.push_back(i);
  }
  if (!s.validRange.isNull() && !s.validRange.isUndefined()) {
    const std::vector<double> range = numbers_of(s.validRange);
    if (range.size() != 2) {
      return Status(StatusCode::invalid_argument,
                    "validRange must be [lo, hi], got " + std::to_string(range.size()) + " values");
    }
    o.valid_range = Interval{range[0], range[1]};
  }
  return o;
}

bool finite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

// One fitted multi-class classifier. JavaScript owns it and must call delete() (dispose does).
class MulticlassClassifierHandle {
 public:
  // x: rows by cols float64, labels: rows float64 class indices.
  Status fit(std::uintptr_t x, std::size_t rows, std::size_t cols, std::uintptr_t labels, const MulticlassSettings& s) {
    Result<MulticlassFitSettings> settings = fit_settings(s);
    if (!settings.ok()) return settings.status();
    return keep(fit_multiclass_classifier(MatrixView(doubles(x), rows, cols), doubles(labels), rows, settings.value()));
  }

  // Maximises the log marginal likelihood (plus the log prior: MAP) from the given hyperparameters, then
  // fits at the optimum.
  MulticlassOptimizeReport optimize(std::uintptr_t x, std::size_t rows, std::size_t cols, std::uintptr_t labels,
                                    const MulticlassSettings& s, const MulticlassOptimizeSettings& o, val progress) {
    using Report = MulticlassOptimizeReport;
    Result<MulticlassFitSettings> settings = fit_settings(s);
    if (!settings.ok()) return failed<Report>(settings.status());
    MulticlassFitSettings& f = settings.value();
    f.optimize = true;
    if (const Status checked = optimizer_counts(o, &f.hyperparameters); !checked.ok()) return failed<Report>(checked);
    f.hyperparameters.shared = o.shared;
    Result<HyperparameterPrior> prior = parse_hyperparameter_prior(o.signalVariancePrior, "signalVariancePrior",
                                                                   o.lengthScalePrior, "lengthScalePrior", true, "");
    if (!prior.ok()) return failed<Report>(prior.status());
    f.hyperparameters.prior = prior.value();
    Result<MulticlassFit> fitted = fit_multiclass_classifier(MatrixView(doubles(x), rows, cols), doubles(labels), rows,
                                                             f, progress_from(progress));
    if (!fitted.ok()) return failed<Report>(fitted.status());
    const Report report = optimize_runs_report<Report>(*fitted.value().optimum);
    const Status kept = keep(std::move(fitted));
    if (!kept.ok()) return failed<Report>(kept);
    return report;
  }

  // Writes at `out`: the latent means (rows by C), the latent covariances (rows by C by C) and the class
  // probabilities (rows by C), one block after the other, row-major.
  MulticlassPredictReport predict(std::uintptr_t test, std::size_t rows, std::size_t cols, std::uintptr_t out,
                                  val progress) const {
    using Report = MulticlassPredictReport;
    if (!model_) return failed<Report>(not_fitted());
    Result<MulticlassPrediction> p =
        model_->predict(MatrixView(doubles(test), rows, cols), {}, progress_from(progress));
    if (!p.ok()) return failed<Report>(p.status());
    const std::size_t C = model_->classes(), m = p.value().latent.size();
    double* mean = doubles_out(out);
    double* covariance = mean + m * C;
    double* probability = covariance + m * C * C;
    std::copy(p.value().latent.mean.data(), p.value().latent.mean.data() + m * C, mean);
    std::copy(p.value().latent.covariance.begin(), p.value().latent.covariance.end(), covariance);
    std::copy(p.value().probability.data(), p.value().probability.data() + m * C, probability);
    Report r;
    std::set<std::string> rules;
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t c = 0; c < C; ++c) {
        if (!std::isfinite(probability[i * C + c])) {
          return failed<Report>(Status(StatusCode::numerical_failure, "test inputs row " + std::to_string(i) +
                                                                          ": the probability of class " +
                                                                          std::to_string(c) + " is not finite"));
        }
      }
      const SoftmaxExpectation& q = p.value().quadrature[i];
      r.errorEstimate = std::max(r.errorEstimate, q.error_estimate);
      r.unconverged += q.converged ? 0.0 : 1.0;
      rules.insert(softmax_rule_name(q.rule));
    }
    r.rules = array_of(std::vector<std::string>(rules.begin(), rules.end()));
    return r;
  }

  // Class `classIndex`'s extremes over the box (the predicted class for -1) and the predicted class's safety
  // margin, as `gpprobe robustness --likelihood softmax`; progress (splits done, limit) for each search in turn.
  // Delta_gamma and LIME of class `class_index`'s probability at the rows of `points` (explain_values.h).
  ExplainValue explain(val points, double class_index, const ExplainSettings& s, val progress) const {
    if (!model_) return failed<ExplainValue>(not_fitted());
    std::size_t c = 0;
    if (const Status k = count_argument("classIndex", class_index, &c); !k.ok()) return failed<ExplainValue>(k);
    Result<MulticlassOutput> output = MulticlassOutput::make(*model_, c);
    if (!output.ok()) return failed<ExplainValue>(output.status());
    return explain_output(output.value(), points, s, progress);
  }

  Reply<MulticlassRobustnessCertificate> certify_robustness(val point, const MulticlassRobustnessSettings& s,
                                                            val progress) const {
    using Value = Reply<MulticlassRobustnessCertificate>;
    if (!model_) return failed<Value>(not_fitted());
    Result<MulticlassRobustnessOptions> options = options_of(s);
    if (!options.ok()) return failed<Value>(options.status());
    const MulticlassRobustnessOptions& o = options.value();
    const std::size_t C = model_->classes();
    std::size_t class_index = 0;
    const bool predicted = s.classIndex == -1;
    if (!predicted) {
      const Status checked = count_argument("classIndex", s.classIndex, &class_index);
      if (!checked.ok()) return failed<Value>(checked);
      if (class_index >= C) {
        return failed<Value>(Status(
            StatusCode::invalid_argument,
            "classIndex is " + std::to_string(class_index) + "; the model has " + count_of(C, "class", "classes")));
      }
    }
    const std::vector<double> x = numbers_of(point);
    const ProgressCallback report = progress_from(progress);
    // One clock for the three searches: timeLimitSeconds is the wall time of the call.
    Result<MulticlassRobustnessCertificate> certificate = certify_multiclass_robustness(
        *model_, x, predicted ? std::nullopt : std::optional<std::size_t>(class_index), o, report);
    if (!certificate.ok()) return failed<Value>(certificate.status());
    const SafetyCertificate& sc = certificate.value().safety;
    const ClassCertificate& k = certificate.value().extremes;
    class_index = k.class_index;
    if (!finite(k.probability_at_point) ||
        !finite({k.minimum.lower, k.minimum.upper, k.maximum.lower, k.maximum.upper, sc.lower, sc.upper})) {
      return failed<Value>(
          Status(StatusCode::numerical_failure,
                 "the certificate of class " + std::to_string(class_index) + " or the safety margin is not finite"));
    }
    return reply(std::move(certificate).value());
  }

  MulticlassStateValue state() const {
    if (!model_) return failed<MulticlassStateValue>(not_fitted());
    const MulticlassLaplace& m = *model_;
    const std::size_t C = m.classes();
    MulticlassStateValue v;
    v.classes = double(C);
    v.sharedKernel = m.shared_kernel();
    std::vector<double> signal, lengths, gradient;
    for (std::size_t c = 0; c < C; ++c) {
      signal.push_back(m.kernels()[c].signal_variance);
      lengths.insert(lengths.end(), m.kernels()[c].length_scales.begin(), m.kernels()[c].length_scales.end());
      gradient.insert(gradient.end(), m.gradient()[c].begin(), m.gradient()[c].end());
    }
    v.signalVariances = copy_out(signal);
    v.lengthScales = copy_out(lengths);
    v.logMarginalLikelihood = m.log_marginal_likelihood();
    v.gradient = copy_out(gradient);
    v.classCounts = copy_out(counts_);
    v.iterations = double(m.iterations());
    v.size = double(m.size());
    v.dimension = double(m.dimension());
    return v;
  }

 private:
  Status keep(Result<MulticlassFit> fitted) {
    if (!fitted.ok()) return fitted.status();
    model_ = std::make_unique<MulticlassLaplace>(std::move(fitted.value().model));
    counts_.assign(fitted.value().class_counts.begin(), fitted.value().class_counts.end());
    return Status::success();
  }

  std::unique_ptr<MulticlassLaplace> model_;
  std::vector<double> counts_;
};

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_classification_multiclass) {
  using namespace gpprobe::wasm;
  emscripten::value_object<MulticlassSettings>("MulticlassSettings")
      .field("signalVariances", &MulticlassSettings::signalVariances)
      .field("lengthScales", &MulticlassSettings::lengthScales)
      .field("classes", &MulticlassSettings::classes);
  emscripten::value_object<MulticlassOptimizeSettings>("MulticlassOptimizeSettings")
      .field("restarts", &MulticlassOptimizeSettings::restarts)
      .field("seed", &MulticlassOptimizeSettings::seed)
      .field("maxIterations", &MulticlassOptimizeSettings::maxIterations)
      .field("shared", &MulticlassOptimizeSettings::shared)
      .field("signalVariancePrior", &MulticlassOptimizeSettings::signalVariancePrior)
      .field("lengthScalePrior", &MulticlassOptimizeSettings::lengthScalePrior);
  emscripten::value_object<MulticlassRobustnessSettings>("MulticlassRobustnessSettings")
      .field("gamma", &MulticlassRobustnessSettings::gamma)
      .field("classIndex", &MulticlassRobustnessSettings::classIndex)
      .field("dims", &MulticlassRobustnessSettings::dims)
      .field("validRange", &MulticlassRobustnessSettings::validRange)
      .field("tolerance", &MulticlassRobustnessSettings::tolerance)
      .field("maxIterations", &MulticlassRobustnessSettings::maxIterations)
      .field("timeLimitSeconds", &MulticlassRobustnessSettings::timeLimitSeconds);
  optimize_runs_result<MulticlassOptimizeReport>("MulticlassOptimizeReport");
  result_object<MulticlassPredictReport>("MulticlassPredictReport", [](auto& o) {
    o.field("errorEstimate", &MulticlassPredictReport::errorEstimate)
        .field("unconverged", &MulticlassPredictReport::unconverged)
        .field("rules", &MulticlassPredictReport::rules);
  });
  result_object<MulticlassStateValue>("MulticlassStateValue", [](auto& o) {
    o.field("classes", &MulticlassStateValue::classes)
        .field("sharedKernel", &MulticlassStateValue::sharedKernel)
        .field("signalVariances", &MulticlassStateValue::signalVariances)
        .field("lengthScales", &MulticlassStateValue::lengthScales)
        .field("logMarginalLikelihood", &MulticlassStateValue::logMarginalLikelihood)
        .field("gradient", &MulticlassStateValue::gradient)
        .field("classCounts", &MulticlassStateValue::classCounts)
        .field("iterations", &MulticlassStateValue::iterations)
        .field("size", &MulticlassStateValue::size)
        .field("dimension", &MulticlassStateValue::dimension);
  });
  reply_object<gpprobe::MulticlassRobustnessCertificate>();

  emscripten::class_<MulticlassClassifierHandle> handle("MulticlassClassifierHandle");
  handle.constructor<>();
  bind_method<&MulticlassClassifierHandle::fit>(handle, "MulticlassClassifierHandle", "fit");
  bind_method<&MulticlassClassifierHandle::optimize>(handle, "MulticlassClassifierHandle", "optimize");
  bind_method<&MulticlassClassifierHandle::predict>(handle, "MulticlassClassifierHandle", "predict");
  bind_method<&MulticlassClassifierHandle::state>(handle, "MulticlassClassifierHandle", "state");
  bind_method<&MulticlassClassifierHandle::explain>(handle, "MulticlassClassifierHandle", "explain");
  bind_method<&MulticlassClassifierHandle::certify_robustness>(handle, "MulticlassClassifierHandle",
                                                               "certifyRobustness");
}
