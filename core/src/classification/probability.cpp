#include "gpprobe/classification/probability.h"

#include <cmath>
#include <vector>

#include "baselines/logistic_newton.h"
#include "common/numeric_constants.h"

namespace gpprobe {

namespace {

constexpr int kPanels = 72;
constexpr double kHalfWidth = 9.0;  // t in [-9, 9]

GaussLegendre16 make_gauss_legendre16() {
  constexpr int n = 16;
  GaussLegendre16 rule{};
  for (int i = 0; i < n; ++i) {
    // Newton from Tricomi's estimate of the i-th largest root of P_16; converges quadratically.
    double x = std::cos(kPi * (i + 0.75) / (n + 0.5)), derivative = 0.0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      double p = 1.0, previous = 0.0;  // P_k(x), P_{k-1}(x)
      for (int k = 0; k < n; ++k) {
        const double next = ((2.0 * k + 1.0) * x * p - k * previous) / (k + 1.0);
        previous = p;
        p = next;
      }
      derivative = n * (x * p - previous) / (x * x - 1.0);
      const double step = p / derivative;
      x -= step;
      if (std::abs(step) <= 1e-17) break;
    }
    rule.nodes[n - 1 - i] = x;
    rule.weights[n - 1 - i] = 2.0 / ((1.0 - x * x) * derivative * derivative);
  }
  return rule;
}

// The composite rule in t for the standard normal: nodes t_k and weights w_k phi(t_k).
struct NormalRule {
  std::vector<double> t, weight;
};

NormalRule make_normal_rule() {
  const GaussLegendre16& gl = gauss_legendre16();
  NormalRule rule;
  const double width = 2.0 * kHalfWidth / kPanels;
  for (int p = 0; p < kPanels; ++p) {
    const double centre = -kHalfWidth + (p + 0.5) * width;
    for (int k = 0; k < 16; ++k) {
      const double t = centre + 0.5 * width * gl.nodes[k];
      rule.t.push_back(t);
      rule.weight.push_back(0.5 * width * gl.weights[k] * kInverseSqrtTwoPi * std::exp(-0.5 * t * t));
    }
  }
  return rule;
}

}  // namespace

const GaussLegendre16& gauss_legendre16() {
  static const GaussLegendre16 rule = make_gauss_legendre16();
  return rule;
}

double logistic_expectation(double mean, double variance) {
  if (variance <= 0.0) return sigmoid(mean);
  static const NormalRule rule = make_normal_rule();
  const double sd = std::sqrt(variance);
  double sum = 0.0;
  for (std::size_t k = 0; k < rule.t.size(); ++k) sum += rule.weight[k] * sigmoid(mean + sd * rule.t[k]);
  return sum;
}

double mackay_approximation(double mean, double variance) {
  return sigmoid(mean / std::sqrt(1.0 + kPi * variance / 8.0));
}

double predictive_probability(ClassifierLikelihood likelihood, double mean, double variance) {
  if (likelihood == ClassifierLikelihood::probit) return normal_cdf(mean / std::sqrt(1.0 + variance));
  return logistic_expectation(mean, variance);
}

}  // namespace gpprobe
