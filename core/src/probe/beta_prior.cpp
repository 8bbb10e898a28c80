#include "gpprobe/probe/beta_prior.h"

#include <cmath>
#include <sstream>

#include "gpprobe/common/number_text.h"

#include "common/input_checks.h"

namespace gpprobe {

LogNormalMatch lognormal_match(double shape) {
  LogNormalMatch m;
  m.variance = std::log1p(1.0 / shape);  // log(1/shape + 1) without losing digits for large shape
  m.mean = std::log(shape) - 0.5 * m.variance;
  return m;
}

namespace {

Status check_between(const char* name, double value, double lower, double upper, const char* why) {
  if (value >= lower && value <= upper) return Status::success();
  std::ostringstream os;
  os << name << " must be between " << lower << " and " << upper << " (" << why << "), got " << number_text(value);
  return Status(StatusCode::invalid_argument, os.str());
}

}  // namespace

Result<BetaGpPrior> BetaGpPrior::make(double epsilon, double strength) {
  GPPROBE_RETURN_IF_ERROR(check_positive("epsilon", epsilon));
  GPPROBE_RETURN_IF_ERROR(check_positive("strength", strength));
  GPPROBE_RETURN_IF_ERROR(check_between("epsilon", epsilon, kMinEpsilon, kMaxEpsilon,
                                        "the prior variance log(1/epsilon + 1) must be a normal, finite number"));
  GPPROBE_RETURN_IF_ERROR(
      check_between("strength", strength, 0.0, kMaxStrength, "epsilon + strength must stay finite"));
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
