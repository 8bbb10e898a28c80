#include "gpprobe/certify/probability_bounds.h"

#include <algorithm>
#include <cmath>

#include "gpprobe/classification/probability.h"

#include "common/numeric_constants.h"

namespace gpprobe {

namespace {

// F(mean, variance) and how far the computed value may lie from the exact one.
struct Evaluated {
  double value;
  double error;
};

Evaluated evaluate(ClassifierLikelihood likelihood, double mean, double variance) {
  if (likelihood == ClassifierLikelihood::probit) {
    const double z = mean / std::sqrt(1.0 + variance);
    const double value = normal_cdf(z);
    return {value, 16.0 * kUnitRoundoff * (1.0 + z * z) * value + 1e-300};
  }
  return {logistic_expectation(mean, variance), logistic_quadrature_margin(variance)};
}

}  // namespace

double logistic_quadrature_margin(double variance) {
  return 3e-13 + (variance > 0.0 ? std::exp(-1.5 - 680.0 / std::sqrt(variance)) : 0.0);
}

Interval probability_bounds(ClassifierLikelihood likelihood, Interval mean, Interval variance) {
  const Evaluated low = evaluate(likelihood, mean.lower, mean.lower >= 0.0 ? variance.upper : variance.lower);
  const Evaluated high = evaluate(likelihood, mean.upper, mean.upper >= 0.0 ? variance.lower : variance.upper);
  return {std::clamp(low.value - low.error, 0.0, 1.0), std::clamp(high.value + high.error, 0.0, 1.0)};
}

}  // namespace gpprobe
