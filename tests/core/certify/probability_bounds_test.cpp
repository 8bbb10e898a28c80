// The class probability's bounds over a (mean, variance) rectangle: they hold at every point of a fine
// grid over random rectangles (probit and logistic, means of both signs), they are attained at the
// corner the monotonicity rule picks (up to the stated margin), and the logistic quadrature's margin
// covers its true error, measured against an independent integration, for variances up to 10^6.
#include "gpprobe/certify/probability_bounds.h"

#include <cmath>
#include <iostream>

#include <gtest/gtest.h>

#include "gpprobe/classification/probability.h"
#include "gpprobe/common/random_stream.h"

namespace gpprobe {
namespace {

TEST(ClassifierProbabilityBounds, HoldOnAGridOverRandomRectangles) {
  RandomStream rng(3);
  for (ClassifierLikelihood likelihood : {ClassifierLikelihood::probit, ClassifierLikelihood::logistic}) {
    for (int trial = 0; trial < 200; ++trial) {
      const double scale = trial < 100 ? 1.0 : 8.0;
      const double m0 = scale * rng.uniform(-2.0, 2.0), m1 = m0 + scale * rng.uniform(0.0, 2.0);
      const double v0 = trial % 7 == 0 ? 0.0 : rng.uniform(0.0, 5.0) * scale, v1 = v0 + rng.uniform(0.0, 5.0) * scale;
      const Interval bound = probability_bounds(likelihood, {m0, m1}, {v0, v1});
      const int steps = 24;
      double lowest = 1.0, highest = 0.0;
      for (int a = 0; a <= steps; ++a) {
        for (int b = 0; b <= steps; ++b) {
          const double p = predictive_probability(likelihood, m0 + (m1 - m0) * a / steps, v0 + (v1 - v0) * b / steps);
          ASSERT_TRUE(bound.contains(p)) << likelihood_name(likelihood) << " " << p << " outside [" << bound.lower
                                         << ", " << bound.upper << "]";
          lowest = std::min(lowest, p), highest = std::max(highest, p);
        }
      }
      // The grid holds the rule's corners, so the bounds are attained up to the margin.
      EXPECT_NEAR(bound.lower, lowest, 1e-12) << likelihood_name(likelihood);
      EXPECT_NEAR(bound.upper, highest, 1e-12) << likelihood_name(likelihood);
    }
  }
}

TEST(ClassifierProbabilityBounds, ProbitIsLemmaThree) {
  // mu_L >= 0: the largest variance gives the minimum; mu_U < 0: the smallest variance the maximum.
  const Interval positive = probability_bounds(ClassifierLikelihood::probit, {0.5, 1.0}, {0.2, 3.0});
  // (the ends are widened by Phi's rounding, 16 u (1 + z^2) Phi)
  EXPECT_NEAR(positive.lower, normal_cdf(0.5 / std::sqrt(4.0)), 1e-14);
  EXPECT_NEAR(positive.upper, normal_cdf(1.0 / std::sqrt(1.2)), 1e-14);
  const Interval negative = probability_bounds(ClassifierLikelihood::probit, {-2.0, -1.0}, {0.2, 3.0});
  EXPECT_NEAR(negative.lower, normal_cdf(-2.0 / std::sqrt(1.2)), 1e-14);
  EXPECT_NEAR(negative.upper, normal_cdf(-1.0 / std::sqrt(4.0)), 1e-14);
  // Far in the tail the bound stays positive and relative: Phi(-30) = 4.9e-198, widened by 16 u 901.
  const Interval tail = probability_bounds(ClassifierLikelihood::probit, {-30.0, -29.0}, {0.0, 0.0});
  EXPECT_GT(tail.lower, 0.0);
  EXPECT_NEAR(tail.lower / normal_cdf(-30.0), 1.0, 2e-12);
}

// E[sigmoid f] = P(eps < f) for eps ~ Logistic(0, 1) independent of f, i.e. the integral over s of
// sigmoid'(s) Phi((mu - s) / sqrt(Sigma)): smooth at every variance >= 1 (scales 1 and sqrt(Sigma)),
// unlike the integrand in f. Composite 16-point Gauss-Legendre, 1,440 panels on [-45, 45] (the logistic
// tail beyond is 3e-20), summed with Kahan's compensation.
double logistic_expectation_independent(double mean, double variance) {
  const GaussLegendre16& rule = gauss_legendre16();
  const double sd = std::sqrt(variance);
  const int panels = 1440;
  const double width = 90.0 / panels;
  double sum = 0.0, compensation = 0.0;
  for (int p = 0; p < panels; ++p) {
    const double centre = -45.0 + (p + 0.5) * width;
    for (int k = 0; k < 16; ++k) {
      const double s = centre + 0.5 * width * rule.nodes[k];
      const double e = std::exp(-std::abs(s));
      const double term = 0.5 * width * rule.weights[k] * e / ((1.0 + e) * (1.0 + e)) * normal_cdf((mean - s) / sd);
      const double y = term - compensation, t = sum + y;
      compensation = (t - sum) - y;
      sum = t;
    }
  }
  return sum;
}

TEST(ClassifierProbabilityBounds, LogisticMarginCoversTheQuadratureError) {
  for (double variance : {1.0, 30.0, 400.0, 700.0, 1000.0, 2000.0, 3000.0, 5000.0, 1e4, 3e4, 1e5, 1e6}) {
    const double sd = std::sqrt(variance);
    double worst = 0.0;
    for (int a = -20; a <= 20; ++a) {
      const double mean = 0.15 * a * sd + 0.013 * a;
      const double error =
          std::abs(logistic_expectation(mean, variance) - logistic_expectation_independent(mean, variance));
      worst = std::max(worst, error);
      EXPECT_LE(error, logistic_quadrature_margin(variance)) << "variance " << variance << " mean " << mean;
    }
    // The margin is not vacuous where the rule is exact.
    if (variance <= 400.0) EXPECT_LT(logistic_quadrature_margin(variance), 4e-13);
    std::cout << "  variance " << variance << ": quadrature error " << worst << ", margin "
              << logistic_quadrature_margin(variance) << "\n";
  }
}

}  // namespace
}  // namespace gpprobe
