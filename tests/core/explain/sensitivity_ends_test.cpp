// Delta's interval is built from the sound ends of its four extremes (issue 40, item 8): a delta_lower taken from
// the wrong end of one of them (max(T+).upper for max(T+).lower, say) passed every test, because the searches had
// converged to 1e-3 and the grids compared against Delta only to within that. Here the searches stop after two
// splits with a tolerance of 0.2, so every extreme's interval is wide, and:
//   - each of the four intervals holds the probe's own scores (Probe::score) on a dense grid of its one-sided box;
//   - delta_lower <= (max+.lower - max-.upper) + (min+.lower - min-.upper), the sound combination of the header
//     (feature_sensitivity.h), and within its three roundings of it; delta_upper likewise with the other ends;
//   - Delta from the grid lies in [delta_lower, delta_upper].
// Taking any end from the wrong side moves delta_lower up (or delta_upper down) by that interval's width.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/common/random_stream.h"
#include "gpprobe/explain/feature_sensitivity.h"
#include "gpprobe/explain/probe_output.h"

#include "result_assertions.h"
#include "test_support.h"

namespace gpprobe {
namespace {

constexpr std::size_t kGrid = 2000;

Probe probe_following(const std::vector<double>& w, std::size_t O, std::uint64_t seed) {
  RandomStream stream(seed);
  const std::size_t d = w.size();
  RowMatrix X{Eigen::Index(O), Eigen::Index(d)};
  std::vector<std::uint8_t> y(O);
  for (std::size_t i = 0; i < O; ++i) {
    double s = 0.3 * stream.normal();
    for (std::size_t j = 0; j < d; ++j) {
      X(Eigen::Index(i), Eigen::Index(j)) = stream.normal();
      s += w[j] * X(Eigen::Index(i), Eigen::Index(j));
    }
    y[i] = s > 0;
  }
  return testing::fitted_probe(X, y, 0.1, 5.0, PosteriorSpace::function);
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
  const Status status = probe.score(MatrixView(Q), columns);
  EXPECT_TRUE(status.ok()) << status.message();
  return judged;
}

TEST(SensitivityEnds, DeltaIsBuiltFromTheSoundEndsOfWideIntervals) {
  const std::vector<double> w = {1.5, -1.0, 0.5, 0.0};
  const Probe probe = probe_following(w, 30, 17);
  Result<ProbeOutput> output = ProbeOutput::make(probe);
  ASSERT_OK(output);
  RandomStream stream(5);
  std::size_t wide = 0, checked = 0;
  for (int q = 0; q < 3; ++q) {
    std::vector<double> query(w.size());
    for (double& v : query) v = stream.normal();
    SensitivityOptions options;
    options.gamma = 1.5;
    options.tolerance = 0.2;
    options.max_iterations = 2;
    Result<LocalSensitivity> local = feature_sensitivity(ok_value(output), query, options);
    ASSERT_OK(local);
    for (const FeatureSensitivity& f : ok_value(local).features) {
      const std::string where = "query " + std::to_string(q) + " feature " + std::to_string(f.feature);
      const std::vector<double> minus = judged_on_grid(probe, query, f.feature, f.minus.from, f.minus.to);
      const std::vector<double> plus = judged_on_grid(probe, query, f.feature, f.plus.from, f.plus.to);
      const auto [min_minus, max_minus] = std::minmax_element(minus.begin(), minus.end());
      const auto [min_plus, max_plus] = std::minmax_element(plus.begin(), plus.end());
      // Each interval holds its sampled extreme (up to the two paths' rounding).
      const double r = 1e-12;
      EXPECT_LE(f.minus.minimum.lower, *min_minus + r) << where;
      EXPECT_GE(f.minus.minimum.upper, *min_minus - r) << where;
      EXPECT_LE(f.minus.maximum.lower, *max_minus + r) << where;
      EXPECT_GE(f.minus.maximum.upper, *max_minus - r) << where;
      EXPECT_LE(f.plus.minimum.lower, *min_plus + r) << where;
      EXPECT_GE(f.plus.minimum.upper, *min_plus - r) << where;
      EXPECT_LE(f.plus.maximum.lower, *max_plus + r) << where;
      EXPECT_GE(f.plus.maximum.upper, *max_plus - r) << where;
      // The header's sound combinations, and no more than their roundings beyond them.
      const double lower =
          (f.plus.maximum.lower - f.minus.maximum.upper) + (f.plus.minimum.lower - f.minus.minimum.upper);
      const double upper =
          (f.plus.maximum.upper - f.minus.maximum.lower) + (f.plus.minimum.upper - f.minus.minimum.lower);
      EXPECT_LE(f.delta_lower, lower) << where;
      EXPECT_GE(f.delta_lower, lower - 1e-14) << where;
      EXPECT_GE(f.delta_upper, upper) << where;
      EXPECT_LE(f.delta_upper, upper + 1e-14) << where;
      // Delta on the grid.
      const double grid_delta = (*max_plus - *max_minus) + (*min_plus - *min_minus);
      EXPECT_LE(f.delta_lower, grid_delta + 1e-9) << where;
      EXPECT_GE(f.delta_upper, grid_delta - 1e-9) << where;
      const double smallest_width =
          std::min({f.minus.minimum.upper - f.minus.minimum.lower, f.minus.maximum.upper - f.minus.maximum.lower,
                    f.plus.minimum.upper - f.plus.minimum.lower, f.plus.maximum.upper - f.plus.maximum.lower});
      wide += smallest_width > 1e-6;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3u * 4u);
  // The intervals really are wide: a wrong end moves Delta's bounds by more than the slack allowed above.
  EXPECT_GE(wide, checked / 2);
}

}  // namespace
}  // namespace gpprobe
