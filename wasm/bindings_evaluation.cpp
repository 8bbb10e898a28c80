// Embind registration of the evaluation core (baselines, metrics, experiments) for JavaScript. Same
// conventions as bindings.cpp: whole heap buffers in (pointer + shape + dtype 32/64), results written to
// caller-allocated buffers or held by a handle, a BindingStatus {code, message} out, and an optional JS
// progress(done, total) function that cancels by returning false. No mathematics here.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "binding_support.h"
#include "gpprobe/baselines.h"
#include "gpprobe/experiment.h"
#include "gpprobe/metrics.h"

namespace {

using emscripten::val;
using gpprobe::MatrixView;
using gpprobe::Result;
using gpprobe::Status;
using gpprobe::StatusCode;
using gpprobe::wasm::BindingStatus;
using gpprobe::wasm::guarded;
using gpprobe::wasm::invalid;
using gpprobe::wasm::make_view;

const std::uint8_t* bytes(std::uintptr_t ptr) { return reinterpret_cast<const std::uint8_t*>(ptr); }
const double* doubles(std::uintptr_t ptr) { return reinterpret_cast<const double*>(ptr); }
double* doubles_out(std::uintptr_t ptr) { return reinterpret_cast<double*>(ptr); }

Status view_or_error(std::uintptr_t ptr, std::size_t rows, std::size_t cols, int dtype, const char* what,
                     MatrixView* view) {
  if (make_view(ptr, rows, cols, dtype, view)) return Status::success();
  return Status(StatusCode::invalid_argument, std::string(what) + " must be float32 or float64");
}

// "score,probability,...": the columns runBaseline fills for `method` ("" when the method is unknown).
std::string baseline_columns(const std::string& method) {
  Result<gpprobe::BaselineMethod> m = gpprobe::parse_baseline(method);
  if (!m.ok()) return "";
  std::string out;
  for (const std::string& c : gpprobe::baseline_columns(m.value())) out += (out.empty() ? "" : ",") + c;
  return out;
}

// Writes 4 columns of `query_rows` doubles at `out` (score, probability, episteme, alea); the columns
// the method does not have (baselineColumns) are left as they were.
BindingStatus run_baseline(const std::string& method, std::uintptr_t observations, std::size_t rows, std::size_t cols,
                           int dtype, std::uintptr_t labels, std::size_t label_count, std::uintptr_t queries,
                           std::size_t query_rows, std::size_t query_cols, int query_dtype, double k, double seed,
                           double members, std::uintptr_t out, val progress) {
  return guarded([&]() -> Status {
    Result<gpprobe::BaselineMethod> m = gpprobe::parse_baseline(method);
    if (!m.ok()) return m.status();
    MatrixView x, q;
    GPPROBE_RETURN_IF_ERROR(view_or_error(observations, rows, cols, dtype, "observations", &x));
    GPPROBE_RETURN_IF_ERROR(view_or_error(queries, query_rows, query_cols, query_dtype, "queries", &q));
    gpprobe::BaselineOptions options;
    options.k = std::size_t(k);
    options.seed = std::uint64_t(seed);
    options.members = std::size_t(members);
    Result<gpprobe::BaselineScores> r = gpprobe::run_baseline(m.value(), x, bytes(labels), label_count, q, options,
                                                              gpprobe::wasm::progress_from(progress));
    if (!r.ok()) return r.status();
    double* base = doubles_out(out);
    const gpprobe::BaselineScores& s = r.value();
    int column = 0;
    for (const std::vector<double>* c : {&s.score, &s.probability, &s.episteme, &s.alea}) {
      std::copy(c->begin(), c->end(), base + std::size_t(column++) * query_rows);
    }
    return Status::success();
  });
}

// A metric of n labels and n scores written to out[0].
template <class Metric>
BindingStatus scalar_metric(Metric metric, std::uintptr_t labels, std::uintptr_t scores, std::size_t n,
                            std::uintptr_t out) {
  return guarded([&]() -> Status {
    Result<double> r = metric(bytes(labels), doubles(scores), n);
    if (!r.ok()) return r.status();
    *doubles_out(out) = r.value();
    return Status::success();
  });
}

BindingStatus auroc(std::uintptr_t labels, std::uintptr_t scores, std::size_t n, std::uintptr_t out) {
  return scalar_metric(gpprobe::auroc, labels, scores, n, out);
}

BindingStatus auprc(std::uintptr_t labels, std::uintptr_t scores, std::size_t n, std::uintptr_t out) {
  return scalar_metric(gpprobe::auprc, labels, scores, n, out);
}

BindingStatus accuracy(std::uintptr_t labels, std::uintptr_t probability, std::size_t n, double threshold,
                       std::uintptr_t out) {
  return scalar_metric([threshold](const std::uint8_t* y, const double* p, std::size_t m) {
    return gpprobe::accuracy(y, p, m, threshold);
  }, labels, probability, n, out);
}

BindingStatus pearson(std::uintptr_t x, std::uintptr_t y, std::size_t n, std::uintptr_t out) {
  return guarded([&]() -> Status {
    Result<double> r = gpprobe::pearson(doubles(x), doubles(y), n);
    if (!r.ok()) return r.status();
    *doubles_out(out) = r.value();
    return Status::success();
  });
}

// Writes the curve's point count to out[0], then its false positive rates, true positive rates and
// thresholds at out + 1 (3 arrays of at most n + 1 doubles each, one after the other with stride n + 1).
BindingStatus roc_curve(std::uintptr_t labels, std::uintptr_t scores, std::size_t n, std::uintptr_t out) {
  return guarded([&]() -> Status {
    Result<gpprobe::RocCurve> r = gpprobe::roc_curve(bytes(labels), doubles(scores), n);
    if (!r.ok()) return r.status();
    double* base = doubles_out(out);
    base[0] = double(r.value().thresholds.size());
    std::copy(r.value().false_positive_rate.begin(), r.value().false_positive_rate.end(), base + 1);
    std::copy(r.value().true_positive_rate.begin(), r.value().true_positive_rate.end(), base + 1 + (n + 1));
    std::copy(r.value().thresholds.begin(), r.value().thresholds.end(), base + 1 + 2 * (n + 1));
    return Status::success();
  });
}

BindingStatus summarise_trials(std::uintptr_t values, std::size_t trials, std::size_t points, std::uintptr_t mean,
                               std::uintptr_t sd) {
  if (trials == 0) return invalid("trials must be at least 1, got 0");
  gpprobe::summarise_trials(doubles(values), trials, points, doubles_out(mean), doubles_out(sd));
  return {"ok", ""};
}

// One experiment's results, held for JavaScript to copy out. JavaScript owns it and must delete() it.
class ExperimentHandle {
 public:
  // `options`: {firstTrial, trials, seed, maxObservations, maxQueries, members, k, epsilon, strength},
  // all numbers (the TS engine fills every field). A query_mask of 0 means none.
  BindingStatus run(const std::string& experiment, std::uintptr_t embeddings, std::size_t rows, std::size_t cols,
                    int dtype, std::uintptr_t labels, std::size_t label_count, std::uintptr_t ood,
                    std::size_t ood_rows, std::size_t ood_cols, int ood_dtype, std::uintptr_t query_mask,
                    std::size_t query_mask_count,
                    val options, val progress) {
    result_.reset();
    return guarded([&]() -> Status {
      Result<gpprobe::ExperimentKind> kind = gpprobe::parse_experiment(experiment);
      if (!kind.ok()) return kind.status();
      gpprobe::ExperimentData data;
      GPPROBE_RETURN_IF_ERROR(view_or_error(embeddings, rows, cols, dtype, "embeddings", &data.embeddings));
      GPPROBE_RETURN_IF_ERROR(view_or_error(ood, ood_rows, ood_cols, ood_dtype, "ood embeddings", &data.ood));
      data.labels = bytes(labels);
      data.label_count = label_count;
      data.query_mask = query_mask ? bytes(query_mask) : nullptr;
      data.query_mask_count = query_mask_count;
      gpprobe::ExperimentOptions o;
      o.first_trial = options["firstTrial"].as<std::size_t>();
      o.trials = options["trials"].as<std::size_t>();
      o.seed = std::uint64_t(options["seed"].as<double>());
      o.max_observations = options["maxObservations"].as<std::size_t>();
      o.max_queries = options["maxQueries"].as<std::size_t>();
      o.members = options["members"].as<std::size_t>();
      o.k = options["k"].as<std::size_t>();
      o.probe.epsilon = options["epsilon"].as<double>();
      o.probe.strength = options["strength"].as<double>();
      Result<gpprobe::ExperimentResult> r =
          gpprobe::run_experiment(kind.value(), data, o, gpprobe::wasm::progress_from(progress));
      if (!r.ok()) return r.status();
      result_ = std::make_unique<gpprobe::ExperimentResult>(std::move(r).value());
      return Status::success();
    });
  }

  std::size_t point_count() const { return result_ ? result_->observation_counts.size() : 0; }
  std::size_t trials() const { return result_ ? result_->trials : 0; }
  void copy_observation_counts(std::uintptr_t out) const {
    if (result_) std::copy(result_->observation_counts.begin(), result_->observation_counts.end(), doubles_out(out));
  }
  std::size_t curve_count() const { return result_ ? result_->curves.size() : 0; }
  std::string curve_method(std::size_t i) const { return curve(i) ? curve(i)->method : ""; }
  std::string curve_metric(std::size_t i) const { return curve(i) ? curve(i)->metric : ""; }
  // trials * points values, then points means, then points standard deviations.
  void copy_curve(std::size_t i, std::uintptr_t out) const {
    const gpprobe::ExperimentCurve* c = curve(i);
    if (!c) return;
    double* p = std::copy(c->values.begin(), c->values.end(), doubles_out(out));
    p = std::copy(c->mean.begin(), c->mean.end(), p);
    std::copy(c->sd.begin(), c->sd.end(), p);
  }
  std::size_t cloud_count() const { return result_ ? result_->clouds.size() : 0; }
  std::string cloud_method(std::size_t i) const { return cloud(i) ? cloud(i)->method : ""; }
  double cloud_label_probability(std::size_t i) const { return cloud(i) ? cloud(i)->label_probability : 0.0; }
  std::size_t cloud_observations(std::size_t i) const { return cloud(i) ? cloud(i)->observations : 0; }
  std::size_t cloud_size(std::size_t i) const { return cloud(i) ? cloud(i)->rows.size() : 0; }
  // size rows (as doubles), then size judged probabilities, epistemes and aleas.
  void copy_cloud(std::size_t i, std::uintptr_t out) const {
    const gpprobe::ExperimentCloud* c = cloud(i);
    if (!c) return;
    double* p = std::copy(c->rows.begin(), c->rows.end(), doubles_out(out));
    p = std::copy(c->judged_probability.begin(), c->judged_probability.end(), p);
    p = std::copy(c->episteme.begin(), c->episteme.end(), p);
    std::copy(c->alea.begin(), c->alea.end(), p);
  }

 private:
  const gpprobe::ExperimentCurve* curve(std::size_t i) const {
    return result_ && i < result_->curves.size() ? &result_->curves[i] : nullptr;
  }
  const gpprobe::ExperimentCloud* cloud(std::size_t i) const {
    return result_ && i < result_->clouds.size() ? &result_->clouds[i] : nullptr;
  }

  std::unique_ptr<gpprobe::ExperimentResult> result_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(gpprobe_evaluation) {
  emscripten::function("baselineColumns", &baseline_columns);
  emscripten::function("runBaseline", &run_baseline);
  emscripten::function("auroc", &auroc);
  emscripten::function("auprc", &auprc);
  emscripten::function("accuracy", &accuracy);
  emscripten::function("pearson", &pearson);
  emscripten::function("rocCurve", &roc_curve);
  emscripten::function("summariseTrials", &summarise_trials);

  emscripten::class_<ExperimentHandle>("ExperimentHandle")
      .constructor<>()
      .function("run", &ExperimentHandle::run)
      .function("pointCount", &ExperimentHandle::point_count)
      .function("trials", &ExperimentHandle::trials)
      .function("copyObservationCounts", &ExperimentHandle::copy_observation_counts)
      .function("curveCount", &ExperimentHandle::curve_count)
      .function("curveMethod", &ExperimentHandle::curve_method)
      .function("curveMetric", &ExperimentHandle::curve_metric)
      .function("copyCurve", &ExperimentHandle::copy_curve)
      .function("cloudCount", &ExperimentHandle::cloud_count)
      .function("cloudMethod", &ExperimentHandle::cloud_method)
      .function("cloudLabelProbability", &ExperimentHandle::cloud_label_probability)
      .function("cloudObservations", &ExperimentHandle::cloud_observations)
      .function("cloudSize", &ExperimentHandle::cloud_size)
      .function("copyCloud", &ExperimentHandle::copy_cloud);
}
