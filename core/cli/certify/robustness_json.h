// A robustness certificate (classifier_robustness.h) as the JSON fields `gpprobe robustness` prints (17
// significant digits, arrays in coordinate order, no braces around the whole):
//
//   "gamma":G,"probability_at_point":p,"box":{"lower":[..],"upper":[..]},
//   "root":{"mean":[lo,hi],"variance":[lo,hi],"probability":[lo,hi]},
//   "minimum":{"lower":L,"upper":U,"witness":[..],"iterations":N,"status":"converged"},
//   "maximum":{...},"gpfgs":{"point":[..],"probability":p},"verdict_can_flip":"yes|no|unknown"
//
// with minimum.lower <= pi_min <= minimum.upper = pi(minimum.witness) and
// maximum.lower = pi(maximum.witness) <= pi_max <= maximum.upper.
#pragma once

#include <string>

#include "gpprobe/certify/classifier_robustness.h"

namespace gpprobe::cli {

std::string certificate_fields(double gamma, const RobustnessCertificate& certificate);

}  // namespace gpprobe::cli
