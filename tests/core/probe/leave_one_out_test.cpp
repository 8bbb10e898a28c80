// Leave-one-out in closed form against refitting the probe without each observation (both spaces), the
// verdict on data whose labels are unrelated to it (chance), on separable data (separates) and on perfect
// rankings judged by the honest AUROC interval (issue 34: 8 + 8 separates, 3 + 5 too few), DeLong's
// standard error on a case worked by hand, and the knowledge gain against actually adding the label.
#include "gpprobe/probe/leave_one_out.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <random>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpprobe/evaluation/metrics.h"
#include "gpprobe/evaluation/synthetic_embeddings.h"
#include "gpprobe/probe/knowledge_gain.h"

#include "result_assertions.h"
#include "test_support.h"

namespace gpprobe {
namespace {

RowMatrix random_rows(int n, int d, std::mt19937& rng, double scale = 1.0) {
  std::normal_distribution<double> z(0.0, scale);
  RowMatrix x(n, d);
  for (int i = 0; i < x.size(); ++i) x.data()[i] = z(rng);
  return x;
}

Probe fitted(const RowMatrix& X, const std::vector<std::uint8_t>& y, double epsilon, double strength,
             PosteriorSpace space = PosteriorSpace::automatic) {
  return testing::fitted_probe(X, y, epsilon, strength, space);
}

// Refit without observation i and score a_i: the definition leave-one-out must equal.
struct Refit {
  double mean, variance, judged;
};
Refit refit_without(const RowMatrix& X, const std::vector<std::uint8_t>& y, std::size_t i, double epsilon,
                    double strength) {
  RowMatrix rest(X.rows() - 1, X.cols());
  std::vector<std::uint8_t> labels;
  for (Eigen::Index r = 0, k = 0; r < X.rows(); ++r) {
    if (std::size_t(r) == i) continue;
    rest.row(k++) = X.row(r);
    labels.push_back(y[std::size_t(r)]);
  }
  const Probe probe = fitted(rest, labels, epsilon, strength, PosteriorSpace::function);
  const RowMatrix query = X.row(Eigen::Index(i));
  Refit r{};
  ProbeScoreColumns out;
  out.latent_mean = &r.mean;
  out.latent_variance = &r.variance;
  out.judged_probability = &r.judged;
  EXPECT_TRUE(probe.score(MatrixView(query), out).ok());
  return r;
}

TEST(LeaveOneOut, EqualsRefittingWithoutEachObservationInBothSpaces) {
  std::mt19937 rng(7);
  double worst = 0;
  for (const auto& [O, d, epsilon, strength] : std::vector<std::tuple<int, int, double, double>>{
           {12, 5, 0.1, 5.0}, {30, 4, 0.01, 2.0}, {9, 40, 1.0, 10.0}, {20, 3, 3.0, 0.5}, {60, 8, 0.001, 50.0}}) {
    const RowMatrix X = random_rows(O, d, rng, 0.8);
    std::vector<std::uint8_t> y(static_cast<std::size_t>(O));
    for (int i = 0; i < O; ++i) y[std::size_t(i)] = std::uint8_t(X(i, 0) + 0.3 * X(i, 1) > 0 ? 1 : 0);
    y[0] = 1;
    y[1] = 0;
    for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
      const Probe probe = fitted(X, y, epsilon, strength);
      Result<LeaveOneOut> loo = leave_one_out(probe, space);
      ASSERT_TRUE(loo.ok()) << loo.status().message();
      for (int i = 0; i < O; ++i) {
        const Refit r = refit_without(X, y, std::size_t(i), epsilon, strength);
        SCOPED_TRACE(::testing::Message() << "O " << O << " d " << d << " space " << space_name(space) << " i " << i);
        EXPECT_NEAR(loo.value().latent_mean[std::size_t(i)], r.mean, 1e-9);
        EXPECT_NEAR(loo.value().latent_variance[std::size_t(i)], r.variance, 1e-9);
        EXPECT_NEAR(loo.value().judged_probability[std::size_t(i)], r.judged, 1e-9);
        worst = std::max({worst, std::fabs(loo.value().latent_mean[std::size_t(i)] - r.mean),
                          std::fabs(loo.value().latent_variance[std::size_t(i)] - r.variance),
                          std::fabs(loo.value().judged_probability[std::size_t(i)] - r.judged)});
      }
    }
  }
  std::cout << "leave-one-out vs refits: max |difference| " << worst << "\n";
}

TEST(LeaveOneOut, OneObservationFallsBackToThePriorAndNoneIsEmpty) {
  std::mt19937 rng(3);
  const RowMatrix X = random_rows(1, 6, rng);
  const Probe probe = fitted(X, {1}, 0.1, 5.0);
  const LeaveOneOut loo = ok_value(leave_one_out(probe));
  const double v = probe.prior().variance;
  EXPECT_NEAR(loo.latent_mean[0], 0.0, 1e-12);
  EXPECT_NEAR(loo.latent_variance[0], 2 * v, 1e-12);
  EXPECT_NEAR(loo.judged_probability[0], 0.5, 1e-12);
  EXPECT_EQ(loo.verdict, LooVerdict::too_few);
  EXPECT_TRUE(std::isnan(loo.auroc));
  EXPECT_TRUE(std::isnan(loo.auroc_interval.lower) && std::isnan(loo.log_loss_interval.upper));

  const RowMatrix none(0, 6);
  const LeaveOneOut empty = ok_value(leave_one_out(fitted(none, {}, 0.1, 5.0)));
  EXPECT_TRUE(empty.judged_probability.empty());
  EXPECT_EQ(empty.verdict, LooVerdict::too_few);
}

// 14 observations of 8 dimensions labelled by the sign of column 2 (both classes at least twice), and
// their leave-one-out check; the labels into *y.
LeaveOneOut fourteen_observations(std::vector<std::uint8_t>* y) {
  std::mt19937 rng(11);
  const RowMatrix X = random_rows(14, 8, rng);
  y->assign(14, 0);
  for (int i = 0; i < 14; ++i) (*y)[std::size_t(i)] = std::uint8_t(X(i, 2) > 0);
  (*y)[0] = 1;
  (*y)[1] = 0;
  (*y)[2] = 1;
  (*y)[3] = 0;
  return ok_value(leave_one_out(fitted(X, *y, 0.1, 5.0)));
}

TEST(LeaveOneOut, SummaryIsTheAurocAndLogLossOfTheLooProbabilities) {
  std::vector<std::uint8_t> y;
  const LeaveOneOut loo = fourteen_observations(&y);
  double loss = 0;
  std::vector<double> losses;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double p = loo.judged_probability[i];
    losses.push_back(-(y[i] ? std::log(p) : std::log1p(-p)));
    loss += losses.back() / double(y.size());
  }
  double squares = 0;
  for (double l : losses) squares += (l - loss) * (l - loss);
  EXPECT_NEAR(loo.log_loss, loss, 1e-12);
  EXPECT_NEAR(loo.log_loss_standard_error, std::sqrt(squares / 13.0 / 14.0), 1e-12);
  EXPECT_DOUBLE_EQ(loo.auroc, ok_value(auroc(y.data(), loo.judged_probability.data(), y.size())));
  EXPECT_EQ(loo.positives + loo.negatives, 14u);
}

// The intervals the result carries against their definition worked here from scratch: DeLong's variance from
// the placements of the leave-one-out probabilities (V_i the share of negatives a positive outranks, ties
// half; W_j likewise; var = s2(V)/m + s2(W)/n), sd(losses)/sqrt(O), and z the point where the standard
// normal's two-sided tail erfc(z/sqrt 2) is 1 - confidence, found by bisection.
TEST(LeaveOneOut, IntervalsAreValueMinusPlusTheNormalQuantileTimesTheStandardError) {
  std::vector<std::uint8_t> y;
  const LeaveOneOut loo = fourteen_observations(&y);
  EXPECT_EQ(loo.confidence, 0.99);
  std::vector<double> pos, neg, losses;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double p = loo.judged_probability[i];
    (y[i] ? pos : neg).push_back(p);
    losses.push_back(-(y[i] ? std::log(p) : std::log1p(-p)));
  }
  auto placement = [](double s, const std::vector<double>& others, bool above) {
    double share = 0;
    for (double o : others) share += (above ? s > o : s < o) ? 1.0 : s == o ? 0.5 : 0.0;
    return share / double(others.size());
  };
  auto mean_and_var = [](const std::vector<double>& v) {
    double m = 0, s2 = 0;
    for (double x : v) m += x / double(v.size());
    for (double x : v) s2 += (x - m) * (x - m) / double(v.size() - 1);
    return std::pair<double, double>{m, s2};
  };
  std::vector<double> V, W;
  for (double p : pos) V.push_back(placement(p, neg, true));
  for (double q : neg) W.push_back(placement(q, pos, false));
  const auto [auc, var_v] = mean_and_var(V);
  const double se_auc = std::sqrt(var_v / double(V.size()) + mean_and_var(W).second / double(W.size()));
  const auto [loss, var_loss] = mean_and_var(losses);
  const double se_loss = std::sqrt(var_loss / double(losses.size()));
  double lo = 0, hi = 10;
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (lo + hi);
    (std::erfc(mid / std::sqrt(2.0)) > 1.0 - loo.confidence ? lo : hi) = mid;
  }
  const double z = 0.5 * (lo + hi);
  EXPECT_NEAR(z, 2.5758293035489004, 1e-12);
  EXPECT_NEAR(loo.auroc_normal_interval.lower, auc - z * se_auc, 1e-12);
  EXPECT_NEAR(loo.auroc_normal_interval.upper, auc + z * se_auc, 1e-12);
  // The honest interval is never narrower than DeLong's (clipped to [0, 1]).
  EXPECT_LE(loo.auroc_interval.lower, std::max(0.0, auc - z * se_auc) + 1e-15);
  EXPECT_GE(loo.auroc_interval.upper, std::min(1.0, auc + z * se_auc) - 1e-15);
  EXPECT_NEAR(loo.log_loss_interval.lower, loss - z * se_loss, 1e-12);
  EXPECT_NEAR(loo.log_loss_interval.upper, loss + z * se_loss, 1e-12);
  EXPECT_GT(se_auc, 0.0);  // a case with width
}

// Labels unrelated to 32-dimensional data, 8 observations per class (the case): every seed warns.
TEST(LeaveOneOut, UnrelatedLabelsAreAtChance) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    const RowMatrix X = random_rows(16, 32, rng);
    std::vector<std::uint8_t> y(16);
    for (int i = 0; i < 16; ++i) y[std::size_t(i)] = std::uint8_t(i % 2);
    const LeaveOneOut loo = ok_value(leave_one_out(fitted(X, y, 0.1, 5.0)));
    EXPECT_EQ(loo.verdict, LooVerdict::chance) << "seed " << seed << ": AUROC " << loo.auroc << " ± "
                                               << loo.auroc_standard_error << ", log loss " << loo.log_loss;
  }
}

TEST(LeaveOneOut, SeparableClassesSeparate) {
  const SyntheticEmbeddings data = synthetic_embeddings(16, 32, 5);
  const RowMatrix X = Eigen::Map<const RowMatrix>(data.x.data(), 16, 32);
  const LeaveOneOut loo = ok_value(leave_one_out(fitted(X, data.labels, 0.1, 5.0)));
  EXPECT_EQ(loo.verdict, LooVerdict::separates) << "AUROC " << loo.auroc << ", log loss " << loo.log_loss;
  EXPECT_GT(loo.auroc_interval.lower, 0.5);
}

// Newcombe's score interval of a perfect ranking (AUROC 1, DeLong's standard error 0) from
// scripts/fixtures/reference_compare_draws.py (scipy's root finder), tests/reference/compare/draws.json.
double reference_perfect_lower(std::size_t positives, std::size_t negatives) {
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/tests/reference/compare/draws.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  for (const nlohmann::json& c : doc["score_intervals"]) {
    if (c["auroc"] == 1.0 && c["positives"] == positives && c["negatives"] == negatives) return c["lower"];
  }
  ADD_FAILURE() << "no reference interval for " << positives << " + " << negatives;
  return NAN;
}

// `positives` + `negatives` observations far apart along one axis: every one is ranked right.
LeaveOneOut perfectly_ranked(int positives, int negatives) {
  std::mt19937 rng(21);
  std::normal_distribution<double> z(0.0, 0.3);
  const int n = positives + negatives;
  RowMatrix X(n, 6);
  std::vector<std::uint8_t> y(std::size_t(n), 0);
  for (int i = 0; i < n; ++i) {
    y[std::size_t(i)] = std::uint8_t(i < positives);
    for (int j = 0; j < 6; ++j) X(i, j) = z(rng) + (j == 0 ? (i < positives ? 2.0 : -2.0) : 0.0);
  }
  return ok_value(leave_one_out(fitted(X, y, 0.1, 5.0)));
}

// Issue 34: 8 + 8 ranked perfectly gave "AUROC 1.00 ± 0.00", DeLong's interval collapsed to a point. The
// interval the verdict judges is the honest one, 0.633–1 (scipy), still above 1/2: separates.
TEST(LeaveOneOut, PerfectRankingOfEightAndEightHasAnHonestInterval) {
  const LeaveOneOut loo = perfectly_ranked(8, 8);
  ASSERT_EQ(loo.auroc, 1.0);
  EXPECT_EQ(loo.auroc_standard_error, 0.0);
  EXPECT_EQ(loo.auroc_normal_interval.lower, 1.0);  // DeLong's, kept beside it
  EXPECT_NEAR(loo.auroc_interval.lower, reference_perfect_lower(8, 8), 1e-10);
  EXPECT_EQ(loo.auroc_interval.upper, 1.0);
  EXPECT_EQ(loo.verdict, LooVerdict::separates);
}

// 3 + 5 ranked perfectly: DeLong's interval is 1–1 (it said "separates"), the honest one 0.43–1 (scipy)
// reaches 1/2, so the observations are too few to tell the ranking from chance.
TEST(LeaveOneOut, PerfectRankingOfThreeAndFiveIsTooFew) {
  const LeaveOneOut loo = perfectly_ranked(3, 5);
  ASSERT_EQ(loo.auroc, 1.0);
  EXPECT_GT(loo.auroc_normal_interval.lower, 0.5);
  EXPECT_NEAR(loo.auroc_interval.lower, reference_perfect_lower(3, 5), 1e-10);
  EXPECT_LE(loo.auroc_interval.lower, 0.5);
  EXPECT_EQ(loo.verdict, LooVerdict::too_few);
}

TEST(Metrics, AurocStandardErrorIsDeLongs) {
  // Positives 0.9, 0.6; negatives 0.7, 0.2. Placements V = (1, 1/2), W = (1/2, 1): AUROC 3/4,
  // s²(V) = s²(W) = 1/8, var = 1/16 + 1/16.
  const std::uint8_t y[] = {1, 1, 0, 0};
  const double scores[] = {0.9, 0.6, 0.7, 0.2};
  EXPECT_NEAR(ok_value(auroc_standard_error(y, scores, 4)), std::sqrt(0.125), 1e-15);
  // Ties count one half: positives 0.5, 0.5, negatives 0.5, 0.1. V = (3/4, 3/4), W = (1/2, 1): var = 0 + 1/16.
  const double tied[] = {0.5, 0.5, 0.5, 0.1};
  EXPECT_NEAR(ok_value(auroc_standard_error(y, tied, 4)), 0.25, 1e-15);
  const std::uint8_t one_positive[] = {1, 0, 0};
  Result<double> few = auroc_standard_error(one_positive, scores, 3);
  EXPECT_EQ(few.status().message(),
            "auroc_standard_error needs at least 2 labels of each class, got 1 positive and 2 negative");
}

// The closed form against the probe's own update: add the label, score the query again.
TEST(KnowledgeGain, IsTheExpectedKnowledgeRiseOfAddingTheLabel) {
  std::mt19937 rng(5);
  const RowMatrix X = random_rows(10, 6, rng);
  const std::vector<std::uint8_t> y = {1, 0, 1, 0, 0, 1, 1, 0, 0, 1};
  const RowMatrix Q = random_rows(7, 6, rng);
  for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
    const Probe probe = fitted(X, y, 0.1, 5.0);
    std::vector<double> gain(7);
    ASSERT_TRUE(knowledge_gain(probe, MatrixView(Q), gain.data(), {}, space).ok());
    for (Eigen::Index q = 0; q < Q.rows(); ++q) {
      const RowMatrix a = Q.row(q);
      double p = 0, knowledge = 0;
      ProbeScoreColumns now;
      now.judged_probability = &p;
      now.knowledge = &knowledge;
      ASSERT_TRUE(probe.score(MatrixView(a), now).ok());
      double expected = 0;
      for (std::uint8_t label : {0, 1}) {
        Probe more = fitted(X, y, 0.1, 5.0);
        ASSERT_TRUE(more.add_observation(MatrixView(a), label).ok());
        double after = 0;
        ProbeScoreColumns out;
        out.knowledge = &after;
        ASSERT_TRUE(more.score(MatrixView(a), out).ok());
        expected += (label ? p : 1 - p) * (after - knowledge);
      }
      EXPECT_NEAR(gain[std::size_t(q)], expected, 1e-12) << space_name(space) << " query " << q;
      EXPECT_GT(gain[std::size_t(q)], 0.0);
    }
  }
  // Without observations: the prior's gain, the same everywhere.
  const Probe prior = fitted(RowMatrix(0, 6), {}, 0.1, 5.0);
  std::vector<double> gain(7);
  ASSERT_TRUE(knowledge_gain(prior, MatrixView(Q), gain.data()).ok());
  for (double g : gain) EXPECT_NEAR(g, gain[0], 1e-15);
  const Status wrong =
      knowledge_gain(fitted(X, y, 0.1, 5.0), MatrixView(RowMatrix(RowMatrix::Zero(1, 5))), gain.data());
  EXPECT_EQ(wrong.message(), "queries have 5 columns, observations have 6 columns");
}

}  // namespace
}  // namespace gpprobe
