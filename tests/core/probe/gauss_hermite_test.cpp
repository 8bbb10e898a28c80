#include "gpprobe/probe/gauss_hermite.h"

#include <cmath>

#include <gtest/gtest.h>

namespace gpprobe {
namespace {

TEST(GaussHermite, TwoNodeRuleIsPlusMinusOne) {
  // For the standard normal the 2-point rule has nodes -1, +1 with weights 1/2.
  const GaussHermite rule = GaussHermite::make(2);
  EXPECT_NEAR(rule.nodes[0], -1.0, 1e-15);
  EXPECT_NEAR(rule.nodes[1], 1.0, 1e-15);
  EXPECT_NEAR(rule.weights[0], 0.5, 1e-15);
  EXPECT_NEAR(rule.weights[1], 0.5, 1e-15);
}

TEST(GaussHermite, MomentsOfTheStandardNormalAreExact) {
  // E[Z^(2k)] = (2k-1)!!, exact for 2k <= 2n-1.
  for (int n : {8, 64, 128, 200}) {
    const GaussHermite rule = GaussHermite::make(n);
    double double_factorial = 1.0;
    for (int k = 0; k <= std::min(n - 1, 10); ++k) {
      if (k > 0) double_factorial *= (2 * k - 1);
      double moment = 0.0, odd = 0.0;
      for (int i = 0; i < n; ++i) {
        moment += rule.weights[i] * std::pow(rule.nodes[i], 2 * k);
        odd += rule.weights[i] * std::pow(rule.nodes[i], 2 * k + 1);
      }
      EXPECT_NEAR(moment / double_factorial, 1.0, 1e-12) << "n=" << n << " k=" << k;
      EXPECT_NEAR(odd, 0.0, 1e-9 * double_factorial) << "n=" << n << " k=" << k;
    }
  }
}

TEST(GaussHermite, MatchesAKnownClosedFormExpectation) {
  // E[exp(t Z)] = exp(t^2/2); a smooth, non-polynomial integrand.
  const GaussHermite& rule = probe_quadrature();
  for (double t : {0.5, 1.0, 2.0, 3.0}) {
    double sum = 0.0;
    for (std::size_t i = 0; i < rule.nodes.size(); ++i) sum += rule.weights[i] * std::exp(t * rule.nodes[i]);
    EXPECT_NEAR(sum / std::exp(0.5 * t * t), 1.0, 1e-13) << "t=" << t;
  }
}

}  // namespace
}  // namespace gpprobe
