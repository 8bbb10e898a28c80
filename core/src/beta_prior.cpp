#include "gpprobe/beta_prior.h"

#include <cmath>

#include "input_checks.h"

namespace gpprobe {

LogNormalMatch lognormal_match(double shape) {
  LogNormalMatch m;
  m.variance = std::log1p(1.0 / shape);  // log(1/shape + 1) without losing digits for large shape
  m.mean = std::log(shape) - 0.5 * m.variance;
  return m;
}

Result<BetaGpPrior> BetaGpPrior::make(double epsilon, double strength) {
  GPPROBE_RETURN_IF_ERROR(check_positive("epsilon", epsilon));
  GPPROBE_RETURN_IF_ERROR(check_positive("strength", strength));
  BetaGpPrior p;
  p.epsilon = epsilon;
  p.strength = strength;
  const LogNormalMatch base = lognormal_match(epsilon);
  p.mean = base.mean;
  p.variance = base.variance;
  p.raised = lognormal_match(epsilon + strength);
  return p;
}

}  // namespace gpprobe
