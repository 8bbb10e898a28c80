// The judged-probability and episteme bounds over a (mean, variance) rectangle: the quadrature's
// error envelope against an independent integration, the symmetry of the rule that makes the corner
// rule exact for the quadrature itself, and soundness over sampled rectangles.
#include "gpprobe/certify/measure_bounds.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "gpprobe/probe/gauss_hermite.h"
#include "gpprobe/probe/uncertainty_measures.h"

namespace gpprobe {
namespace {

constexpr double kPi = 3.14159265358979323846;

// E[sigmoid(f)] and the episteme by the trapezoidal rule in t = (f - m)/sd on [-12, 12] with step h = 1/32:
// for integrands analytic in the strip |Im t| < d (the sigmoid's poles sit at Im t = +-pi/sd, so d > 0.59
// for s2 <= 28) its error is ~exp(-2 pi d / h) < 1e-50, the tails beyond 12 add 1e-32, and it shares
// nothing with Gauss-Hermite.
struct Reference {
  double judged, episteme;
};

Reference trapezoid(double m, double s2) {
  const double sd = std::sqrt(s2), h = 1.0 / 32;
  double judged = 0, softplus_neg = 0;
  for (int i = -12 * 32; i <= 12 * 32; ++i) {
    const double t = i * h, w = h * std::exp(-0.5 * t * t) / std::sqrt(2 * kPi);
    const double f = m + sd * t;
    judged += w / (1 + std::exp(-f));
    softplus_neg += w * (std::fmax(-f, 0.0) + std::log1p(std::exp(-std::fabs(f))));
  }
  return {judged, -(0.5 * std::log(2 * kPi * std::exp(1.0) * s2) - m - 2 * softplus_neg)};
}

TEST(MeasureBounds, QuadratureErrorStaysInsideItsEnvelope) {
  double worst_ratio = 0;
  for (double s2 = 0.5; s2 <= 28; s2 *= 1.15)
    for (double m = 0; m <= 12; m += 0.25) {
      const Reference r = trapezoid(m, s2);
      const UncertaintyMeasures q = uncertainty_measures(m, s2);
      const double envelope = quadrature_error_envelope(s2);
      SCOPED_TRACE("m=" + std::to_string(m) + " s2=" + std::to_string(s2));
      EXPECT_LE(std::fabs(q.judged_probability - r.judged), envelope);
      EXPECT_LE(std::fabs(q.episteme - r.episteme), envelope);
      worst_ratio = std::max(worst_ratio, std::fabs(q.judged_probability - r.judged) / envelope);
    }
  EXPECT_GT(worst_ratio, 0.01);  // an envelope, not a wild overestimate
}

TEST(MeasureBounds, TheProbeQuadratureIsSymmetric) {
  // +-t with equal weights: what makes F(m, s2) monotone in s2 with the sign of -m for the rule too.
  const GaussHermite& rule = probe_quadrature();
  const std::size_t n = rule.nodes.size();
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(rule.nodes[i], -rule.nodes[n - 1 - i], 1e-14 * (1 + std::fabs(rule.nodes[i])));
    EXPECT_NEAR(rule.weights[i], rule.weights[n - 1 - i], 1e-15);
  }
}

TEST(MeasureBounds, NoPointOfARectangleEscapes) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int checked = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const double m0 = 8 * unit(rng) - 4, m1 = m0 + 3 * unit(rng) * unit(rng);
    const double s0 = 20 * unit(rng) * unit(rng), s1 = s0 + 6 * unit(rng) * unit(rng);
    const MeasureBounds b = measure_bounds({m0, m1}, {s0, s1});
    for (int i = 0; i <= 12; ++i)
      for (int j = 0; j <= 12; ++j) {
        const double m = m0 + (m1 - m0) * i / 12, s2 = std::max(s0 + (s1 - s0) * j / 12, 1e-300);
        const UncertaintyMeasures q = uncertainty_measures(m, s2);
        EXPECT_TRUE(b.judged_probability.contains(q.judged_probability)) << m << " " << s2;
        EXPECT_TRUE(b.episteme.contains(q.episteme)) << m << " " << s2;
        if (s2 > 1e-3) {
          const Reference r = trapezoid(m, s2);  // and the exact expectations
          EXPECT_TRUE(b.judged_probability.contains(r.judged));
          EXPECT_TRUE(b.episteme.contains(r.episteme));
        }
        ++checked;
      }
  }
  EXPECT_EQ(checked, 150 * 169);
}

TEST(MeasureBounds, AreTheCornerValuesOnAPointAndHandleZeroVariance) {
  const MeasureBounds point = measure_bounds({0.7, 0.7}, {2.0, 2.0});
  const UncertaintyMeasures at = uncertainty_measures(0.7, 2.0);
  EXPECT_NEAR(point.judged_probability.lower, at.judged_probability, 2e-12);
  EXPECT_NEAR(point.judged_probability.upper, at.judged_probability, 2e-12);
  EXPECT_NEAR(point.episteme.lower, at.episteme, 2e-12);
  EXPECT_NEAR(point.episteme.upper, at.episteme, 2e-12);
  // m_L < 0: the lowest judged probability is at the small variance; m_U > 0: the highest too.
  const MeasureBounds mixed = measure_bounds({-1.0, 0.5}, {0.5, 3.0});
  EXPECT_NEAR(mixed.judged_probability.lower, uncertainty_measures(-1.0, 0.5).judged_probability, 2e-12);
  EXPECT_NEAR(mixed.judged_probability.upper, uncertainty_measures(0.5, 0.5).judged_probability, 2e-12);
  // A variance that may reach 0: -H is unbounded above; below, Jensen gives h(m_near) - 1/2 log(2 pi e s2_U).
  const MeasureBounds open = measure_bounds({0.2, 0.4}, {0.0, 1.0});
  EXPECT_TRUE(std::isinf(open.episteme.upper));
  EXPECT_NEAR(open.episteme.lower, 0.2 + 2 * softplus(-0.2) - 0.5 * std::log(2 * kPi * std::exp(1.0)), 1e-11);
  EXPECT_NEAR(open.judged_probability.upper, 1 / (1 + std::exp(-0.4)), 2e-12);
}

}  // namespace
}  // namespace gpprobe
