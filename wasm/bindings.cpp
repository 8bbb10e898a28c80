// Embind registration of the probe for JavaScript: the ProbeHandle the TS engine fits, scores and
// updates, the scores kept up to date with it (ScoredQueriesHandle), the observation draw, and the synthetic benchmark data. No mathematics here: each binding
// views the heap buffers the TypeScript engine filled (row-major, whole arrays; matrices as pointer,
// rows, cols, dtype 32/64), calls the core and returns the one result shape of binding_support.h.
// Also registered here, once: BindingStatus, and the two test hooks of the guard (registeredBindings,
// armFault).
#include <emscripten/bind.h>

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "binding_support.h"
#include "certificate_values.h"
#include "gpprobe/knowledge_gain.h"
#include "gpprobe/leave_one_out.h"
#include "gpprobe/observation_draw.h"
#include "gpprobe/probe.h"
#include "gpprobe/scored_queries.h"
#include "gpprobe/synthetic_embeddings.h"

namespace gpprobe::wasm {
namespace {

// What a probe says about itself.
struct ProbeState : BindingStatus {
  double observationCount = 0;
  double dimension = 0;
  std::string space;
  val labels = val::null();  // Uint8Array, the probe's current order
};

// The probe's leave-one-out check (leave_one_out.h): one value per observation in the probe's order.
struct LeaveOneOutValue : BindingStatus {
  val judgedProbability = val::null(), latentMean = val::null(), latentVariance = val::null();  // Float64Array
  double positives = 0, negatives = 0;
  double auroc = 0, aurocStandardError = 0, logLoss = 0, logLossStandardError = 0;  // NaN where undefined
  std::string verdict;                                                                // "separates", ...
};

Status not_fitted() { return Status(StatusCode::invalid_argument, "the probe is not fitted"); }

// A label as the JS number itself (an int parameter would turn 0.5 and NaN into 0).
Status check_label(double label) {
  if (label == 0.0 || label == 1.0) return Status::success();
  std::ostringstream os;
  os << "label must be 0 or 1, got " << label;
  return Status(StatusCode::invalid_argument, os.str());
}

// One fitted probe. JavaScript owns it and must call delete() (the TS Probe.dispose does).
class ProbeHandle {
 public:
  Status fit(std::uintptr_t observations, std::size_t rows, std::size_t cols, int dtype, std::uintptr_t labels,
             std::size_t label_count, double epsilon, double strength, const std::string& space,
             double expected_queries) {
    MatrixView view;
    GPPROBE_RETURN_IF_ERROR(view_of(observations, rows, cols, dtype, "observations", &view));
    gpprobe::ProbeOptions options;
    options.epsilon = epsilon;
    options.strength = strength;
    GPPROBE_RETURN_IF_ERROR(count_argument("expectedQueries", expected_queries, &options.expected_queries));
    Result<gpprobe::PosteriorSpace> s = gpprobe::parse_space(space);
    if (!s.ok()) return s.status();
    options.space = s.value();
    Result<gpprobe::Probe> fitted = gpprobe::Probe::fit(view, bytes(labels), label_count, options);
    if (!fitted.ok()) return fitted.status();
    probe_ = std::make_unique<gpprobe::Probe>(std::move(fitted).value());
    return Status::success();
  }

  // Writes 7 columns of `rows` doubles each, one after the other, at `out`: judged_probability,
  // episteme, alea, latent_mean, latent_variance, knowledge, ood_score.
  Status score(std::uintptr_t queries, std::size_t rows, std::size_t cols, int dtype, std::uintptr_t out,
               val progress) const {
    if (!probe_) return not_fitted();
    MatrixView view;
    GPPROBE_RETURN_IF_ERROR(view_of(queries, rows, cols, dtype, "queries", &view));
    double* base = doubles_out(out);
    const gpprobe::ProbeScoreColumns columns{base, base + rows, base + 2 * rows, base + 3 * rows,
                                             base + 4 * rows, base + 5 * rows, base + 6 * rows};
    return probe_->score(view, columns, progress_from(progress));
  }

  Status add_observation(std::uintptr_t row, std::size_t cols, int dtype, double label) {
    if (!probe_) return not_fitted();
    GPPROBE_RETURN_IF_ERROR(check_label(label));
    MatrixView view;
    GPPROBE_RETURN_IF_ERROR(view_of(row, 1, cols, dtype, "the observation", &view));
    return probe_->add_observation(view, std::uint8_t(label));
  }

  gpprobe::Probe* probe() { return probe_.get(); }

  Status remove_observation(double index) {
    if (!probe_) return not_fitted();
    std::size_t i = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("observation index", index, &i));
    return probe_->remove_observation(i);
  }

  // Certified bounds over the set around one query of `cols` values (certificate_values.h).
  ProbeCertificateValue certify(std::uintptr_t query, std::size_t cols, int dtype, const ProbeCertifySettings& s,
                                val progress) const {
    if (!probe_) return failed<ProbeCertificateValue>(not_fitted());
    return probe_certificate(*probe_, query, cols, dtype, s, progress);
  }

  LeaveOneOutValue leave_one_out() const {
    if (!probe_) return failed<LeaveOneOutValue>(not_fitted());
    Result<gpprobe::LeaveOneOut> r = gpprobe::leave_one_out(*probe_);
    if (!r.ok()) return failed<LeaveOneOutValue>(r.status());
    const gpprobe::LeaveOneOut& loo = r.value();
    LeaveOneOutValue v;
    v.judgedProbability = copy_out(loo.judged_probability);
    v.latentMean = copy_out(loo.latent_mean);
    v.latentVariance = copy_out(loo.latent_variance);
    v.positives = double(loo.positives);
    v.negatives = double(loo.negatives);
    v.auroc = loo.auroc;
    v.aurocStandardError = loo.auroc_standard_error;
    v.logLoss = loo.log_loss;
    v.logLossStandardError = loo.log_loss_standard_error;
    v.verdict = gpprobe::verdict_name(loo.verdict);
    return v;
  }

  // Writes one double per query at `out`: the expected knowledge gain of labelling it (knowledge_gain.h).
  Status knowledge_gain(std::uintptr_t queries, std::size_t rows, std::size_t cols, int dtype, std::uintptr_t out,
                        val progress) const {
    if (!probe_) return not_fitted();
    MatrixView view;
    GPPROBE_RETURN_IF_ERROR(view_of(queries, rows, cols, dtype, "queries", &view));
    return gpprobe::knowledge_gain(*probe_, view, doubles_out(out), progress_from(progress));
  }

  ProbeState state() const {
    if (!probe_) return failed<ProbeState>(not_fitted());
    ProbeState s;
    s.observationCount = double(probe_->observation_count());
    s.dimension = double(probe_->dimension());
    s.space = gpprobe::space_name(probe_->space());
    s.labels = copy_out(probe_->labels());
    return s;
  }

 private:
  std::unique_ptr<gpprobe::Probe> probe_;
};

struct KeptScoresState : BindingStatus {
  double rows = 0;
  double fullRescores = 0;
  bool current = false;  // every row scored by the probe as it is now
};

// Scores of one set of queries kept up to date with a probe (scored_queries.h). The queries stay in
// the wasm heap (a ResidentMatrix) for as long as this handle lives; every change goes through it.
class ScoredQueriesHandle {
 public:
  Status track(std::uintptr_t queries, std::size_t rows, std::size_t cols, int dtype) {
    MatrixView view;
    GPPROBE_RETURN_IF_ERROR(view_of(queries, rows, cols, dtype, "queries", &view));
    kept_ = std::make_unique<gpprobe::ScoredQueries>(view);
    return Status::success();
  }

  Status score_rows(ProbeHandle& probe, double first, double count) {
    if (!kept_ || !probe.probe()) return not_fitted();
    std::size_t f = 0, n = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("first", first, &f));
    GPPROBE_RETURN_IF_ERROR(count_argument("count", count, &n));
    return kept_->score_rows(*probe.probe(), f, n);
  }

  Status add_observation(ProbeHandle& probe, std::uintptr_t row, std::size_t cols, int dtype, double label) {
    if (!kept_ || !probe.probe()) return not_fitted();
    GPPROBE_RETURN_IF_ERROR(check_label(label));
    MatrixView view;
    GPPROBE_RETURN_IF_ERROR(view_of(row, 1, cols, dtype, "the observation", &view));
    return kept_->add_observation(probe.probe(), view, std::uint8_t(label));
  }

  Status remove_observation(ProbeHandle& probe, double index) {
    if (!kept_ || !probe.probe()) return not_fitted();
    std::size_t i = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("observation index", index, &i));
    return kept_->remove_observation(probe.probe(), i);
  }

  Status follow(ProbeHandle& probe, const ScoredQueriesHandle& leader) {
    if (!kept_ || !leader.kept_ || !probe.probe()) return not_fitted();
    return kept_->follow(*probe.probe(), *leader.kept_);
  }

  // 7 columns of `count` doubles at `out`, as ProbeHandle.score writes them, for rows [first, first + count).
  Status write(std::uintptr_t out, double first, double count) const {
    if (!kept_) return not_fitted();
    std::size_t f = 0, n = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("first", first, &f));
    GPPROBE_RETURN_IF_ERROR(count_argument("count", count, &n));
    double* base = doubles_out(out);
    const gpprobe::ProbeScoreColumns columns{base, base + n, base + 2 * n, base + 3 * n, base + 4 * n, base + 5 * n, base + 6 * n};
    return kept_->write(columns, f, n);
  }

  KeptScoresState state(ProbeHandle& probe) const {
    if (!kept_ || !probe.probe()) return failed<KeptScoresState>(not_fitted());
    KeptScoresState s;
    s.rows = double(kept_->rows());
    s.fullRescores = double(kept_->full_rescores());
    s.current = kept_->current(*probe.probe());
    return s;
  }

 private:
  std::unique_ptr<gpprobe::ScoredQueries> kept_;
};

// Seeded synthetic embeddings (the benchmark's workload): x as float64 rows*dim at `x`, labels at `labels`.
Status synthetic_embeddings(double rows, double dimension, double seed, std::uintptr_t x, std::uintptr_t labels) {
  std::size_t n = 0, d = 0;
  GPPROBE_RETURN_IF_ERROR(count_argument("rows", rows, &n));
  GPPROBE_RETURN_IF_ERROR(count_argument("dimension", dimension, &d));
  std::uint64_t s = 0;
  GPPROBE_RETURN_IF_ERROR(seed_argument("seed", seed, &s));
  const gpprobe::SyntheticEmbeddings data = gpprobe::synthetic_embeddings(n, d, s);
  std::copy(data.x.data(), data.x.data() + data.x.size(), doubles_out(x));
  std::copy(data.labels.begin(), data.labels.end(), reinterpret_cast<std::uint8_t*>(labels));
  return Status::success();
}

struct DrawnRows : BindingStatus {
  val rows = val::null();  // Uint32Array, ascending
};

DrawnRows draw_observations(std::uintptr_t labels, std::size_t n, double per_class, double seed) {
  std::size_t per = 0;
  std::uint64_t s = 0;
  for (const Status& checked : {count_argument("perClass", per_class, &per), seed_argument("seed", seed, &s)}) {
    if (!checked.ok()) return failed<DrawnRows>(checked);
  }
  Result<std::vector<std::size_t>> rows = gpprobe::draw_observations(bytes(labels), n, per, s);
  if (!rows.ok()) return failed<DrawnRows>(rows.status());
  const std::vector<std::uint32_t> out(rows.value().begin(), rows.value().end());
  DrawnRows r;
  r.rows = copy_out(out);
  return r;
}

struct BindingNames : BindingStatus {
  val names = val::null();  // string[]
};

BindingNames registered_binding_names() {
  BindingNames r;
  r.names = array_of(registered_bindings());
  return r;
}

// Test hook: the next guarded call throws `fault` ("bad_alloc", "exception" or "none") before its body.
Status arm_fault(const std::string& fault) {
  if (fault == "bad_alloc") armed_fault() = Fault::bad_alloc;
  else if (fault == "exception") armed_fault() = Fault::exception;
  else if (fault == "none") armed_fault() = Fault::none;
  else return Status(StatusCode::invalid_argument, "fault must be bad_alloc, exception or none, got '" + fault + "'");
  return Status::success();
}

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_probe) {
  using namespace gpprobe::wasm;
  emscripten::value_object<BindingStatus>("BindingStatus")
      .field("code", &BindingStatus::code)
      .field("message", &BindingStatus::message);
  result_object<ProbeState>("ProbeState", [](auto& o) {
    o.field("observationCount", &ProbeState::observationCount)
        .field("dimension", &ProbeState::dimension)
        .field("space", &ProbeState::space)
        .field("labels", &ProbeState::labels);
  });
  result_object<LeaveOneOutValue>("LeaveOneOutValue", [](auto& o) {
    o.field("judgedProbability", &LeaveOneOutValue::judgedProbability)
        .field("latentMean", &LeaveOneOutValue::latentMean)
        .field("latentVariance", &LeaveOneOutValue::latentVariance)
        .field("positives", &LeaveOneOutValue::positives)
        .field("negatives", &LeaveOneOutValue::negatives)
        .field("auroc", &LeaveOneOutValue::auroc)
        .field("aurocStandardError", &LeaveOneOutValue::aurocStandardError)
        .field("logLoss", &LeaveOneOutValue::logLoss)
        .field("logLossStandardError", &LeaveOneOutValue::logLossStandardError)
        .field("verdict", &LeaveOneOutValue::verdict);
  });
  result_object<DrawnRows>("DrawnRows", [](auto& o) { o.field("rows", &DrawnRows::rows); });
  result_object<BindingNames>("BindingNames", [](auto& o) { o.field("names", &BindingNames::names); });

  emscripten::class_<ProbeHandle> probe("ProbeHandle");
  probe.constructor<>();
  bind_method<&ProbeHandle::fit>(probe, "ProbeHandle", "fit");
  bind_method<&ProbeHandle::score>(probe, "ProbeHandle", "score");
  bind_method<&ProbeHandle::add_observation>(probe, "ProbeHandle", "addObservation");
  bind_method<&ProbeHandle::remove_observation>(probe, "ProbeHandle", "removeObservation");
  bind_method<&ProbeHandle::state>(probe, "ProbeHandle", "state");
  bind_method<&ProbeHandle::certify>(probe, "ProbeHandle", "certify");
  bind_method<&ProbeHandle::leave_one_out>(probe, "ProbeHandle", "leaveOneOut");
  bind_method<&ProbeHandle::knowledge_gain>(probe, "ProbeHandle", "knowledgeGain");

  result_object<KeptScoresState>("KeptScoresState", [](auto& o) {
    o.field("rows", &KeptScoresState::rows)
        .field("fullRescores", &KeptScoresState::fullRescores)
        .field("current", &KeptScoresState::current);
  });
  emscripten::class_<ScoredQueriesHandle> kept("ScoredQueriesHandle");
  kept.constructor<>();
  bind_method<&ScoredQueriesHandle::track>(kept, "ScoredQueriesHandle", "track");
  bind_method<&ScoredQueriesHandle::score_rows>(kept, "ScoredQueriesHandle", "scoreRows");
  bind_method<&ScoredQueriesHandle::add_observation>(kept, "ScoredQueriesHandle", "addObservation");
  bind_method<&ScoredQueriesHandle::remove_observation>(kept, "ScoredQueriesHandle", "removeObservation");
  bind_method<&ScoredQueriesHandle::follow>(kept, "ScoredQueriesHandle", "follow");
  bind_method<&ScoredQueriesHandle::write>(kept, "ScoredQueriesHandle", "write");
  bind_method<&ScoredQueriesHandle::state>(kept, "ScoredQueriesHandle", "state");

  bind_function<&synthetic_embeddings>("syntheticEmbeddings");
  bind_function<&draw_observations>("drawObservations");
  bind_function<&registered_binding_names>("registeredBindings");
  bind_function<&arm_fault>("armFault");
}
