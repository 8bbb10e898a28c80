// Embind registration of the evaluation core (metrics, the GPP paper's experiments; the OOD baselines are
// bindings_baselines.cpp).
// Conventions of binding_support.h. An experiment runs a few trials per call (one per thread: the TS
// engine yields and checks for cancel between calls); the handle adds the trials up in the core
// (append_trials), so the means and standard deviations never pass through TypeScript.
#include <cstdint>
#include <memory>
#include <string>

#include <emscripten/bind.h>

#include "gpprobe/evaluation/experiment.h"
#include "gpprobe/evaluation/metrics.h"

#include "binding_support.h"
#include "described_values.h"

namespace gpprobe::wasm {
namespace {

struct Metric : BindingStatus {
  double value = 0;
};

Metric metric(const Result<double>& r) {
  if (!r.ok()) return failed<Metric>(r.status());
  Metric m;
  m.value = r.value();
  return m;
}

Metric auroc(std::uintptr_t labels, std::uintptr_t scores, std::size_t n) {
  return metric(gpprobe::auroc(bytes(labels), doubles(scores), n));
}

Metric auprc(std::uintptr_t labels, std::uintptr_t scores, std::size_t n) {
  return metric(gpprobe::auprc(bytes(labels), doubles(scores), n));
}

Metric accuracy(std::uintptr_t labels, std::uintptr_t probability, std::size_t n, double threshold) {
  return metric(gpprobe::accuracy(bytes(labels), doubles(probability), n, threshold));
}

Metric pearson(std::uintptr_t x, std::uintptr_t y, std::size_t n) {
  return metric(gpprobe::pearson(doubles(x), doubles(y), n));
}

Reply<gpprobe::RocCurve> roc_curve(std::uintptr_t labels, std::uintptr_t scores, std::size_t n) {
  Result<gpprobe::RocCurve> r = gpprobe::roc_curve(bytes(labels), doubles(scores), n);
  if (!r.ok()) return failed<Reply<gpprobe::RocCurve>>(r.status());
  return reply(std::move(r).value());
}

// The experiment options of experiment.h under the TS API's names (every field given; the TS engine
// fills what the caller left out from the core's defaults).
struct ExperimentSettings {
  double seed, maxObservations, maxQueries, members, k, epsilon, strength;
  bool gpc;                   // probing: the GP classification probes too (experiment.h ClassifierProbeOptions) ...
  double gpcMaxObservations;  // ... up to this O
};

// One experiment's trials, added up as they run. JavaScript owns it and must delete() it.
class ExperimentHandle {
 public:
  // Runs trials [trial, trial + count) and adds them to the ones run before. A query_mask of 0 means none.
  Status run_trial(const std::string& experiment, std::uintptr_t embeddings, std::size_t rows, std::size_t cols,
                   int dtype, std::uintptr_t labels, std::size_t label_count, std::uintptr_t ood, std::size_t ood_rows,
                   std::size_t ood_cols, int ood_dtype, std::uintptr_t query_mask, std::size_t query_mask_count,
                   double trial, double count, const ExperimentSettings& s, val progress) {
    Result<gpprobe::ExperimentKind> kind = gpprobe::parse_experiment(experiment);
    if (!kind.ok()) return kind.status();
    gpprobe::ExperimentData data;
    GPPROBE_RETURN_IF_ERROR(view_of(embeddings, rows, cols, dtype, "embeddings", &data.embeddings));
    GPPROBE_RETURN_IF_ERROR(view_of(ood, ood_rows, ood_cols, ood_dtype, "ood embeddings", &data.ood));
    data.labels = bytes(labels);
    data.label_count = label_count;
    data.query_mask = query_mask ? bytes(query_mask) : nullptr;
    data.query_mask_count = query_mask_count;
    gpprobe::ExperimentOptions o;
    GPPROBE_RETURN_IF_ERROR(count_argument("trial", trial, &o.first_trial));
    GPPROBE_RETURN_IF_ERROR(count_argument("trial count", count, &o.trials));
    if (o.trials == 0) return Status(StatusCode::invalid_argument, "trial count must be at least 1, got 0");
    GPPROBE_RETURN_IF_ERROR(seed_argument("seed", s.seed, &o.seed));
    GPPROBE_RETURN_IF_ERROR(count_argument("maxObservations", s.maxObservations, &o.max_observations));
    GPPROBE_RETURN_IF_ERROR(count_argument("maxQueries", s.maxQueries, &o.max_queries));
    GPPROBE_RETURN_IF_ERROR(count_argument("members", s.members, &o.members));
    GPPROBE_RETURN_IF_ERROR(count_argument("k", s.k, &o.k));
    o.probe.epsilon = s.epsilon;
    o.probe.strength = s.strength;
    o.gpc.enabled = s.gpc;
    GPPROBE_RETURN_IF_ERROR(count_argument("gpcMaxObservations", s.gpcMaxObservations, &o.gpc.max_observations));
    Result<gpprobe::ExperimentResult> r = gpprobe::run_experiment(kind.value(), data, o, progress_from(progress));
    if (!r.ok()) return r.status();
    return gpprobe::append_trials(&result_, std::move(r).value());
  }

  Reply<gpprobe::ExperimentResult> result() const { return reply(result_); }

 private:
  gpprobe::ExperimentResult result_;
};

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_evaluation) {
  using namespace gpprobe::wasm;
  result_object<Metric>("Metric", [](auto& o) { o.field("value", &Metric::value); });
  reply_object<gpprobe::RocCurve>();
  emscripten::value_object<ExperimentSettings>("ExperimentSettings")
      .field("seed", &ExperimentSettings::seed)
      .field("maxObservations", &ExperimentSettings::maxObservations)
      .field("maxQueries", &ExperimentSettings::maxQueries)
      .field("members", &ExperimentSettings::members)
      .field("k", &ExperimentSettings::k)
      .field("epsilon", &ExperimentSettings::epsilon)
      .field("strength", &ExperimentSettings::strength)
      .field("gpc", &ExperimentSettings::gpc)
      .field("gpcMaxObservations", &ExperimentSettings::gpcMaxObservations);
  reply_object<gpprobe::ExperimentResult>();

  bind_function<&auroc>("auroc");
  bind_function<&auprc>("auprc");
  bind_function<&accuracy>("accuracy");
  bind_function<&pearson>("pearson");
  bind_function<&roc_curve>("rocCurve");

  emscripten::class_<ExperimentHandle> handle("ExperimentHandle");
  handle.constructor<>();
  bind_method<&ExperimentHandle::run_trial>(handle, "ExperimentHandle", "runTrial");
  bind_method<&ExperimentHandle::result>(handle, "ExperimentHandle", "result");
}
