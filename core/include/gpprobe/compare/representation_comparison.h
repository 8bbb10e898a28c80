// Which representation holds the concept? The same concept, with the same observation rows, probed in
// several embeddings of the same items (layers of a network, several models): one probe fitted in each
// (the same epsilon and strength), and per embedding the numbers that probe gives alone (docs/compare.md):
//
//   width             d_k, the embedding's columns
//   loo_auroc         the leave-one-out AUROC of the observations (leave_one_out.h) with its 99% interval
//                     (honest_auroc_interval, auroc_interval.h: the hull of Newcombe's score interval and
//                     DeLong's normal one, so it does not collapse at AUROC 0 or 1); the leave-one-out verdict
//   heldout_auroc     AUROC of the judged probability over every labelled row that is not an observation
//                     (NaN when those rows lack a class), with its 99% interval likewise
//   mean_episteme, mean_alea   over the queries: every row that is not an observation, labelled or not
//   decided_fraction  the share of queries decided (judged probability < decided or > 1 - decided) with
//                     episteme at least episteme_threshold
//   ood_auroc         when the embedding has an OOD set: AUROC for telling the queries (positive) from the
//                     OOD rows (negative) by the probe's OOD score -latent variance (NaN without one)
//
// Differences between embeddings are judged by DeLong's paired test (delong.h) on the same rows: the
// held-out rows when they hold at least 2 of each class (basis "heldout"), otherwise the observations'
// leave-one-out judged probabilities (basis "leave_one_out"; the same observations in every embedding),
// otherwise none. The best embedding has the highest AUROC on that basis (the first of equals); one is
// indistinguishable from it when the paired test's p-value is at least 0.01, separates the concept
// when its AUROC's 99% interval on that basis lies above 1/2, and ranks it inverted when the interval lies
// below 1/2. A plain sentence says so (comparison_sentence.h). All of this is conditional on the one set of
// observations: compare_over_draws (draw_comparison.h) repeats it over draws of the observations and judges
// the differences with the draw-to-draw variance (ConceptComparison::draws).
//
// Several concepts (the paper's Fig. 4 grid): each is compared on its own, with its own observations.
// Each (concept, embedding) fits one probe, with ProbeOptions::expected_queries = n (the rows scored),
// and scores every row of the embedding and of its OOD set; every number equals fitting that probe alone
// on the observation rows, scoring the rows and applying leave_one_out and metrics.h to the same rows
// (tests/core/compare/representation_comparison_test.cpp, to 1e-12).
//
//   representations  K >= 1, each n by d_k (float32 or float64, read in place), n the same for all;
//                    ood m_k by d_k or empty
//   concepts         C >= 1, each n labels in {0, 1, kUnlabelled} and observation rows (labelled, distinct,
//                    both classes present)
//   progress         rows scored so far of C * sum_k (n + m_k); false cancels (cancelled)
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpprobe/common/enum_names.h"
#include "gpprobe/common/fields.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/compare/layer_names.h"
#include "gpprobe/probe/leave_one_out.h"
#include "gpprobe/probe/probe.h"

namespace gpprobe {

// A row whose label is unknown: never an observation, not among the held-out rows, still a query.
inline constexpr std::uint8_t kUnlabelled = 255;

struct Representation {
  std::string name;       // the file or tensor name; in messages and the sentence
  MatrixView embeddings;  // n by d_k
  MatrixView ood;         // m_k by d_k, or empty
};

struct ComparedConcept {
  std::string name;
  const std::uint8_t* labels = nullptr;  // n values
  std::size_t label_count = 0;
  std::vector<std::size_t> observations;  // row indices, in the order the probes take them
};

struct ComparisonOptions {
  ProbeOptions probe;    // epsilon and strength of every fit (space, float32_products as set there)
  double decided = 0.1;  // a query is decided when its judged probability is < decided or > 1 - decided
  // Episteme a decided query needs to count in decided_fraction; NaN means the episteme one observation
  // gives at its own point (one_observation_episteme): as sure as one labelled example there makes it.
  double episteme_threshold = std::numeric_limits<double>::quiet_NaN();
};

enum class ComparisonBasis { heldout, leave_one_out, none };
inline constexpr EnumNames<ComparisonBasis, 3> kComparisonBasisNames = {
    {{ComparisonBasis::heldout, "heldout"},
     {ComparisonBasis::leave_one_out, "leave_one_out"},
     {ComparisonBasis::none, "none"}}};
// "heldout", "leave_one_out", "none".
inline const char* basis_name(ComparisonBasis basis) { return name_of(kComparisonBasisNames, basis); }

// One probe: one concept in one embedding.
struct RepresentationProbe {
  std::string name;
  std::size_t width = 0;
  PosteriorSpace space = PosteriorSpace::function;  // the form the fit used
  std::size_t observations = 0, positives = 0, negatives = 0;
  double loo_auroc = 0.0, loo_auroc_standard_error = 0.0, loo_auroc_lower = 0.0, loo_auroc_upper = 0.0;
  double loo_log_loss = 0.0;
  LooVerdict loo_verdict = LooVerdict::too_few;
  std::size_t heldout_rows = 0, heldout_positives = 0;  // labelled rows that are not observations
  double heldout_auroc = 0.0, heldout_auroc_standard_error = 0.0, heldout_auroc_lower = 0.0,
         heldout_auroc_upper = 0.0;  // NaN when undefined
  std::size_t queries = 0;           // rows that are not observations
  double mean_judged_probability = 0.0, mean_episteme = 0.0, mean_alea = 0.0;
  double decided_fraction = 0.0;
  std::size_t ood_rows = 0;
  double ood_auroc = 0.0;  // NaN without an OOD set
  // On the comparison's basis: the AUROC, its interval, and the paired test against the best embedding.
  double basis_auroc = 0.0, basis_auroc_lower = 0.0, basis_auroc_upper = 0.0;
  double difference_from_best = 0.0, p_value_against_best = 1.0;  // NaN when the basis is none
  bool separates = false;                                         // the basis interval lies above 1/2
  bool indistinguishable_from_best = false;                       // p_value_against_best >= 0.01 (true for the best)
  bool below_half = false;  // the basis interval lies below 1/2: the probe ranks the concept inverted
};
GPPROBE_DESCRIBE(RepresentationProbe, "RepresentationProbeValue", GPPROBE_FIELD(name), GPPROBE_FIELD(width),
                 GPPROBE_NAMED(space, kPosteriorSpaceNames), GPPROBE_FIELD(observations), GPPROBE_FIELD(positives),
                 GPPROBE_FIELD(negatives), GPPROBE_FIELD(loo_auroc), GPPROBE_FIELD(loo_auroc_standard_error),
                 GPPROBE_FIELD(loo_auroc_lower), GPPROBE_FIELD(loo_auroc_upper), GPPROBE_FIELD(loo_log_loss),
                 GPPROBE_NAMED(loo_verdict, kLooVerdictNames), GPPROBE_FIELD(heldout_rows),
                 GPPROBE_FIELD(heldout_positives), GPPROBE_FIELD(heldout_auroc),
                 GPPROBE_FIELD(heldout_auroc_standard_error), GPPROBE_FIELD(heldout_auroc_lower),
                 GPPROBE_FIELD(heldout_auroc_upper), GPPROBE_FIELD(queries), GPPROBE_FIELD(mean_judged_probability),
                 GPPROBE_FIELD(mean_episteme), GPPROBE_FIELD(mean_alea), GPPROBE_FIELD(decided_fraction),
                 GPPROBE_FIELD(ood_rows), GPPROBE_FIELD(ood_auroc), GPPROBE_FIELD(basis_auroc),
                 GPPROBE_FIELD(basis_auroc_lower), GPPROBE_FIELD(basis_auroc_upper),
                 GPPROBE_FIELD(difference_from_best), GPPROBE_FIELD(p_value_against_best), GPPROBE_FIELD(separates),
                 GPPROBE_FIELD(indistinguishable_from_best), GPPROBE_FIELD(below_half));

// How a representation fares over repeated draws of the observations (draw_comparison.h); empty vectors
// and NaN numbers when the comparison was not resampled.
struct DrawnProbe {
  std::vector<double> auroc;                                                  // the basis AUROC of each draw
  double mean = 0.0, standard_deviation = 0.0, minimum = 0.0, maximum = 0.0;  // over the draws
  double lower = 0.0, upper = 0.0;    // 99% interval of the mean AUROC over draws (draw_comparison.h)
  double difference_from_best = 0.0;  // mean over draws of A_k - A_best
  double p_value_against_best = 1.0, holm_p_value = 1.0;  // the across-draws test, and Holm-adjusted
  bool separates = false, below_half = false;             // the interval lies above / below 1/2
  bool indistinguishable_from_best = false;               // holm_p_value >= 0.01 (true for the best)
  std::size_t highest_in_draws = 0;  // draws in which it had the highest AUROC (the first of equals)
  std::size_t claimed_in_draws = 0;  // draws whose own DeLong tests put it above every other at 99%
};
GPPROBE_DESCRIBE(DrawnProbe, "DrawnProbeValue", GPPROBE_FIELD(auroc), GPPROBE_FIELD(mean),
                 GPPROBE_FIELD(standard_deviation), GPPROBE_FIELD(minimum), GPPROBE_FIELD(maximum),
                 GPPROBE_FIELD(lower), GPPROBE_FIELD(upper), GPPROBE_FIELD(difference_from_best),
                 GPPROBE_FIELD(p_value_against_best), GPPROBE_FIELD(holm_p_value), GPPROBE_FIELD(separates),
                 GPPROBE_FIELD(below_half), GPPROBE_FIELD(indistinguishable_from_best), GPPROBE_FIELD(highest_in_draws),
                 GPPROBE_FIELD(claimed_in_draws));

enum class DrawMode { none, redraw, bootstrap };
inline constexpr EnumNames<DrawMode, 3> kDrawModeNames = {
    {{DrawMode::none, "none"}, {DrawMode::redraw, "redraw"}, {DrawMode::bootstrap, "bootstrap"}}};
// "none", "redraw", "bootstrap".
inline const char* draw_mode_name(DrawMode mode) { return name_of(kDrawModeNames, mode); }

struct DrawnComparison {
  DrawMode mode = DrawMode::none;  // none: one set of observations, nothing below is set
  std::size_t draws = 0;
  std::size_t observations = 0;    // per draw
  std::size_t labelled_rows = 0;   // the rows drawn from (redraw) or the given observations (bootstrap)
  std::size_t basis_rows = 0;      // rows each draw's AUROC is measured on (the first draw's)
  std::vector<DrawnProbe> probes;  // one per representation
  std::size_t best = 0;            // the highest mean AUROC (the first of equals)
  std::size_t comparisons = 0;     // the tests Holm's correction counts: representations - 1
};
GPPROBE_DESCRIBE(DrawnComparison, "DrawnComparisonValue", GPPROBE_NAMED(mode, kDrawModeNames), GPPROBE_FIELD(draws),
                 GPPROBE_FIELD(observations), GPPROBE_FIELD(labelled_rows), GPPROBE_FIELD(basis_rows),
                 GPPROBE_FIELD(best), GPPROBE_FIELD(comparisons), GPPROBE_FIELD(probes));

struct ConceptComparison {
  std::string concept;
  std::vector<RepresentationProbe> probes;  // one per representation, in the order given
  ComparisonBasis basis = ComparisonBasis::none;
  std::size_t basis_rows = 0;  // the rows the paired tests rank
  std::size_t best = 0;        // index into probes (meaningless when basis is none)
  // The paired tests of every pair, K by K row-major (a, b): A_a - A_b, its standard error and the
  // two-sided p-value (1 on the diagonal); NaN when the basis is none.
  std::vector<double> difference, standard_error, p_value;
  DrawnComparison draws;  // over draws of the observations (compare_over_draws); mode none otherwise
  std::string sentence;   // comparison_sentence.h: of the draws when there are any
};
GPPROBE_DESCRIBE(ConceptComparison, "ConceptComparisonValue", GPPROBE_FIELD(concept),
                 GPPROBE_NAMED(basis, kComparisonBasisNames), GPPROBE_FIELD(basis_rows), GPPROBE_FIELD(best),
                 GPPROBE_FIELD(difference), GPPROBE_FIELD(standard_error), GPPROBE_FIELD(p_value),
                 GPPROBE_FIELD(sentence), GPPROBE_FIELD(probes), GPPROBE_FIELD(draws));

struct ComparisonResult {
  std::vector<ConceptComparison> concepts;
  double episteme_threshold = 0.0;  // the one used
  double decided = 0.1;
  LayerNames layers;  // the embeddings' layer numbers, when their names carry them (the profile's order)
};
// The layer names are shown flat: layered, layer_noun, layer_numbers.
inline bool comparison_layered(const ComparisonResult& r) { return r.layers.layered; }
inline std::string comparison_layer_noun(const ComparisonResult& r) { return r.layers.noun; }
inline std::vector<long long> comparison_layer_numbers(const ComparisonResult& r) { return r.layers.numbers; }
GPPROBE_DESCRIBE(ComparisonResult, "ComparisonValue", GPPROBE_FIELD(episteme_threshold), GPPROBE_FIELD(decided),
                 GPPROBE_COVERED(layers), GPPROBE_COMPUTED("layered", comparison_layered),
                 GPPROBE_COMPUTED("layer_noun", comparison_layer_noun),
                 GPPROBE_COMPUTED("layer_numbers", comparison_layer_numbers), GPPROBE_FIELD(concepts));

// The whole comparison in one call: a ComparisonRun started with the representations' names and rows,
// each representation probed for every concept in turn (representation by representation), finished.
Result<ComparisonResult> compare_representations(const std::vector<Representation>& representations,
                                                 const std::vector<ComparedConcept>& concepts,
                                                 const ComparisonOptions& options = {},
                                                 const ProgressCallback& progress = {});

// The same in steps, for callers that hold one embedding at a time (the app copies each into the wasm
// heap in turn, and yields between steps to show progress and take a cancel): start with the names and
// the row count, probe every (concept, representation) cell in any order, then finish.
class ComparisonRun {
 public:
  // Checks the concepts against `rows` and the options; copies the labels. `names`: the K embeddings.
  static Result<ComparisonRun> start(std::vector<std::string> names, std::size_t rows,
                                     const std::vector<ComparedConcept>& concepts,
                                     const ComparisonOptions& options = {});
  // The same, observation rows allowed to repeat (a bootstrap resample, draw_comparison.h).
  static Result<ComparisonRun> start_resampled(std::vector<std::string> names, std::size_t rows,
                                               const std::vector<ComparedConcept>& concepts,
                                               const ComparisonOptions& options = {});

  // Probes concept `concept` in representation `k` (embeddings: the n rows; ood: its OOD set or empty).
  // The representation's values are checked the first time it is probed. Progress counts the rows scored
  // in this call, of n + ood rows. Probing a cell again replaces its numbers.
  Status probe(std::size_t concept, std::size_t k, const MatrixView& embeddings, const MatrixView& ood = {},
               const ProgressCallback& progress = {});

  bool complete() const;
  // The paired tests and sentences; invalid_argument naming the first cell not yet probed.
  Result<ComparisonResult> finish() const;

  std::size_t representations() const { return names_.size(); }
  std::size_t concepts() const { return concepts_.size(); }
  std::size_t rows() const { return rows_; }

 private:
  struct Concept {
    std::string name;
    std::vector<std::uint8_t> labels;
    std::vector<std::size_t> observations;
    std::vector<std::size_t> heldout;  // labelled rows that are not observations
  };
  struct Cell {
    bool done = false;
    RepresentationProbe probe;
    std::vector<double> heldout_scores, loo_scores;  // judged probabilities of the held-out rows, LOO
  };
  ComparisonRun() = default;
  static Result<ComparisonRun> start_impl(std::vector<std::string> names, std::size_t rows,
                                          const std::vector<ComparedConcept>& concepts,
                                          const ComparisonOptions& options, bool repeats_allowed);

  std::vector<std::string> names_;
  std::size_t rows_ = 0;
  std::vector<Concept> concepts_;
  ComparisonOptions options_;
  double episteme_threshold_ = 0.0;
  std::vector<std::size_t> widths_;  // per representation: its columns once checked, 0 before
  std::vector<Cell> cells_;          // concept-major: cells_[concept * K + k]
};

// The episteme of a probe with one observation, scored at that observation's own point (the same for
// either label; k(a, a) = v makes it independent of a and d).
Result<double> one_observation_episteme(const ProbeOptions& options);

}  // namespace gpprobe
