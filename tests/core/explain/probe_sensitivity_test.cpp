// Certified feature sensitivity and LIME for the probe's judged probability (probe_output.h): on
// probes fitted in function and in weight space, at several queries, each extreme's certified interval
// brackets the probe's own scores (Probe::score) on a dense grid of the one-sided box, and Delta from
// the grid lies in [delta_lower, delta_upper]; the bounder's exact values agree with the probe's scores;
// a probe whose labels follow one embedding dimension gets Delta of that dimension's sign.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/common/random_stream.h"
#include "gpprobe/explain/feature_sensitivity.h"
#include "gpprobe/explain/lime.h"
#include "gpprobe/explain/probe_output.h"

#include "test_support.h"

namespace gpprobe {
namespace {

constexpr std::size_t kGrid = 1000;

// O observations in d dimensions, labelled by the sign of w'a plus a little noise.
Probe probe_following(const std::vector<double>& w, std::size_t O, PosteriorSpace space, std::uint64_t seed) {
  RandomStream stream(seed);
  const std::size_t d = w.size();
  RowMatrix X{Eigen::Index(O), Eigen::Index(d)};
  std::vector<std::uint8_t> y(O);
  for (std::size_t i = 0; i < O; ++i) {
    double s = 0.2 * stream.normal();
    for (std::size_t j = 0; j < d; ++j) {
      X(Eigen::Index(i), Eigen::Index(j)) = stream.normal();
      s += w[j] * X(Eigen::Index(i), Eigen::Index(j));
    }
    y[i] = s > 0;
  }
  return testing::fitted_probe(X, y, 0.1, 5.0, space);
}

std::vector<double> judged_on_grid(const Probe& probe, std::vector<double> query, std::size_t feature, double from,
                                   double to) {
  const std::size_t d = query.size();
  RowMatrix Q{Eigen::Index(kGrid + 1), Eigen::Index(d)};
  for (std::size_t g = 0; g <= kGrid; ++g) {
    query[feature] = g == kGrid ? to : from + (to - from) * double(g) / double(kGrid);
    for (std::size_t j = 0; j < d; ++j) Q(Eigen::Index(g), Eigen::Index(j)) = query[j];
  }
  std::vector<double> judged(kGrid + 1);
  ProbeScoreColumns columns;
  columns.judged_probability = judged.data();
  EXPECT_TRUE(probe.score(MatrixView(Q), columns).ok());
  return judged;
}

TEST(ProbeSensitivity, IntervalsHoldTheProbesOwnScoresOnDenseGrids) {
  const std::vector<double> w = {1.0, -0.5, 0.25, 0.0, 0.8, -1.5};
  std::size_t checked = 0;
  for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
    const Probe probe = probe_following(w, 24, space, 11);
    Result<ProbeOutput> output = ProbeOutput::make(probe);
    ASSERT_TRUE(output.ok()) << output.status().message();
    RandomStream stream(3);
    for (int q = 0; q < 3; ++q) {
      std::vector<double> query(w.size());
      for (double& v : query) v = stream.normal();
      for (double gamma : {0.2, 1.0}) {
        SensitivityOptions options;
        options.gamma = gamma;
        Result<LocalSensitivity> local = feature_sensitivity(output.value(), query, options);
        ASSERT_TRUE(local.ok()) << local.status().message();
        for (const FeatureSensitivity& f : local.value().features) {
          const std::string where = std::string(space_name(space)) + " query " + std::to_string(q) + " gamma " +
                                    std::to_string(gamma) + " feature " + std::to_string(f.feature);
          const std::vector<double> minus = judged_on_grid(probe, query, f.feature, f.minus.from, f.minus.to);
          const std::vector<double> plus = judged_on_grid(probe, query, f.feature, f.plus.from, f.plus.to);
          const auto [min_minus, max_minus] = std::minmax_element(minus.begin(), minus.end());
          const auto [min_plus, max_plus] = std::minmax_element(plus.begin(), plus.end());
          EXPECT_LE(f.minus.minimum.lower, *min_minus) << where;
          EXPECT_GE(f.minus.maximum.upper, *max_minus) << where;
          EXPECT_LE(f.plus.minimum.lower, *min_plus) << where;
          EXPECT_GE(f.plus.maximum.upper, *max_plus) << where;
          const double grid_delta = (*max_plus - *max_minus) + (*min_plus - *min_minus);
          EXPECT_LE(f.delta_lower, grid_delta + 1e-9) << where;
          EXPECT_GE(f.delta_upper, grid_delta - 1e-9) << where;
          EXPECT_NEAR(f.delta, grid_delta, 4.0 * options.tolerance) << where;
          EXPECT_EQ(f.status, SearchStatus::converged) << where;
          ++checked;
        }
        // The value at the query is the probe's own score (summed in blocks of another size: to rounding).
        EXPECT_NEAR(local.value().value, judged_on_grid(probe, query, 0, query[0], query[0])[0], 1e-14);
      }
    }
  }
  EXPECT_EQ(checked, 2u * 3u * 2u * 6u);
}

TEST(ProbeSensitivity, HasTheSignOfTheDimensionTheLabelsFollow) {
  // Labels follow dimension 2 alone; the others are noise.
  const std::vector<double> w = {0.0, 0.0, 1.0, 0.0};
  const Probe probe = probe_following(w, 40, PosteriorSpace::automatic, 4);
  Result<ProbeOutput> output = ProbeOutput::make(probe);
  ASSERT_TRUE(output.ok());
  SensitivityOptions options;
  options.gamma = 0.5;
  Result<LocalSensitivity> local = feature_sensitivity(output.value(), {0.3, -0.2, 0.1, 0.4}, options);
  ASSERT_TRUE(local.ok()) << local.status().message();
  const std::vector<FeatureSensitivity>& f = local.value().features;
  EXPECT_GT(f[2].delta_lower, 0.0);
  for (std::size_t j : {0u, 1u, 3u}) EXPECT_GT(std::abs(f[2].delta), 3.0 * std::abs(f[j].delta)) << j;
  // LIME, with the observations' mean as the baseline, also ranks dimension 2 first.
  LimeOptions lime_options;
  lime_options.baseline.assign(4, 0.0);
  Result<LimeExplanation> lime = lime_explain(output.value(), {0.3, -0.2, 1.1, 0.4}, lime_options);
  ASSERT_TRUE(lime.ok()) << lime.status().message();
  const std::vector<double>& beta = lime.value().coefficients;
  EXPECT_GT(beta[2], 0.0);
  for (std::size_t j : {0u, 1u, 3u}) EXPECT_GT(std::abs(beta[2]), std::abs(beta[j])) << j;
}

TEST(ProbeSensitivity, MarksTheDimensionsTheObservationsNeverVaryOn) {
  // 30 observations in 4 dimensions; dimension 1 is 0 in every one, dimension 3 is 2.5 in every one.
  RandomStream stream(11);
  RowMatrix X{30, 4};
  std::vector<std::uint8_t> y(30);
  for (Eigen::Index i = 0; i < 30; ++i) {
    X(i, 0) = stream.normal(), X(i, 1) = 0.0, X(i, 2) = stream.normal(), X(i, 3) = 2.5;
    y[std::size_t(i)] = X(i, 0) + 0.3 * X(i, 2) > 0;
  }
  const Probe probe = testing::fitted_probe(X, y, 0.1, 5.0, PosteriorSpace::automatic);
  Result<ProbeOutput> output = ProbeOutput::make(probe);
  ASSERT_TRUE(output.ok());
  // The observations, recovered from the probe's features, to rounding.
  const RowMatrix* a = output.value().training_inputs();
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->rows(), 30);
  ASSERT_EQ(a->cols(), 4);
  for (Eigen::Index i = 0; i < 30; ++i)
    for (Eigen::Index j = 0; j < 4; ++j) EXPECT_NEAR((*a)(i, j), X(i, j), 1e-13 * (1.0 + std::abs(X(i, j))));
  SensitivityOptions options;
  options.gamma = 0.5;
  Result<LocalSensitivity> local = feature_sensitivity(output.value(), {0.3, 0.0, 0.1, 2.5}, options);
  ASSERT_TRUE(local.ok()) << local.status().message();
  const std::vector<bool> expected = {false, true, false, true};
  for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(local.value().features[j].constant_in_training, expected[j]) << j;
  for (std::size_t a : rank_features(local.value())) EXPECT_FALSE(expected[a]) << a;
  EXPECT_EQ(rank_features(local.value()).size(), 2u);
  EXPECT_EQ(rank_features(local.value(), true).size(), 4u);
}

TEST(ProbeSensitivity, BadInputsNameTheProblem) {
  const Probe probe = probe_following({1.0, -1.0, 0.5}, 10, PosteriorSpace::automatic, 2);
  Result<ProbeOutput> output = ProbeOutput::make(probe);
  ASSERT_TRUE(output.ok());
  SensitivityOptions options;
  EXPECT_EQ(feature_sensitivity(output.value(), {0.0, 0.0}, options).status().message(),
            "the point has 2 coordinates, the model's inputs have 3 columns");
  Result<std::unique_ptr<BoxBounder>> bounder = output.value().around({0.0, 0.0}, {0});
  EXPECT_EQ(bounder.status().message(), "the query has 2 coordinates, the probe's observations have 3 columns");
}

}  // namespace
}  // namespace gpprobe
