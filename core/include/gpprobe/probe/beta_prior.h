// The Beta GP prior of the probe: g(a) = sigmoid(f_alpha(a) - f_beta(a)) with f_alpha, f_beta
// independent GPs whose marginals are log-normal matches of Gamma(epsilon, 1), so that g(a) is
// approximately Beta(epsilon, epsilon) a priori and Beta(epsilon + s*y, epsilon + s*(1-y)) after
// one observation with label y.
//
// Log-normal match of Gamma(shape, 1):   variance = log(1/shape + 1),
//                                        mean     = log(shape) - variance/2.
#pragma once

#include "gpprobe/common/status.h"

namespace gpprobe {

struct LogNormalMatch {
  double mean = 0.0;
  double variance = 0.0;
};

// The log-normal match of Gamma(shape, 1); shape > 0.
LogNormalMatch lognormal_match(double shape);

// The domain of the hyperparameters. Below 1e-300, 1/epsilon heads for overflow (at 5e-324 the prior
// variance is +Inf and every output NaN); above 1e300 the prior variance falls out of the normal range.
constexpr double kMinEpsilon = 1e-300;
constexpr double kMaxEpsilon = 1e300;
constexpr double kMaxStrength = 1e300;

struct BetaGpPrior {
  double epsilon = 0.1;   // prior Beta(epsilon, epsilon)
  double strength = 5.0;  // s: how much one observation moves the Beta parameters

  double mean = 0.0;      // mu0 = mean(epsilon), the constant prior mean of f_alpha and f_beta
  double variance = 0.0;  // v = var(epsilon) = k(a, a) for every a
  // Target and noise variance of an observation that raises its GP's Beta parameter:
  // mean(epsilon + s) and var(epsilon + s). The other GP sees target mu0 with noise v.
  LogNormalMatch raised;

  // Validates epsilon (in [kMinEpsilon, kMaxEpsilon]) and strength (in (0, kMaxStrength]): invalid_argument
  // naming the bad one otherwise.
  static Result<BetaGpPrior> make(double epsilon, double strength);
};

}  // namespace gpprobe
