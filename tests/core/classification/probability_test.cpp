// The scalar numerics of GP classification against 30-50 digit references (mpmath, in
// tests/reference/classification/numerics.json): log Phi and the Mills ratio far into both tails, and
// the logistic predictive probability E[sigmoid f] for variances up to 400.
#include "gpprobe/classification/probability.h"

#include <cmath>

#include <gtest/gtest.h>

#include "gpc_fixtures.h"

namespace gpprobe {
namespace {

TEST(ClassifierNumerics, NormalCdfAndMillsRatioInBothTails) {
  const nlohmann::json numerics = testing::read_json("classification/numerics.json");
  for (const auto& r : numerics["normal"]) {
    const double z = r["z"];
    const double log_cdf = r["log_cdf"], mills = r["mills_ratio"], cdf = r["cdf"];
    EXPECT_NEAR(log_normal_cdf(z), log_cdf, 4e-16 * std::max(1.0, std::abs(log_cdf))) << "z = " << z;
    EXPECT_NEAR(normal_mills_ratio(z), mills, 4e-15 * std::max(1.0, mills)) << "z = " << z;
    // Phi itself is ill-conditioned in its lower tail (relative condition number z^2: rounding z/sqrt 2 alone
    // costs that much), so its relative error is bounded by a few ulp times 1 + z^2.
    EXPECT_NEAR(normal_cdf(z), cdf, 4e-16 * (1.0 + z * z) * cdf) << "z = " << z;
  }
}

TEST(ClassifierNumerics, LogisticExpectationTo1e15UpToVariance400) {
  double largest = 0.0;
  std::size_t count = 0;
  const nlohmann::json numerics = testing::read_json("classification/numerics.json");
  for (const auto& r : numerics["logistic"]) {
    const double mean = r["mean"], variance = r["variance"], exact = r["expectation"];
    const double ours = logistic_expectation(mean, variance);
    EXPECT_NEAR(ours, exact, 1e-14) << "mean " << mean << ", variance " << variance;
    largest = std::max(largest, std::abs(ours - exact));
    ++count;
    EXPECT_EQ(predictive_probability(ClassifierLikelihood::logistic, mean, variance), ours);
  }
  EXPECT_EQ(count, 70u);
  std::cout << "  largest error of E[sigmoid f] (variance <= 400): " << largest << "\n";
}

TEST(ClassifierNumerics, ProbitProbabilityIsTheClosedForm) {
  // Phi(mean / sqrt(1 + variance)): at variance 3 the argument halves.
  EXPECT_DOUBLE_EQ(predictive_probability(ClassifierLikelihood::probit, 1.0, 3.0), normal_cdf(0.5));
  EXPECT_DOUBLE_EQ(predictive_probability(ClassifierLikelihood::probit, 0.0, 7.0), 0.5);
  // Symmetric: p(mean) + p(-mean) = 1.
  EXPECT_NEAR(predictive_probability(ClassifierLikelihood::probit, 2.3, 0.4) +
                  predictive_probability(ClassifierLikelihood::probit, -2.3, 0.4),
              1.0, 1e-15);
}

TEST(ClassifierNumerics, GaussLegendreIsExactForDegree31) {
  const GaussLegendre16& rule = gauss_legendre16();
  double weight_sum = 0.0;
  for (int k = 0; k < 16; ++k) {
    weight_sum += rule.weights[k];
    EXPECT_NEAR(rule.nodes[k], -rule.nodes[15 - k], 1e-16);
    if (k > 0) EXPECT_LT(rule.nodes[k - 1], rule.nodes[k]);
  }
  EXPECT_NEAR(weight_sum, 2.0, 1e-15);
  // int_-1^1 x^30 = 2/31, int x^31 = 0 (x^32 is beyond the rule's degree and is not exact).
  double even = 0.0, odd = 0.0, beyond = 0.0;
  for (int k = 0; k < 16; ++k) {
    even += rule.weights[k] * std::pow(rule.nodes[k], 30);
    odd += rule.weights[k] * std::pow(rule.nodes[k], 31);
    beyond += rule.weights[k] * std::pow(rule.nodes[k], 32);
  }
  EXPECT_NEAR(even, 2.0 / 31.0, 1e-15);
  EXPECT_NEAR(odd, 0.0, 1e-15);
  EXPECT_GT(std::abs(beyond - 2.0 / 33.0), 1e-12);
}

TEST(ClassifierNumerics, MacKayIsOnlyAnApproximation) {
  // Exact at variance 0 and at mean 0; off by more than 1e-3 in between (hence its label).
  EXPECT_DOUBLE_EQ(mackay_approximation(1.3, 0.0), logistic_expectation(1.3, 0.0));
  EXPECT_DOUBLE_EQ(mackay_approximation(0.0, 5.0), 0.5);
  EXPECT_GT(std::abs(mackay_approximation(3.0, 9.0) - logistic_expectation(3.0, 9.0)), 1e-3);
}

}  // namespace
}  // namespace gpprobe
