// The measures against an independent reference: composite Simpson integration of the same integrals
// over +-14 standard deviations (written out here, from docs/design/probe.md), plus limits and symmetries.
#include "gpprobe/probe/uncertainty_measures.h"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "core/src/linalg/lanes_math.h"
#include "core/src/probe/lane_quadrature.h"

namespace gpprobe {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct Reference {
  double judged, alea, episteme;
};

Reference simpson_reference(double m, double s2) {
  const double sd = std::sqrt(s2);
  const int n = 200000;  // even
  const double a = m - 14 * sd, b = m + 14 * sd, h = (b - a) / n;
  double judged = 0, alea = 0, sp = 0;
  for (int i = 0; i <= n; ++i) {
    const double f = a + i * h;
    const double w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
    const double pdf = std::exp(-0.5 * (f - m) * (f - m) / s2) / std::sqrt(2 * kPi * s2);
    const double g = 1 / (1 + std::exp(-f));
    const double sp_neg = std::log1p(std::exp(-std::fabs(f))) + std::fmax(-f, 0.0);
    const double sp_pos = sp_neg + f;
    judged += w * pdf * g;
    alea += w * pdf * (g * sp_neg + (1 - g) * sp_pos);
    sp += w * pdf * sp_neg;
  }
  judged *= h / 3, alea *= h / 3, sp *= h / 3;
  return {judged, alea, -(0.5 * std::log(2 * kPi * std::exp(1.0) * s2) - m - 2 * sp)};
}

TEST(UncertaintyMeasures, AgreeWithIndependentIntegration) {
  for (double m : {-6.0, -1.3, 0.0, 0.4, 2.5, 8.0}) {
    for (double s2 : {1e-3, 0.05, 0.6, 2.0, 4.795790545596741}) {
      const UncertaintyMeasures u = uncertainty_measures(m, s2);
      const Reference r = simpson_reference(m, s2);
      SCOPED_TRACE("m=" + std::to_string(m) + " s2=" + std::to_string(s2));
      EXPECT_NEAR(u.judged_probability, r.judged, 1e-10);
      EXPECT_NEAR(u.alea, r.alea, 1e-10);
      EXPECT_NEAR(u.episteme, r.episteme, 1e-9);
    }
  }
}

TEST(UncertaintyMeasures, SymmetricInTheMean) {
  for (double m : {0.3, 1.7, 5.0}) {
    const UncertaintyMeasures plus = uncertainty_measures(m, 0.8), minus = uncertainty_measures(-m, 0.8);
    EXPECT_NEAR(plus.judged_probability, 1.0 - minus.judged_probability, 1e-14);
    EXPECT_NEAR(plus.alea, minus.alea, 1e-14);
    EXPECT_NEAR(plus.episteme, minus.episteme, 1e-12);
  }
  EXPECT_NEAR(uncertainty_measures(0.0, 1.0).judged_probability, 0.5, 1e-15);
}

TEST(UncertaintyMeasures, FiniteAndLimitingForExtremeMeansAndTinyVariances) {
  for (double m : {-1e3, -40.0, 0.0, 40.0, 1e3}) {
    for (double s2 : {1e-12, 1e-6, 1.0, 10.0}) {
      const UncertaintyMeasures u = uncertainty_measures(m, s2);
      SCOPED_TRACE("m=" + std::to_string(m) + " s2=" + std::to_string(s2));
      ASSERT_TRUE(std::isfinite(u.judged_probability));
      ASSERT_TRUE(std::isfinite(u.alea));
      ASSERT_TRUE(std::isfinite(u.episteme));
      EXPECT_GE(u.judged_probability, 0.0);
      EXPECT_LE(u.judged_probability, 1.0);
      EXPECT_GE(u.alea, 0.0);
      EXPECT_LE(u.alea, std::log(2.0) + 1e-15);
    }
  }
  // Far from 0 with a tiny variance: g is 0 or 1, no alea, and H[g] = 1/2 log(2 pi e s2) - m - 2 softplus(-m).
  const UncertaintyMeasures high = uncertainty_measures(1e3, 1e-12);
  EXPECT_EQ(high.judged_probability, 1.0);
  EXPECT_EQ(high.alea, 0.0);
  EXPECT_NEAR(high.episteme, -(0.5 * std::log(2 * kPi * std::exp(1.0) * 1e-12) - 1e3), 1e-9);
  const UncertaintyMeasures low = uncertainty_measures(-1e3, 1e-12);
  EXPECT_LT(low.judged_probability, 1e-300);
  EXPECT_NEAR(low.episteme, high.episteme, 1e-9);
  // At m = 0 with a tiny variance g = 1/2: alea = log 2.
  EXPECT_NEAR(uncertainty_measures(0.0, 1e-12).alea, std::log(2.0), 1e-12);
}

TEST(UncertaintyMeasures, SoftplusNeverOverflows) {
  EXPECT_EQ(softplus(1e3), 1e3);
  EXPECT_EQ(softplus(-1e3), 0.0);
  EXPECT_NEAR(softplus(0.0), std::log(2.0), 1e-16);
  EXPECT_NEAR(softplus(-30.0), std::exp(-30.0), 1e-25);
}

TEST(UncertaintyMeasures, LaneExpAndLog1pMatchTheLibrary) {
  // The quadrature's vector exp and log1p (lanes_math.h) against libm over their whole ranges.
  for (double start = -750.0; start <= 0.0; start += 0.37) {
    const Lanes x = {start, start * 0.5, start * 1e-3, start * 1e-9};
    const Lanes e = exp_nonpositive(x);
    for (std::size_t k = 0; k < kLaneCount; ++k) {
      const double expected = x[k] < -708.0 ? 0.0 : std::exp(x[k]);
      EXPECT_NEAR(e[k], expected, 1e-15 * expected) << x[k];
    }
    const Lanes u = {std::exp(start / 100), std::exp(start), 1.0, std::exp(start / 7)};
    const Lanes l = log1p_unit(u);
    for (std::size_t k = 0; k < kLaneCount; ++k) {
      EXPECT_NEAR(l[k], std::log1p(u[k]), 1e-15 * std::log1p(u[k]) + 1e-300) << u[k];  // denormals: absolute
    }
  }
}

// Any rule on lanes (the belief envelope's 64 nodes) gives the scalar path's measures over the same
// rule, and the judged probability's slope in the mean is its derivative.
TEST(UncertaintyMeasures, LaneRulesMatchTheScalarSumsAndTheSlopeIsTheDerivative) {
  for (std::size_t nodes : {16u, 64u}) {
    const GaussHermite rule = GaussHermite::make(nodes);
    const LaneRule lanes = lane_rule(rule);
    EXPECT_EQ(lanes.nodes.size() % 4, 0u);
    for (double mean : {-30.0, -3.0, -0.2, 0.0, 0.7, 5.0, 38.0}) {
      for (double variance : {1e-6, 0.3, 4.8, 40.0}) {
        const UncertaintyMeasures a = lane_measures(mean, variance, lanes),
                                  b = uncertainty_measures(mean, variance, rule);
        EXPECT_NEAR(a.judged_probability, b.judged_probability, 1e-15) << nodes << " " << mean << " " << variance;
        EXPECT_NEAR(a.alea, b.alea, 1e-14) << nodes << " " << mean << " " << variance;
        EXPECT_NEAR(a.episteme, b.episteme, 1e-13 * (1.0 + std::abs(b.episteme)))
            << nodes << " " << mean << " " << variance;
        const double sd = std::sqrt(variance), h = 1e-5;
        const JudgedAndSlope at = lane_judged_and_slope(mean, sd, lanes);
        EXPECT_NEAR(at.judged, b.judged_probability, 1e-15);
        const double difference =
            (lane_judged_and_slope(mean + h, sd, lanes).judged - lane_judged_and_slope(mean - h, sd, lanes).judged) /
            (2 * h);
        EXPECT_NEAR(at.slope, difference, 1e-9) << nodes << " " << mean << " " << variance;
      }
    }
  }
}

}  // namespace
}  // namespace gpprobe
