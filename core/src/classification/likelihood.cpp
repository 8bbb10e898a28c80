#include "gpprobe/classification/likelihood.h"

#include <cmath>

#include "baselines/logistic_newton.h"
#include "common/numeric_constants.h"

namespace gpprobe {

namespace {

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kSqrtTwoOverPi = 0.7978845608028654;  // sqrt(2 / pi)
constexpr double kInverseSqrtPi = 0.5641895835477563;  // 1 / sqrt(pi)

// log(1 + e^t) without overflow.
double logistic_softplus(double t) { return t > 0.0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t)); }

}  // namespace

double scaled_erfc(double x) {
  // Below 4, exp(x^2) costs at most 16 ulp of relative error; beyond, erfc's continued fraction
  //   erfc(x) = exp(-x^2) / sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / (x + ...))))
  // converges in a few dozen terms (modified Lentz).
  if (x < 4.0) return std::exp(x * x) * std::erfc(x);
  double f = x, C = x, D = 0.0;
  for (int k = 1; k < 500; ++k) {
    const double a = 0.5 * k;
    D = 1.0 / (x + a * D);
    C = x + a / C;
    const double delta = C * D;
    f *= delta;
    if (std::abs(delta - 1.0) < 1e-17) break;
  }
  return kInverseSqrtPi / f;
}

double normal_cdf(double z) {
  if (z >= 0.0) return 1.0 - 0.5 * std::erfc(z / kSqrt2);
  return 0.5 * std::erfc(-z / kSqrt2);
}

double log_normal_cdf(double z) {
  if (z >= 0.0) return std::log1p(-0.5 * std::erfc(z / kSqrt2));
  return std::log(0.5 * scaled_erfc(-z / kSqrt2)) - 0.5 * z * z;
}

double normal_mills_ratio(double z) {
  if (z >= 0.0) return kInverseSqrtTwoPi * std::exp(-0.5 * z * z) / normal_cdf(z);
  return kSqrtTwoOverPi / scaled_erfc(-z / kSqrt2);
}

LikelihoodTerms likelihood_terms(ClassifierLikelihood likelihood, double y, double f) {
  LikelihoodTerms t;
  if (likelihood == ClassifierLikelihood::probit) {
    const double z = y * f;
    const double r = normal_mills_ratio(z);
    t.log_p = log_normal_cdf(z);
    t.gradient = y * r;
    t.W = r * (z + r);
    t.third = y * r * ((z + r) * (z + 2.0 * r) - 1.0);
    return t;
  }
  // sigmoid(-f) rather than 1 - sigmoid(f): it keeps its relative accuracy where sigmoid(f) -> 1.
  const double s = sigmoid(f), s_minus = sigmoid(-f);
  t.log_p = -logistic_softplus(-y * f);
  t.gradient = y > 0.0 ? s_minus : -s;  // (y + 1)/2 - s
  t.W = s * s_minus;
  t.third = -t.W * (s_minus - s);
  return t;
}

}  // namespace gpprobe
