// Compare over draws of the observations, and the AUROC intervals that do not collapse, against
// scripts/fixtures/reference_compare_draws.py (tests/reference/compare/draws.json: numpy, scipy's Student t
// and root finder, DeLong from its pairwise definition): Newcombe's score interval and its hull with
// DeLong's, Student's t, Holm's adjustment, and the over-draws summary of records made there. Then the
// plumbing of compare_over_draws: its first draw is the comparison of the first draw's observations alone,
// its summary is the summary of every draw's comparison, the step API (DrawnComparisonRun) equals it,
// bootstrap and refusals, progress and cancel, and an
// 8 + 8 perfect separation whose interval no longer reads 1.000-1.000.
#include "gpprobe/compare/draw_comparison.h"

#include <cmath>
#include <fstream>
#include <random>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpprobe/common/random_stream.h"
#include "gpprobe/compare/auroc_interval.h"
#include "gpprobe/probe/observation_draw.h"

namespace gpprobe {
namespace {

constexpr double kZ = 2.5758293035489004;

nlohmann::json draws_fixture() {
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/tests/reference/compare/draws.json");
  return nlohmann::json::parse(in);
}

TEST(AurocInterval, NewcombesScoreIntervalAndItsHullWithDeLongs) {
  const nlohmann::json doc = draws_fixture();
  EXPECT_NEAR(doc["z"].get<double>(), kZ, 1e-15);
  for (const nlohmann::json& c : doc["score_intervals"]) {
    SCOPED_TRACE(c.dump());
    const AurocInterval i = auroc_score_interval(c["auroc"], c["positives"], c["negatives"], kZ);
    EXPECT_NEAR(i.lower, c["lower"].get<double>(), 1e-10);
    EXPECT_NEAR(i.upper, c["upper"].get<double>(), 1e-10);
  }
  for (const nlohmann::json& c : doc["honest_intervals"]) {
    SCOPED_TRACE(c.dump());
    const AurocInterval i = honest_auroc_interval(c["auroc"], c["standard_error"], c["positives"], c["negatives"], kZ);
    EXPECT_NEAR(i.lower, c["lower"].get<double>(), 1e-10);
    EXPECT_NEAR(i.upper, c["upper"].get<double>(), 1e-10);
  }
  // 8 + 8 perfectly separated: DeLong's standard error is 0, the interval is not (0.633 by hand too:
  // (1 - 0.633)^2 = 0.1347 = z^2 V(0.633)).
  const AurocInterval perfect = honest_auroc_interval(1.0, 0.0, 8, 8, kZ);
  EXPECT_NEAR(perfect.lower, 0.633, 5e-4);
  EXPECT_EQ(perfect.upper, 1.0);
  const AurocInterval none = auroc_score_interval(NAN, 8, 8, kZ);
  EXPECT_TRUE(std::isnan(none.lower) && std::isnan(none.upper));
}

TEST(DrawComparison, StudentsTAndHolmAgainstScipy) {
  const nlohmann::json doc = draws_fixture();
  for (const nlohmann::json& c : doc["student_t"]) {
    SCOPED_TRACE(c.dump());
    EXPECT_NEAR(student_t_two_sided_p(c["t"], c["df"]), c["p"].get<double>(), 1e-12);
  }
  for (const nlohmann::json& c : doc["student_t_critical"]) {
    SCOPED_TRACE(c.dump());
    EXPECT_NEAR(student_t_critical(c["alpha"], c["df"]), c["t"].get<double>(), 1e-9);
  }
  for (const nlohmann::json& c : doc["holm"]) {
    const std::vector<double> adjusted = holm_adjusted(c["p"].get<std::vector<double>>());
    const std::vector<double> expected = c["adjusted"].get<std::vector<double>>();
    ASSERT_EQ(adjusted.size(), expected.size());
    for (std::size_t i = 0; i < adjusted.size(); ++i) EXPECT_NEAR(adjusted[i], expected[i], 1e-15) << c.dump();
  }
}

TEST(DrawComparison, TheSummaryOverDrawsAgainstTheReference) {
  const nlohmann::json doc = draws_fixture();
  for (const nlohmann::json& c : doc["draw_cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    std::vector<DrawRecord> records;
    for (const nlohmann::json& r : c["records"]) {
      DrawRecord d;
      d.auroc = r["auroc"].get<std::vector<double>>();
      d.variance = r["variance"].get<std::vector<double>>();
      d.difference_variance = r["difference_variance"].get<std::vector<double>>();
      d.claimed = r["claimed"];
      records.push_back(d);
    }
    const DrawnComparison s = summarize_draws(records, c["basis_positives"], c["basis_negatives"]);
    EXPECT_EQ(s.draws, records.size());
    EXPECT_EQ(s.best, c["best"].get<std::size_t>());
    EXPECT_EQ(s.comparisons, records.front().auroc.size() - 1);
    ASSERT_EQ(s.probes.size(), c["probes"].size());
    for (std::size_t k = 0; k < s.probes.size(); ++k) {
      SCOPED_TRACE(k);
      const DrawnProbe& p = s.probes[k];
      const nlohmann::json& e = c["probes"][k];
      for (auto [value, key] :
           {std::pair{p.mean, "mean"}, std::pair{p.standard_deviation, "standard_deviation"},
            std::pair{p.minimum, "minimum"}, std::pair{p.maximum, "maximum"}, std::pair{p.lower, "lower"},
            std::pair{p.upper, "upper"}, std::pair{p.difference_from_best, "difference_from_best"},
            std::pair{p.p_value_against_best, "p_value_against_best"}, std::pair{p.holm_p_value, "holm_p_value"}}) {
        EXPECT_NEAR(value, e[key].get<double>(), 1e-10) << key;
      }
      EXPECT_EQ(p.separates, e["separates"].get<bool>());
      EXPECT_EQ(p.below_half, e["below_half"].get<bool>());
      EXPECT_EQ(p.indistinguishable_from_best, e["indistinguishable_from_best"].get<bool>());
      EXPECT_EQ(p.highest_in_draws, e["highest_in_draws"].get<std::size_t>());
      EXPECT_EQ(p.claimed_in_draws, e["claimed_in_draws"].get<std::size_t>());
    }
  }
}

// Three layers of 200 rows: noise, a weak and a strong signal of "i % 3 == 0"; 10 rows unlabelled.
struct Layers {
  std::size_t n = 200;
  std::vector<double> noise, weak, strong;
  std::vector<std::uint8_t> labels;
  Layers() {
    std::mt19937 rng(5);
    std::normal_distribution<double> z(0.0, 1.0);
    for (std::size_t i = 0; i < n; ++i) labels.push_back(i % 20 == 7 ? kUnlabelled : std::uint8_t(i % 3 == 0));
    for (std::size_t i = 0; i < n; ++i) {
      const double a = i % 3 == 0 ? 1.0 : -1.0;
      for (int j = 0; j < 4; ++j) noise.push_back(z(rng));
      for (int j = 0; j < 4; ++j) weak.push_back(z(rng) + (j == 0 ? 0.6 * a : 0.0));
      for (int j = 0; j < 4; ++j) strong.push_back(z(rng) + (j < 2 ? 1.5 * a : 0.0));
    }
  }
  std::vector<Representation> representations() const {
    return {{"layer_0", MatrixView(noise.data(), n, 4), {}},
            {"layer_1", MatrixView(weak.data(), n, 4), {}},
            {"layer_2", MatrixView(strong.data(), n, 4), {}}};
  }
};

// The rows draw r takes: draw_observations over the labelled rows with the seed of draw r (draw_comparison.h).
std::vector<std::size_t> drawn_rows(const Layers& l, std::size_t per_class, std::uint64_t seed) {
  std::vector<std::size_t> labelled;
  std::vector<std::uint8_t> compact;
  for (std::size_t i = 0; i < l.n; ++i) {
    if (l.labels[i] == kUnlabelled) continue;
    labelled.push_back(i);
    compact.push_back(l.labels[i]);
  }
  const Result<std::vector<std::size_t>> drawn = draw_observations(compact.data(), compact.size(), per_class, seed);
  std::vector<std::size_t> rows;
  for (std::size_t k : drawn.value()) rows.push_back(labelled[k]);
  return rows;
}

TEST(DrawComparison, EachDrawIsTheComparisonOfItsObservationsAlone) {
  const Layers l;
  DrawOptions draws;
  draws.draws = 5;
  draws.per_class = 6;
  draws.seed = 42;
  const ComparedConcept concept {"thirds", l.labels.data(), l.n, {}};
  const ComparisonResult over = compare_over_draws(l.representations(), {concept}, {}, draws).value();
  const ConceptComparison& c = over.concepts[0];
  ASSERT_EQ(c.draws.mode, DrawMode::redraw);
  EXPECT_EQ(c.draws.draws, 5u);
  EXPECT_EQ(c.draws.observations, 12u);
  EXPECT_EQ(c.draws.labelled_rows, 190u);
  EXPECT_EQ(c.draws.comparisons, 2u);
  std::vector<DrawRecord> records;
  for (std::size_t r = 0; r < 5; ++r) {
    const std::uint64_t seed = r == 0 ? 42 : derive_seed(42, {r});
    ComparedConcept alone = concept;
    alone.observations = drawn_rows(l, 6, seed);
    const ConceptComparison a = compare_representations(l.representations(), {alone}).value().concepts[0];
    ASSERT_EQ(a.basis, ComparisonBasis::heldout);
    if (r == 0) {
      // The first draw's numbers are the table's.
      for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_EQ(c.probes[k].heldout_auroc, a.probes[k].heldout_auroc);
        EXPECT_EQ(c.probes[k].p_value_against_best, a.probes[k].p_value_against_best);
      }
    }
    for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(c.draws.probes[k].auroc[r], a.probes[k].heldout_auroc);
    DrawRecord d;
    for (const RepresentationProbe& p : a.probes) {
      d.auroc.push_back(p.heldout_auroc);
      d.variance.push_back(p.heldout_auroc_standard_error * p.heldout_auroc_standard_error);
    }
    for (double se : a.standard_error) d.difference_variance.push_back(se * se);
    std::size_t ties = 0;
    for (const RepresentationProbe& p : a.probes) ties += p.indistinguishable_from_best;
    d.claimed = ties == 1 ? a.best : 3;
    records.push_back(d);
  }
  const DrawnComparison expected =
      summarize_draws(records, c.probes[0].heldout_positives, c.probes[0].heldout_rows - c.probes[0].heldout_positives);
  EXPECT_EQ(c.draws.best, expected.best);
  EXPECT_EQ(c.draws.best, 2u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(c.draws.probes[k].mean, expected.probes[k].mean);
    EXPECT_EQ(c.draws.probes[k].holm_p_value, expected.probes[k].holm_p_value);
    EXPECT_EQ(c.draws.probes[k].claimed_in_draws, expected.probes[k].claimed_in_draws);
  }
  // Noise does not separate the concept over the draws; the sentence speaks of the draws and its condition.
  EXPECT_FALSE(c.draws.probes[0].separates);
  EXPECT_NE(c.sentence.find("over 5 draws"), std::string::npos) << c.sentence;
  EXPECT_NE(c.sentence.find("Conditional on these 190 labelled rows: each draw takes 12 observations from them"),
            std::string::npos)
      << c.sentence;
}

// The step API (one embedding at a time, as the app holds them) gives compare_over_draws' numbers to the
// bit, probing the embeddings in any order.
TEST(DrawComparison, StepsEqualTheWholeComparisonOverDraws) {
  const Layers l;
  DrawOptions draws;
  draws.draws = 4;
  draws.per_class = 6;
  draws.seed = 9;
  const std::vector<Representation> reps = l.representations();
  std::vector<std::uint8_t> second;
  for (std::size_t i = 0; i < l.n; ++i) second.push_back(std::uint8_t(i % 2));
  const std::vector<ComparedConcept> concepts = {{"thirds", l.labels.data(), l.n, {}}, {"odd", second.data(), l.n, {}}};
  const ComparisonResult whole = compare_over_draws(reps, concepts, {}, draws).value();
  Result<DrawnComparisonRun> run =
      DrawnComparisonRun::start({"layer_0", "layer_1", "layer_2"}, l.n, concepts, {}, draws);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run.value().draws(), 4u);
  EXPECT_EQ(run.value().observations(2, 0), drawn_rows(l, 6, derive_seed(9, {2})));
  EXPECT_FALSE(run.value().finish().ok());  // nothing probed yet
  std::size_t last = 0, total = 0;
  for (std::size_t k : {2, 0, 1}) {
    ASSERT_TRUE(run.value()
                    .probe(k, reps[k].embeddings, {},
                           [&](std::size_t done, std::size_t all) {
                             last = done;
                             total = all;
                             return true;
                           })
                    .ok());
    EXPECT_EQ(total, 4u * 2u * l.n);
    EXPECT_EQ(last, total);
  }
  ASSERT_TRUE(run.value().complete());
  const ComparisonResult steps = run.value().finish().value();
  ASSERT_EQ(steps.concepts.size(), 2u);
  for (std::size_t c = 0; c < 2; ++c) {
    EXPECT_EQ(steps.concepts[c].sentence, whole.concepts[c].sentence);
    EXPECT_EQ(steps.concepts[c].draws.best, whole.concepts[c].draws.best);
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(steps.concepts[c].draws.probes[k].auroc, whole.concepts[c].draws.probes[k].auroc);
      EXPECT_EQ(steps.concepts[c].draws.probes[k].lower, whole.concepts[c].draws.probes[k].lower);
      EXPECT_EQ(steps.concepts[c].draws.probes[k].holm_p_value, whole.concepts[c].draws.probes[k].holm_p_value);
      EXPECT_EQ(steps.concepts[c].probes[k].heldout_auroc, whole.concepts[c].probes[k].heldout_auroc);
    }
  }
  // Cancel inside the second draw of a representation.
  Result<DrawnComparisonRun> again =
      DrawnComparisonRun::start({"layer_0", "layer_1", "layer_2"}, l.n, concepts, {}, draws);
  EXPECT_EQ(again.value()
                .probe(0, reps[0].embeddings, {}, [&](std::size_t done, std::size_t) { return done < 3 * l.n; })
                .code(),
            StatusCode::cancelled);
  EXPECT_FALSE(again.value().complete());
  DrawOptions none = draws;
  none.mode = DrawMode::none;
  EXPECT_EQ(DrawnComparisonRun::start({"a"}, l.n, concepts, {}, none).status().message(),
            "draws: the mode must be redraw or bootstrap");
}

TEST(DrawComparison, BootstrapResamplesTheGivenRowsAndRefusesWithoutRowsToMeasureOn) {
  const Layers l;
  std::vector<std::size_t> given;
  for (std::size_t i = 0, pos = 0, neg = 0; i < l.n && (pos < 8 || neg < 8); ++i) {
    if (l.labels[i] == kUnlabelled) continue;
    if (l.labels[i] && pos < 8) given.push_back(i), ++pos;
    if (!l.labels[i] && neg < 8) given.push_back(i), ++neg;
  }
  DrawOptions draws;
  draws.draws = 4;
  draws.mode = DrawMode::bootstrap;
  draws.seed = 3;
  const ComparedConcept concept {"thirds", l.labels.data(), l.n, given};
  const ComparisonResult over = compare_over_draws(l.representations(), {concept}, {}, draws).value();
  const ConceptComparison& c = over.concepts[0];
  // Draw 0 is the given rows.
  const ConceptComparison alone = compare_representations(l.representations(), {concept}).value().concepts[0];
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(c.draws.probes[k].auroc[0], alone.probes[k].heldout_auroc);
  EXPECT_EQ(c.draws.labelled_rows, 16u);
  EXPECT_NE(c.sentence.find("Conditional on the 16 given observations, resampled with replacement"), std::string::npos)
      << c.sentence;
  // Draw 1 is a resample with repeats, class 1 first, one stream.
  RandomStream stream(derive_seed(3, {1}));
  std::vector<std::size_t> resample;
  for (int label : {1, 0}) {
    std::vector<std::size_t> pool;
    for (std::size_t row : given)
      if (l.labels[row] == label) pool.push_back(row);
    for (std::size_t i = 0; i < pool.size(); ++i) resample.push_back(pool[stream.index(pool.size())]);
  }
  ComparedConcept one = concept;
  one.observations = resample;
  const ConceptComparison first = compare_resampled(l.representations(), {one}).value().concepts[0];
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(c.draws.probes[k].auroc[1], first.probes[k].heldout_auroc);
  // A repeated row is refused where repeats are not resampling.
  EXPECT_EQ(compare_representations(l.representations(), {one}).status().code(), StatusCode::invalid_argument);

  // Every labelled row given: nothing to measure the resamples on.
  std::vector<std::uint8_t> few(l.n, kUnlabelled);
  for (std::size_t row : given) few[row] = l.labels[row];
  const ComparedConcept only{"thirds", few.data(), l.n, given};
  const Status refused = compare_over_draws(l.representations(), {only}, {}, draws).status();
  EXPECT_EQ(refused.code(), StatusCode::invalid_argument);
  EXPECT_EQ(refused.message(),
            "concept 'thirds': resampling the given observations needs at least 2 other labelled rows of each class "
            "to measure each draw on (there are 0 of class 1 and 0 of class 0); a repeated row's leave-one-out "
            "probability would see its twin. Label more rows, or compare the one set of observations alone");
  DrawOptions one_draw = draws;
  one_draw.draws = 1;
  EXPECT_EQ(compare_over_draws(l.representations(), {concept}, {}, one_draw).status().message(),
            "draws must be between 2 and 10000, got 1 (one set of observations: compare_representations)");
}

TEST(DrawComparison, ProgressCountsEveryDrawAndFalseCancels) {
  const Layers l;
  DrawOptions draws;
  draws.draws = 3;
  draws.per_class = 5;
  const ComparedConcept concept {"thirds", l.labels.data(), l.n, {}};
  std::size_t last = 0, total = 0;
  bool monotone = true;
  ASSERT_TRUE(compare_over_draws(l.representations(), {concept}, {}, draws, [&](std::size_t done, std::size_t all) {
                monotone = monotone && done >= last;
                last = done;
                total = all;
                return true;
              }).ok());
  EXPECT_TRUE(monotone);
  EXPECT_EQ(total, 3u * 3u * l.n);
  EXPECT_EQ(last, total);
  std::size_t calls = 0;
  const Status cancelled =
      compare_over_draws(l.representations(), {concept}, {}, draws, [&](std::size_t done, std::size_t) {
        ++calls;
        return done < l.n * 4;  // stops in the second draw
      }).status();
  EXPECT_EQ(cancelled.code(), StatusCode::cancelled);
}

TEST(DrawComparison, APerfectSeparationOf8And8DoesNotCollapse) {
  // One embedding where the 8 + 8 observations are perfectly separated and so are the held-out rows.
  std::vector<double> x;
  std::vector<std::uint8_t> labels;
  for (std::size_t i = 0; i < 40; ++i) {
    labels.push_back(std::uint8_t(i % 2));
    x.push_back(i % 2 ? 3.0 + 0.01 * double(i) : -3.0 - 0.01 * double(i));
  }
  std::vector<std::size_t> observations;
  for (std::size_t i = 0; i < 16; ++i) observations.push_back(i);
  const ComparisonResult r =
      compare_representations({{"only", MatrixView(x.data(), 40, 1), {}}}, {{"odd", labels.data(), 40, observations}})
          .value();
  const RepresentationProbe& p = r.concepts[0].probes[0];
  ASSERT_EQ(p.loo_auroc, 1.0);
  EXPECT_EQ(p.loo_auroc_standard_error, 0.0);               // DeLong's collapses...
  EXPECT_NEAR(p.loo_auroc_lower, 0.632992131346037, 1e-9);  // ...the interval does not (draws.json, 1.0, 8, 8)
  EXPECT_EQ(p.loo_auroc_upper, 1.0);
  ASSERT_EQ(p.heldout_auroc, 1.0);
  EXPECT_LT(p.heldout_auroc_lower, 1.0);
  EXPECT_NE(r.concepts[0].sentence.find("(99 % interval "), std::string::npos);
  EXPECT_EQ(r.concepts[0].sentence.find("1.000\u20131.000"), std::string::npos) << r.concepts[0].sentence;
}

}  // namespace
}  // namespace gpprobe
