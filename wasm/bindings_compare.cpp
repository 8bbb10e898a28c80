// Embind registration of the comparison of representations (gpprobe/compare/representation_comparison.h).
// Conventions of binding_support.h. A CompareHandle holds a ComparisonRun: start() with the embeddings'
// names, the row count and the concepts; probe() one (concept, embedding) cell at a time, the embedding's
// rows viewed in the wasm heap (the TS engine copies one embedding in, probes every concept, frees it, and
// yields between cells for progress and cancel); result() for the table, the paired tests and sentences.
// Over draws of the observations (gpprobe/compare/draw_comparison.h): startDrawn() with the draws' settings
// holds a DrawnComparisonRun instead; probeDrawn() probes every concept in every draw in embedding k (one
// call per embedding, progress over its R x C x (n + ood) rows, false cancels); result() then also fills
// each concept's `draws` and its sentence speaks of them.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <emscripten/bind.h>

#include "gpprobe/compare/auroc_interval.h"
#include "gpprobe/compare/draw_comparison.h"
#include "gpprobe/compare/representation_comparison.h"

#include "binding_support.h"
#include "described_values.h"

namespace gpprobe::wasm {
namespace {

// ComparisonOptions under the TS API's names; epistemeThreshold NaN means one observation's episteme.
struct CompareSettings {
  double epsilon = 0.1, strength = 5.0, decided = 0.1, epistemeThreshold = 0.0;
};

// DrawOptions under the TS API's names; mode "redraw" or "bootstrap".
struct DrawSettings {
  double draws = 20, perClass = 8, seed = 0;
  std::string mode = "redraw";
};

// honest_auroc_interval (auroc_interval.h): an AUROC's interval that stays honest at the edges and at small
// samples (the hull of Newcombe's score interval and DeLong's normal one), at the two-sided level `confidence`.
Reply<gpprobe::AurocInterval> auroc_interval_of(double auroc, double standard_error, double positives, double negatives,
                                                double confidence) {
  std::size_t m = 0, n = 0;
  Status s = count_argument("positives", positives, &m);
  if (s.ok()) s = count_argument("negatives", negatives, &n);
  if (s.ok() && !(confidence > 0 && confidence < 1))
    s = Status(StatusCode::invalid_argument, "aurocInterval: confidence must lie strictly between 0 and 1");
  if (!s.ok()) return failed<Reply<gpprobe::AurocInterval>>(s);
  // The standard normal's (1 + confidence) / 2 quantile, by bisection on erfc (monotone).
  const double tail = (1 - confidence) / 2;
  double lo = 0, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    if (0.5 * std::erfc(mid / std::sqrt(2.0)) > tail) lo = mid;
    else hi = mid;
  }
  return reply(gpprobe::honest_auroc_interval(auroc, standard_error, m, n, (lo + hi) / 2));
}

class CompareHandle {
 public:
  // names: the K embeddings; labels: concepts x rows bytes (0, 1, 255 unlabelled), concept-major;
  // observations: each concept's rows (uint32) one after the other, observationCounts of them per concept.
  Status start(val names, double rows, val concept_names, std::uintptr_t labels, std::uintptr_t observations,
               std::uintptr_t observation_counts, const CompareSettings& s) {
    run_.reset();
    drawn_.reset();
    std::size_t n = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("rows", rows, &n));
    const std::vector<gpprobe::ComparedConcept> compared =
        concepts_of(concept_names, n, labels, observations, observation_counts);
    Result<gpprobe::ComparisonRun> run = gpprobe::ComparisonRun::start(strings_of(names), n, compared, options_of(s));
    if (!run.ok()) return run.status();
    run_ = std::make_unique<gpprobe::ComparisonRun>(std::move(run).value());
    return Status::success();
  }

  // Probes concept `concept` in embedding `k` (rows x cols at `embeddings`; its OOD set: ood_rows x cols
  // at `ood`, or 0 rows).
  Status probe(double concept, double k, std::uintptr_t embeddings, double rows, double cols, int dtype,
               std::uintptr_t ood, double ood_rows, val progress) {
    if (!run_) return Status(StatusCode::invalid_argument, "compare: start() the comparison first");
    std::size_t c = 0, index = 0, n = 0, d = 0, m = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("concept", concept, &c));
    GPPROBE_RETURN_IF_ERROR(count_argument("embedding", k, &index));
    GPPROBE_RETURN_IF_ERROR(count_argument("rows", rows, &n));
    GPPROBE_RETURN_IF_ERROR(count_argument("cols", cols, &d));
    GPPROBE_RETURN_IF_ERROR(count_argument("oodRows", ood_rows, &m));
    MatrixView x, o;
    GPPROBE_RETURN_IF_ERROR(view_of(embeddings, n, d, dtype, "embeddings", &x));
    if (m > 0) GPPROBE_RETURN_IF_ERROR(view_of(ood, m, d, dtype, "ood embeddings", &o));
    return run_->probe(c, index, x, o, progress_from(progress));
  }

  // As start(), over draws of the observations: d.mode "redraw" draws d.perClass labelled rows of each class
  // per draw (the observations given are ignored), "bootstrap" resamples the given observations.
  Status startDrawn(val names, double rows, val concept_names, std::uintptr_t labels, std::uintptr_t observations,
                    std::uintptr_t observation_counts, const CompareSettings& s, const DrawSettings& d) {
    run_.reset();
    drawn_.reset();
    std::size_t n = 0, draws = 0, per_class = 0, seed = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("rows", rows, &n));
    GPPROBE_RETURN_IF_ERROR(count_argument("draws", d.draws, &draws));
    GPPROBE_RETURN_IF_ERROR(count_argument("perClass", d.perClass, &per_class));
    GPPROBE_RETURN_IF_ERROR(count_argument("seed", d.seed, &seed));
    gpprobe::DrawOptions o;
    o.draws = draws;
    o.per_class = per_class;
    o.seed = std::uint64_t(seed);
    if (d.mode == "redraw") {
      o.mode = gpprobe::DrawMode::redraw;
    } else if (d.mode == "bootstrap") {
      o.mode = gpprobe::DrawMode::bootstrap;
    } else {
      return Status(StatusCode::invalid_argument,
                    "compare: draw mode must be \"redraw\" or \"bootstrap\", got \"" + d.mode + "\"");
    }
    const std::vector<gpprobe::ComparedConcept> compared =
        concepts_of(concept_names, n, labels, observations, observation_counts);
    Result<gpprobe::DrawnComparisonRun> run =
        gpprobe::DrawnComparisonRun::start(strings_of(names), n, compared, options_of(s), o);
    if (!run.ok()) return run.status();
    drawn_ = std::make_unique<gpprobe::DrawnComparisonRun>(std::move(run).value());
    return Status::success();
  }

  // Probes every concept in every draw in embedding `k` (after startDrawn).
  Status probeDrawn(double k, std::uintptr_t embeddings, double rows, double cols, int dtype, std::uintptr_t ood,
                    double ood_rows, val progress) {
    if (!drawn_) return Status(StatusCode::invalid_argument, "compare: startDrawn() the comparison first");
    std::size_t index = 0, n = 0, d = 0, m = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("embedding", k, &index));
    GPPROBE_RETURN_IF_ERROR(count_argument("rows", rows, &n));
    GPPROBE_RETURN_IF_ERROR(count_argument("cols", cols, &d));
    GPPROBE_RETURN_IF_ERROR(count_argument("oodRows", ood_rows, &m));
    MatrixView x, o;
    GPPROBE_RETURN_IF_ERROR(view_of(embeddings, n, d, dtype, "embeddings", &x));
    if (m > 0) GPPROBE_RETURN_IF_ERROR(view_of(ood, m, d, dtype, "ood embeddings", &o));
    return drawn_->probe(index, x, o, progress_from(progress));
  }

  Reply<gpprobe::ComparisonResult> result() const {
    if (!run_ && !drawn_)
      return failed<Reply<gpprobe::ComparisonResult>>(
          Status(StatusCode::invalid_argument, "compare: start() the comparison first"));
    Result<gpprobe::ComparisonResult> r = drawn_ ? drawn_->finish() : run_->finish();
    if (!r.ok()) return failed<Reply<gpprobe::ComparisonResult>>(r.status());
    return reply(std::move(r).value());
  }

 private:
  static std::vector<gpprobe::ComparedConcept> concepts_of(const val& concept_names, std::size_t n,
                                                           std::uintptr_t labels, std::uintptr_t observations,
                                                           std::uintptr_t observation_counts) {
    const std::vector<std::string> concepts = strings_of(concept_names);
    std::vector<gpprobe::ComparedConcept> compared;
    const std::uint32_t* counts = reinterpret_cast<const std::uint32_t*>(observation_counts);
    const std::uint32_t* rows_of = reinterpret_cast<const std::uint32_t*>(observations);
    for (std::size_t c = 0, offset = 0; c < concepts.size(); ++c) {
      gpprobe::ComparedConcept concept {concepts[c], bytes(labels) + c * n, n, {}};
      concept.observations.assign(rows_of + offset, rows_of + offset + counts[c]);
      offset += counts[c];
      compared.push_back(std::move(concept));
    }
    return compared;
  }
  static gpprobe::ComparisonOptions options_of(const CompareSettings& s) {
    gpprobe::ComparisonOptions o;
    o.probe.epsilon = s.epsilon;
    o.probe.strength = s.strength;
    o.decided = s.decided;
    o.episteme_threshold = s.epistemeThreshold;
    return o;
  }
  std::unique_ptr<gpprobe::ComparisonRun> run_;
  std::unique_ptr<gpprobe::DrawnComparisonRun> drawn_;
};

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_compare) {
  using namespace gpprobe::wasm;
  emscripten::value_object<CompareSettings>("CompareSettings")
      .field("epsilon", &CompareSettings::epsilon)
      .field("strength", &CompareSettings::strength)
      .field("decided", &CompareSettings::decided)
      .field("epistemeThreshold", &CompareSettings::epistemeThreshold);
  emscripten::value_object<DrawSettings>("DrawSettings")
      .field("draws", &DrawSettings::draws)
      .field("mode", &DrawSettings::mode)
      .field("perClass", &DrawSettings::perClass)
      .field("seed", &DrawSettings::seed);
  reply_object<gpprobe::ComparisonResult>();
  reply_object<gpprobe::AurocInterval>();
  bind_function<&auroc_interval_of>("aurocInterval");

  emscripten::class_<CompareHandle> handle("CompareHandle");
  handle.constructor<>();
  bind_method<&CompareHandle::start>(handle, "CompareHandle", "start");
  bind_method<&CompareHandle::probe>(handle, "CompareHandle", "probe");
  bind_method<&CompareHandle::result>(handle, "CompareHandle", "result");
  bind_method<&CompareHandle::startDrawn>(handle, "CompareHandle", "startDrawn");
  bind_method<&CompareHandle::probeDrawn>(handle, "CompareHandle", "probeDrawn");
}
