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

namespace gpprobe::wasm {
namespace {

// ComparisonOptions under the TS API's names; epistemeThreshold NaN means one observation's episteme.
struct CompareSettings {
  double epsilon = 0.1, strength = 5.0, decided = 0.1, epistemeThreshold = 0.0;
};

struct RepresentationProbeValue {
  std::string name, space, looVerdict;
  double width = 0, observations = 0, positives = 0, negatives = 0;
  double looAuroc = 0, looAurocStandardError = 0, looAurocLower = 0, looAurocUpper = 0, looLogLoss = 0;
  double heldoutRows = 0, heldoutPositives = 0, heldoutAuroc = 0, heldoutAurocStandardError = 0, heldoutAurocLower = 0,
         heldoutAurocUpper = 0;
  double queries = 0, meanJudgedProbability = 0, meanEpisteme = 0, meanAlea = 0, decidedFraction = 0;
  double oodRows = 0, oodAuroc = 0;
  double basisAuroc = 0, basisAurocLower = 0, basisAurocUpper = 0, differenceFromBest = 0, pValueAgainstBest = 0;
  bool separates = false, indistinguishableFromBest = false, belowHalf = false;
};

// DrawOptions under the TS API's names; mode "redraw" or "bootstrap".
struct DrawSettings {
  double draws = 20, perClass = 8, seed = 0;
  std::string mode = "redraw";
};

struct DrawnProbeValue {
  val auroc = val::null();  // Float64Array, one per draw
  double mean = 0, standardDeviation = 0, minimum = 0, maximum = 0, lower = 0, upper = 0;
  double differenceFromBest = 0, pValueAgainstBest = 1, holmPValue = 1;
  double highestInDraws = 0, claimedInDraws = 0;
  bool separates = false, belowHalf = false, indistinguishableFromBest = false;
};

struct DrawnComparisonValue {
  std::string mode = "none";
  double draws = 0, observations = 0, labelledRows = 0, basisRows = 0, best = 0, comparisons = 0;
  val probes = val::null();  // DrawnProbeValue[]
};

struct ConceptComparisonValue {
  std::string concept, basis, sentence;
  double basisRows = 0, best = 0;
  val difference = val::null(), standardError = val::null(), pValue = val::null();  // Float64Array, K by K
  val probes = val::null();                                                         // RepresentationProbeValue[]
  DrawnComparisonValue draws;
};

struct ComparisonValue : BindingStatus {
  double epistemeThreshold = 0, decided = 0;
  bool layered = false;
  std::string layerNoun;
  val layerNumbers = val::null();  // Float64Array, one per embedding when layered
  val concepts = val::null();      // ConceptComparisonValue[]
};

RepresentationProbeValue probe_value(const gpprobe::RepresentationProbe& p) {
  RepresentationProbeValue v;
  v.name = p.name;
  v.space = gpprobe::space_name(p.space);
  v.looVerdict = gpprobe::verdict_name(p.loo_verdict);
  v.width = double(p.width);
  v.observations = double(p.observations);
  v.positives = double(p.positives);
  v.negatives = double(p.negatives);
  v.looAuroc = p.loo_auroc;
  v.looAurocStandardError = p.loo_auroc_standard_error;
  v.looAurocLower = p.loo_auroc_lower;
  v.looAurocUpper = p.loo_auroc_upper;
  v.looLogLoss = p.loo_log_loss;
  v.heldoutRows = double(p.heldout_rows);
  v.heldoutPositives = double(p.heldout_positives);
  v.heldoutAuroc = p.heldout_auroc;
  v.heldoutAurocStandardError = p.heldout_auroc_standard_error;
  v.heldoutAurocLower = p.heldout_auroc_lower;
  v.heldoutAurocUpper = p.heldout_auroc_upper;
  v.queries = double(p.queries);
  v.meanJudgedProbability = p.mean_judged_probability;
  v.meanEpisteme = p.mean_episteme;
  v.meanAlea = p.mean_alea;
  v.decidedFraction = p.decided_fraction;
  v.oodRows = double(p.ood_rows);
  v.oodAuroc = p.ood_auroc;
  v.basisAuroc = p.basis_auroc;
  v.basisAurocLower = p.basis_auroc_lower;
  v.basisAurocUpper = p.basis_auroc_upper;
  v.differenceFromBest = p.difference_from_best;
  v.pValueAgainstBest = p.p_value_against_best;
  v.separates = p.separates;
  v.indistinguishableFromBest = p.indistinguishable_from_best;
  v.belowHalf = p.below_half;
  return v;
}

DrawnComparisonValue drawn_value(const gpprobe::DrawnComparison& d) {
  DrawnComparisonValue v;
  v.mode = gpprobe::draw_mode_name(d.mode);
  v.draws = double(d.draws);
  v.observations = double(d.observations);
  v.labelledRows = double(d.labelled_rows);
  v.basisRows = double(d.basis_rows);
  v.best = double(d.best);
  v.comparisons = double(d.comparisons);
  std::vector<DrawnProbeValue> probes;
  for (const gpprobe::DrawnProbe& p : d.probes) {
    DrawnProbeValue q;
    q.auroc = copy_out(p.auroc);
    q.mean = p.mean;
    q.standardDeviation = p.standard_deviation;
    q.minimum = p.minimum;
    q.maximum = p.maximum;
    q.lower = p.lower;
    q.upper = p.upper;
    q.differenceFromBest = p.difference_from_best;
    q.pValueAgainstBest = p.p_value_against_best;
    q.holmPValue = p.holm_p_value;
    q.highestInDraws = double(p.highest_in_draws);
    q.claimedInDraws = double(p.claimed_in_draws);
    q.separates = p.separates;
    q.belowHalf = p.below_half;
    q.indistinguishableFromBest = p.indistinguishable_from_best;
    probes.push_back(q);
  }
  v.probes = array_of(probes);
  return v;
}

// honest_auroc_interval (auroc_interval.h): an AUROC's interval that stays honest at the edges and at small
// samples (the hull of Newcombe's score interval and DeLong's normal one), at the two-sided level `confidence`.
struct AurocIntervalValue : BindingStatus {
  double lower = 0, upper = 0;
};

AurocIntervalValue auroc_interval_of(double auroc, double standard_error, double positives, double negatives,
                                     double confidence) {
  std::size_t m = 0, n = 0;
  Status s = count_argument("positives", positives, &m);
  if (s.ok()) s = count_argument("negatives", negatives, &n);
  if (s.ok() && !(confidence > 0 && confidence < 1))
    s = Status(StatusCode::invalid_argument, "aurocInterval: confidence must lie strictly between 0 and 1");
  if (!s.ok()) return failed<AurocIntervalValue>(s);
  // The standard normal's (1 + confidence) / 2 quantile, by bisection on erfc (monotone).
  const double tail = (1 - confidence) / 2;
  double lo = 0, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    if (0.5 * std::erfc(mid / std::sqrt(2.0)) > tail) lo = mid;
    else hi = mid;
  }
  const gpprobe::AurocInterval i = gpprobe::honest_auroc_interval(auroc, standard_error, m, n, (lo + hi) / 2);
  AurocIntervalValue v;
  v.lower = i.lower;
  v.upper = i.upper;
  return v;
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

  ComparisonValue result() const {
    if (!run_ && !drawn_)
      return failed<ComparisonValue>(Status(StatusCode::invalid_argument, "compare: start() the comparison first"));
    Result<gpprobe::ComparisonResult> r = drawn_ ? drawn_->finish() : run_->finish();
    if (!r.ok()) return failed<ComparisonValue>(r.status());
    const gpprobe::ComparisonResult& result = r.value();
    ComparisonValue v;
    v.epistemeThreshold = result.episteme_threshold;
    v.decided = result.decided;
    v.layered = result.layers.layered;
    v.layerNoun = result.layers.noun;
    v.layerNumbers = copy_out(std::vector<double>(result.layers.numbers.begin(), result.layers.numbers.end()));
    std::vector<ConceptComparisonValue> concepts;
    for (const gpprobe::ConceptComparison& c : result.concepts) {
      ConceptComparisonValue cv;
      cv.concept = c.concept;
      cv.basis = gpprobe::basis_name(c.basis);
      cv.sentence = c.sentence;
      cv.basisRows = double(c.basis_rows);
      cv.best = double(c.best);
      cv.difference = copy_out(c.difference);
      cv.standardError = copy_out(c.standard_error);
      cv.pValue = copy_out(c.p_value);
      std::vector<RepresentationProbeValue> probes;
      for (const gpprobe::RepresentationProbe& p : c.probes) probes.push_back(probe_value(p));
      cv.probes = array_of(probes);
      cv.draws = drawn_value(c.draws);
      concepts.push_back(cv);
    }
    v.concepts = array_of(concepts);
    return v;
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
  emscripten::value_object<RepresentationProbeValue>("RepresentationProbeValue")
      .field("name", &RepresentationProbeValue::name)
      .field("width", &RepresentationProbeValue::width)
      .field("space", &RepresentationProbeValue::space)
      .field("observations", &RepresentationProbeValue::observations)
      .field("positives", &RepresentationProbeValue::positives)
      .field("negatives", &RepresentationProbeValue::negatives)
      .field("looAuroc", &RepresentationProbeValue::looAuroc)
      .field("looAurocStandardError", &RepresentationProbeValue::looAurocStandardError)
      .field("looAurocLower", &RepresentationProbeValue::looAurocLower)
      .field("looAurocUpper", &RepresentationProbeValue::looAurocUpper)
      .field("looLogLoss", &RepresentationProbeValue::looLogLoss)
      .field("looVerdict", &RepresentationProbeValue::looVerdict)
      .field("heldoutRows", &RepresentationProbeValue::heldoutRows)
      .field("heldoutPositives", &RepresentationProbeValue::heldoutPositives)
      .field("heldoutAuroc", &RepresentationProbeValue::heldoutAuroc)
      .field("heldoutAurocStandardError", &RepresentationProbeValue::heldoutAurocStandardError)
      .field("heldoutAurocLower", &RepresentationProbeValue::heldoutAurocLower)
      .field("heldoutAurocUpper", &RepresentationProbeValue::heldoutAurocUpper)
      .field("queries", &RepresentationProbeValue::queries)
      .field("meanJudgedProbability", &RepresentationProbeValue::meanJudgedProbability)
      .field("meanEpisteme", &RepresentationProbeValue::meanEpisteme)
      .field("meanAlea", &RepresentationProbeValue::meanAlea)
      .field("decidedFraction", &RepresentationProbeValue::decidedFraction)
      .field("oodRows", &RepresentationProbeValue::oodRows)
      .field("oodAuroc", &RepresentationProbeValue::oodAuroc)
      .field("basisAuroc", &RepresentationProbeValue::basisAuroc)
      .field("basisAurocLower", &RepresentationProbeValue::basisAurocLower)
      .field("basisAurocUpper", &RepresentationProbeValue::basisAurocUpper)
      .field("differenceFromBest", &RepresentationProbeValue::differenceFromBest)
      .field("pValueAgainstBest", &RepresentationProbeValue::pValueAgainstBest)
      .field("separates", &RepresentationProbeValue::separates)
      .field("indistinguishableFromBest", &RepresentationProbeValue::indistinguishableFromBest)
      .field("belowHalf", &RepresentationProbeValue::belowHalf);
  emscripten::value_object<DrawSettings>("DrawSettings")
      .field("draws", &DrawSettings::draws)
      .field("mode", &DrawSettings::mode)
      .field("perClass", &DrawSettings::perClass)
      .field("seed", &DrawSettings::seed);
  emscripten::value_object<DrawnProbeValue>("DrawnProbeValue")
      .field("auroc", &DrawnProbeValue::auroc)
      .field("mean", &DrawnProbeValue::mean)
      .field("standardDeviation", &DrawnProbeValue::standardDeviation)
      .field("minimum", &DrawnProbeValue::minimum)
      .field("maximum", &DrawnProbeValue::maximum)
      .field("lower", &DrawnProbeValue::lower)
      .field("upper", &DrawnProbeValue::upper)
      .field("differenceFromBest", &DrawnProbeValue::differenceFromBest)
      .field("pValueAgainstBest", &DrawnProbeValue::pValueAgainstBest)
      .field("holmPValue", &DrawnProbeValue::holmPValue)
      .field("highestInDraws", &DrawnProbeValue::highestInDraws)
      .field("claimedInDraws", &DrawnProbeValue::claimedInDraws)
      .field("separates", &DrawnProbeValue::separates)
      .field("belowHalf", &DrawnProbeValue::belowHalf)
      .field("indistinguishableFromBest", &DrawnProbeValue::indistinguishableFromBest);
  emscripten::value_object<DrawnComparisonValue>("DrawnComparisonValue")
      .field("mode", &DrawnComparisonValue::mode)
      .field("draws", &DrawnComparisonValue::draws)
      .field("observations", &DrawnComparisonValue::observations)
      .field("labelledRows", &DrawnComparisonValue::labelledRows)
      .field("basisRows", &DrawnComparisonValue::basisRows)
      .field("best", &DrawnComparisonValue::best)
      .field("comparisons", &DrawnComparisonValue::comparisons)
      .field("probes", &DrawnComparisonValue::probes);
  emscripten::value_object<ConceptComparisonValue>("ConceptComparisonValue")
      .field("concept", &ConceptComparisonValue::concept)
      .field("basis", &ConceptComparisonValue::basis)
      .field("basisRows", &ConceptComparisonValue::basisRows)
      .field("best", &ConceptComparisonValue::best)
      .field("difference", &ConceptComparisonValue::difference)
      .field("standardError", &ConceptComparisonValue::standardError)
      .field("pValue", &ConceptComparisonValue::pValue)
      .field("sentence", &ConceptComparisonValue::sentence)
      .field("probes", &ConceptComparisonValue::probes)
      .field("draws", &ConceptComparisonValue::draws);
  result_object<ComparisonValue>("ComparisonValue", [](auto& o) {
    o.field("epistemeThreshold", &ComparisonValue::epistemeThreshold)
        .field("decided", &ComparisonValue::decided)
        .field("layered", &ComparisonValue::layered)
        .field("layerNoun", &ComparisonValue::layerNoun)
        .field("layerNumbers", &ComparisonValue::layerNumbers)
        .field("concepts", &ComparisonValue::concepts);
  });

  result_object<AurocIntervalValue>("AurocIntervalValue", [](auto& o) {
    o.field("lower", &AurocIntervalValue::lower).field("upper", &AurocIntervalValue::upper);
  });
  bind_function<&auroc_interval_of>("aurocInterval");

  emscripten::class_<CompareHandle> handle("CompareHandle");
  handle.constructor<>();
  bind_method<&CompareHandle::start>(handle, "CompareHandle", "start");
  bind_method<&CompareHandle::probe>(handle, "CompareHandle", "probe");
  bind_method<&CompareHandle::result>(handle, "CompareHandle", "result");
  bind_method<&CompareHandle::startDrawn>(handle, "CompareHandle", "startDrawn");
  bind_method<&CompareHandle::probeDrawn>(handle, "CompareHandle", "probeDrawn");
}
