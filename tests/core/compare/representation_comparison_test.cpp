// The comparison of representations against probing each embedding alone: for every (concept,
// embedding), a probe fitted on the observation rows copied out of that embedding, scoring a matrix of
// the query rows only, with leave_one_out, metrics.h and DeLong on those numbers, must give every number
// of the table to 1e-12; a second concept (the grid) must give what it gives compared alone. Also the
// fall-back to leave-one-out when the held-out rows lack a class, one observation's episteme against
// its closed form, progress and cancel, and each bad input's message.
#include "gpprobe/compare/representation_comparison.h"

#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "gpprobe/compare/auroc_interval.h"
#include "gpprobe/compare/delong.h"
#include "gpprobe/evaluation/metrics.h"
#include "gpprobe/probe/beta_prior.h"
#include "gpprobe/probe/uncertainty_measures.h"

#include "evaluation/evaluation_fixtures.h"

namespace gpprobe {
namespace {

constexpr double kTight = 1e-12;

// n rows of three embeddings of the same items: noise (width 6), a weak signal (width 12, float32) and a
// strong one (width 24); each row's label comes from the items, a few rows have none.
struct Layers {
  std::size_t n = 240;
  RowMatrix noise, weak, strong_ood, strong;
  std::vector<float> weak32;
  std::vector<std::uint8_t> labels, second;
  std::vector<std::size_t> observations, second_observations;

  Layers() {
    std::mt19937 rng(2024);
    std::normal_distribution<double> z(0.0, 1.0);
    labels.resize(n);
    second.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      labels[i] = std::uint8_t(i % 3 == 0);
      second[i] = std::uint8_t(i % 2);
    }
    for (std::size_t i = 0; i < n; i += 17) labels[i] = kUnlabelled;
    noise.resize(Eigen::Index(n), 6);
    RowMatrix weak64(Eigen::Index(n), 12);
    strong.resize(Eigen::Index(n), 24);
    for (std::size_t i = 0; i < n; ++i) {
      const double a = (i % 3 == 0) ? 1.0 : -1.0, b = (i % 2) ? 1.0 : -1.0;
      for (int j = 0; j < 6; ++j) noise(Eigen::Index(i), j) = z(rng);
      for (int j = 0; j < 12; ++j)
        weak64(Eigen::Index(i), j) = z(rng) + (j == 0 ? 0.8 * a : 0.0) + (j == 1 ? 0.5 * b : 0.0);
      for (int j = 0; j < 24; ++j)
        strong(Eigen::Index(i), j) = z(rng) + (j < 3 ? 2.0 * a : 0.0) + (j == 3 ? 1.5 * b : 0.0);
    }
    weak32.resize(n * 12);
    for (std::size_t k = 0; k < weak32.size(); ++k) weak32[k] = float(weak64.data()[k]);
    strong_ood.resize(50, 24);
    for (int i = 0; i < 50; ++i)
      for (int j = 0; j < 24; ++j) strong_ood(i, j) = 3.0 * z(rng) + (j == 5 ? 6.0 : 0.0);
    // 8 of each class, the same rows in every embedding
    for (std::size_t i = 1, pos = 0, neg = 0; i < n && (pos < 8 || neg < 8); i += 7) {
      if (labels[i] == kUnlabelled) continue;
      if (labels[i] && pos < 8) observations.push_back(i), ++pos;
      if (!labels[i] && neg < 8) observations.push_back(i), ++neg;
    }
    second_observations = {0, 1, 2, 3, 4, 5, 10, 11};
  }

  std::vector<Representation> representations() const {
    return {{"layer_0.npy", MatrixView(noise), {}},
            {"layer_1.npy", MatrixView(weak32.data(), n, 12), {}},
            {"layer_2.npy", MatrixView(strong), MatrixView(strong_ood)}};
  }
};

// One probe alone: the numbers the table must hold, computed without the comparison.
struct Alone {
  LeaveOneOut loo;
  std::vector<double> heldout_scores;
  double heldout_auroc = NAN, heldout_se = NAN, mean_judged = 0, mean_episteme = 0, mean_alea = 0, decided = 0,
         ood_auroc = NAN;
};

Alone probe_alone(const Representation& rep, const std::vector<std::uint8_t>& labels,
                  const std::vector<std::size_t>& observations, const ProbeOptions& options, double threshold) {
  const std::size_t n = rep.embeddings.rows(), d = rep.embeddings.cols();
  RowMatrix X(Eigen::Index(observations.size()), Eigen::Index(d));
  std::vector<std::uint8_t> y;
  for (std::size_t i = 0; i < observations.size(); ++i) {
    for (std::size_t j = 0; j < d; ++j) X(Eigen::Index(i), Eigen::Index(j)) = rep.embeddings.at(observations[i], j);
    y.push_back(labels[observations[i]]);
  }
  ProbeOptions o = options;
  o.expected_queries = n;
  Result<Probe> fitted = Probe::fit(MatrixView(X), y.data(), y.size(), o);
  EXPECT_TRUE(fitted.ok()) << fitted.status().message();
  const Probe& probe = fitted.value();
  Alone a;
  a.loo = leave_one_out(probe).value();
  std::vector<std::size_t> query_rows;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::find(observations.begin(), observations.end(), i) == observations.end()) query_rows.push_back(i);
  }
  RowMatrix Q(Eigen::Index(query_rows.size()), Eigen::Index(d));
  for (std::size_t i = 0; i < query_rows.size(); ++i)
    for (std::size_t j = 0; j < d; ++j) Q(Eigen::Index(i), Eigen::Index(j)) = rep.embeddings.at(query_rows[i], j);
  const std::size_t q = query_rows.size();
  std::vector<double> judged(q), episteme(q), alea(q), ood(q);
  ProbeScoreColumns out;
  out.judged_probability = judged.data();
  out.episteme = episteme.data();
  out.alea = alea.data();
  out.ood_score = ood.data();
  EXPECT_TRUE(probe.score(MatrixView(Q), out).ok());
  std::vector<std::uint8_t> heldout_labels;
  for (std::size_t i = 0; i < q; ++i) {
    a.mean_judged += judged[i] / double(q);
    a.mean_episteme += episteme[i] / double(q);
    a.mean_alea += alea[i] / double(q);
    a.decided += ((judged[i] < 0.1 || judged[i] > 0.9) && episteme[i] >= threshold) ? 1.0 / double(q) : 0.0;
    if (labels[query_rows[i]] != kUnlabelled) {
      heldout_labels.push_back(labels[query_rows[i]]);
      a.heldout_scores.push_back(judged[i]);
    }
  }
  a.heldout_auroc = auroc(heldout_labels.data(), a.heldout_scores.data(), heldout_labels.size()).value();
  a.heldout_se = auroc_standard_error(heldout_labels.data(), a.heldout_scores.data(), heldout_labels.size()).value();
  if (!rep.ood.empty()) {
    RowMatrix O(Eigen::Index(rep.ood.rows()), Eigen::Index(d));
    for (std::size_t i = 0; i < rep.ood.rows(); ++i)
      for (std::size_t j = 0; j < d; ++j) O(Eigen::Index(i), Eigen::Index(j)) = rep.ood.at(i, j);
    std::vector<double> ood_rows(rep.ood.rows());
    ProbeScoreColumns ood_out;
    ood_out.ood_score = ood_rows.data();
    EXPECT_TRUE(probe.score(MatrixView(O), ood_out).ok());
    std::vector<std::uint8_t> in(q, 1);
    in.resize(q + ood_rows.size(), 0);
    std::vector<double> scores = ood;
    scores.insert(scores.end(), ood_rows.begin(), ood_rows.end());
    a.ood_auroc = auroc(in.data(), scores.data(), scores.size()).value();
  }
  return a;
}

void expect_equal_to_alone(const RepresentationProbe& p, const Alone& a, std::size_t width) {
  SCOPED_TRACE(p.name);
  constexpr double z = 2.5758293035489004;
  EXPECT_EQ(p.width, width);
  EXPECT_NEAR(p.loo_auroc, a.loo.auroc, kTight);
  EXPECT_NEAR(p.loo_auroc_standard_error, a.loo.auroc_standard_error, kTight);
  // The intervals: honest_auroc_interval (pinned to scripts/fixtures/reference_compare_draws.py in
  // draw_comparison_test.cpp) of each AUROC with its own class counts.
  const AurocInterval loo =
      honest_auroc_interval(a.loo.auroc, a.loo.auroc_standard_error, a.loo.positives, a.loo.negatives, z);
  EXPECT_NEAR(p.loo_auroc_lower, loo.lower, kTight);
  EXPECT_NEAR(p.loo_auroc_upper, loo.upper, kTight);
  EXPECT_LE(p.loo_auroc_lower, std::max(0.0, a.loo.auroc - z * a.loo.auroc_standard_error) + kTight);
  EXPECT_GE(p.loo_auroc_upper, std::min(1.0, a.loo.auroc + z * a.loo.auroc_standard_error) - kTight);
  EXPECT_NEAR(p.loo_log_loss, a.loo.log_loss, kTight);
  EXPECT_EQ(p.loo_verdict, a.loo.verdict);
  EXPECT_NEAR(p.heldout_auroc, a.heldout_auroc, kTight);
  EXPECT_NEAR(p.heldout_auroc_standard_error, a.heldout_se, kTight);
  const AurocInterval heldout = honest_auroc_interval(a.heldout_auroc, a.heldout_se, p.heldout_positives,
                                                      p.heldout_rows - p.heldout_positives, z);
  EXPECT_NEAR(p.heldout_auroc_lower, heldout.lower, kTight);
  EXPECT_NEAR(p.heldout_auroc_upper, heldout.upper, kTight);
  EXPECT_NEAR(p.mean_judged_probability, a.mean_judged, kTight);
  EXPECT_NEAR(p.mean_episteme, a.mean_episteme, kTight);
  EXPECT_NEAR(p.mean_alea, a.mean_alea, kTight);
  EXPECT_NEAR(p.decided_fraction, a.decided, kTight);
  if (std::isnan(a.ood_auroc)) {
    EXPECT_TRUE(std::isnan(p.ood_auroc));
  } else {
    EXPECT_NEAR(p.ood_auroc, a.ood_auroc, kTight);
  }
}

TEST(RepresentationComparison, EveryNumberEqualsProbingEachEmbeddingAlone) {
  const Layers data;
  const std::vector<Representation> reps = data.representations();
  ComparisonOptions options;
  options.probe.epsilon = 0.1;
  options.probe.strength = 5.0;
  const std::vector<ComparedConcept> concepts = {{"thirds", data.labels.data(), data.n, data.observations},
                                                 {"odd", data.second.data(), data.n, data.second_observations}};
  Result<ComparisonResult> r = compare_representations(reps, concepts, options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const double threshold = one_observation_episteme(options.probe).value();
  EXPECT_EQ(r.value().episteme_threshold, threshold);
  ASSERT_EQ(r.value().concepts.size(), 2u);
  for (std::size_t c = 0; c < 2; ++c) {
    const ConceptComparison& cc = r.value().concepts[c];
    const std::vector<std::uint8_t>& labels = c == 0 ? data.labels : data.second;
    const std::vector<std::size_t>& rows = c == 0 ? data.observations : data.second_observations;
    EXPECT_EQ(cc.concept, concepts[c].name);
    ASSERT_EQ(cc.probes.size(), 3u);
    EXPECT_EQ(cc.basis, ComparisonBasis::heldout);
    std::vector<Alone> alone;
    for (std::size_t k = 0; k < 3; ++k) {
      alone.push_back(probe_alone(reps[k], labels, rows, options.probe, threshold));
      expect_equal_to_alone(cc.probes[k], alone[k], reps[k].embeddings.cols());
      EXPECT_EQ(cc.probes[k].queries, data.n - rows.size());
    }
    // The paired tests are DeLong's on the held-out judged probabilities of the probes alone.
    std::vector<std::uint8_t> heldout_labels;
    for (std::size_t i = 0; i < data.n; ++i) {
      if (labels[i] != kUnlabelled && std::find(rows.begin(), rows.end(), i) == rows.end()) {
        heldout_labels.push_back(labels[i]);
      }
    }
    EXPECT_EQ(cc.basis_rows, heldout_labels.size());
    const AurocCovariance cov = delong_covariance(heldout_labels.data(), heldout_labels.size(),
                                                  {alone[0].heldout_scores.data(), alone[1].heldout_scores.data(),
                                                   alone[2].heldout_scores.data()})
                                    .value();
    for (std::size_t a = 0; a < 3; ++a) {
      for (std::size_t b = 0; b < 3; ++b) {
        const PairedAurocTest t = paired_auroc_test(cov, a, b);
        EXPECT_NEAR(cc.difference[a * 3 + b], t.difference, kTight);
        EXPECT_NEAR(cc.standard_error[a * 3 + b], t.standard_error, kTight);
        EXPECT_NEAR(cc.p_value[a * 3 + b], t.p_value, kTight);
      }
    }
  }
  // The first concept: the strong layer is best, the noise does not separate it.
  const ConceptComparison& thirds = r.value().concepts[0];
  EXPECT_EQ(thirds.best, 2u);
  EXPECT_FALSE(thirds.probes[0].separates);
  EXPECT_TRUE(thirds.probes[2].separates);
  EXPECT_NE(thirds.sentence.find("layer 0 does not separate the concept"), std::string::npos) << thirds.sentence;

  // The grid's second concept is what comparing it alone gives.
  Result<ComparisonResult> alone = compare_representations(reps, {concepts[1]}, options);
  ASSERT_TRUE(alone.ok());
  const ConceptComparison& a = alone.value().concepts[0];
  const ConceptComparison& b = r.value().concepts[1];
  EXPECT_EQ(a.sentence, b.sentence);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(a.probes[k].heldout_auroc, b.probes[k].heldout_auroc);
    EXPECT_EQ(a.probes[k].mean_episteme, b.probes[k].mean_episteme);
    EXPECT_EQ(a.probes[k].p_value_against_best, b.probes[k].p_value_against_best);
  }
}

TEST(RepresentationComparison, FallsBackToLeaveOneOutWhenHeldOutRowsLackAClass) {
  const Layers data;
  // Only the observations and one other row carry labels.
  std::vector<std::uint8_t> labels(data.n, kUnlabelled);
  for (std::size_t row : data.observations) labels[row] = data.labels[row];
  labels[2] = 1;
  const std::vector<Representation> reps = data.representations();
  const ComparedConcept concept {"sparse", labels.data(), data.n, data.observations};
  const ComparisonResult r = compare_representations(reps, {concept}).value();
  const ConceptComparison& c = r.concepts[0];
  EXPECT_EQ(c.basis, ComparisonBasis::leave_one_out);
  EXPECT_EQ(c.basis_rows, data.observations.size());
  std::vector<std::uint8_t> y;
  for (std::size_t row : data.observations) y.push_back(labels[row]);
  std::vector<std::vector<double>> loo;
  for (const Representation& rep : reps) {
    loo.push_back(probe_alone(rep, data.labels, data.observations, {}, r.episteme_threshold).loo.judged_probability);
  }
  const AurocCovariance cov =
      delong_covariance(y.data(), y.size(), {loo[0].data(), loo[1].data(), loo[2].data()}).value();
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(c.probes[k].heldout_rows, 1u);
    EXPECT_TRUE(std::isnan(c.probes[k].heldout_auroc));
    EXPECT_NEAR(c.probes[k].basis_auroc, cov.auroc[k], kTight);
    EXPECT_NEAR(c.p_value[k * 3 + c.best], paired_auroc_test(cov, k, c.best).p_value, kTight);
  }
  EXPECT_NE(c.sentence.find("on the same 16 observations"), std::string::npos) << c.sentence;
}

TEST(RepresentationComparison, OneObservationEpistemeIsItsClosedForm) {
  // One positive at a: f_alpha has prior v and noise var(eps + s) on target mean(eps + s); f_beta sees mu0
  // with noise v. So f = f_alpha - f_beta at a has mean v/(v + n)(t - mu0) and variance v n/(v + n) + v/2.
  for (const auto& [epsilon, strength] : std::vector<std::pair<double, double>>{{0.1, 5.0}, {1.0, 1.0}, {0.01, 20.0}}) {
    const BetaGpPrior prior = BetaGpPrior::make(epsilon, strength).value();
    const double v = prior.variance, noise = prior.raised.variance;
    const double mean = v / (v + noise) * (prior.raised.mean - prior.mean);
    const double variance = v * noise / (v + noise) + v / 2;
    ProbeOptions o;
    o.epsilon = epsilon;
    o.strength = strength;
    EXPECT_NEAR(one_observation_episteme(o).value(), uncertainty_measures(mean, variance).episteme, 1e-12);
  }
}

TEST(RepresentationComparison, ReportsProgressOverEveryRowAndCancels) {
  const Layers data;
  const std::vector<Representation> reps = data.representations();
  const ComparedConcept concept {"thirds", data.labels.data(), data.n, data.observations};
  std::size_t last = 0, total = 0;
  ASSERT_TRUE(compare_representations(reps, {concept, concept}, {}, [&](std::size_t done, std::size_t all) {
                EXPECT_GE(done, last);
                last = done;
                total = all;
                return true;
              }).ok());
  EXPECT_EQ(total, 2 * (3 * data.n + 50));
  EXPECT_EQ(last, total);
  const Result<ComparisonResult> cancelled =
      compare_representations(reps, {concept}, {}, [](std::size_t, std::size_t) { return false; });
  EXPECT_EQ(cancelled.status().code(), StatusCode::cancelled);
}

TEST(RepresentationComparison, EachBadInputNamesTheProblem) {
  const Layers data;
  const std::vector<Representation> reps = data.representations();
  const RowMatrix short_rows = data.strong.topRows(239);
  RowMatrix with_nan = data.noise;
  with_nan(4, 2) = NAN;
  const RowMatrix narrow_ood(3, 5);
  const ComparedConcept good{"thirds", data.labels.data(), data.n, data.observations};
  auto with_rows = [&](std::vector<std::size_t> rows) {
    return ComparedConcept{"c", data.labels.data(), data.n, rows};
  };
  std::vector<std::uint8_t> seven = data.second;
  seven[9] = 7;
  const std::size_t unlabelled_row = 17;  // a multiple of 17: no label
  ComparisonOptions bad_decided;
  bad_decided.decided = 0.5;
  testing::expect_statuses({
      {compare_representations({}, {good}).status(), StatusCode::invalid_argument,
       "compare needs at least one embedding"},
      {compare_representations({reps[0], {"short.npy", MatrixView(short_rows), {}}}, {good}).status(),
       StatusCode::dimension_mismatch,
       "embedding 'short.npy' has 239 rows, embedding 'layer_0.npy' has 240 rows; every embedding must hold the same "
       "rows"},
      {compare_representations({{"nan.npy", MatrixView(with_nan), {}}}, {good}).status(), StatusCode::non_finite,
       "embedding 'nan.npy' row 4, column 2 is NaN"},
      {compare_representations({{"x.npy", MatrixView(data.noise), MatrixView(narrow_ood)}}, {good}).status(),
       StatusCode::dimension_mismatch, "the OOD set of embedding 'x.npy' has 5 columns, the embedding has 6 columns"},
      {compare_representations(reps, {}).status(), StatusCode::invalid_argument, "compare needs at least one concept"},
      {compare_representations(reps, {{"short", data.labels.data(), 10, data.observations}}).status(),
       StatusCode::dimension_mismatch, "concept 'short' has 10 labels for 240 rows"},
      {compare_representations(reps, {{"seven", seven.data(), data.n, {0, 1}}}).status(), StatusCode::invalid_argument,
       "concept 'seven': the label of row 9 is 7; labels must be 0, 1 or 255 (unlabelled)"},
      {compare_representations(reps, {with_rows({3, 240})}).status(), StatusCode::invalid_argument,
       "concept 'c': observation row 240 is out of range (240 rows)"},
      {compare_representations(reps, {with_rows({1, 3, 1})}).status(), StatusCode::invalid_argument,
       "concept 'c': observation row 1 is listed twice"},
      {compare_representations(reps, {with_rows({3, unlabelled_row})}).status(), StatusCode::invalid_argument,
       "concept 'c': observation row 17 has no label"},
      {compare_representations(reps, {with_rows({1, 2, 4})}).status(), StatusCode::invalid_argument,
       "concept 'c': the observations need both classes; all 3 are 0"},
      {compare_representations(reps, {with_rows({})}).status(), StatusCode::invalid_argument,
       "concept 'c': the observations need both classes; there are none"},
      {compare_representations(reps, {good}, bad_decided).status(), StatusCode::invalid_argument,
       "decided must be a number in (0, 0.5), got 0.5"},
  });
}

}  // namespace
}  // namespace gpprobe
