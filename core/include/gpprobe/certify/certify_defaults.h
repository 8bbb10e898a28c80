// The defaults of the three certificates' searches (RobustnessOptions, CertifyOptions,
// MulticlassRobustnessOptions), as the other faces show them: web/src/engine/vocabulary.ts restates them
// once (CERTIFY_DEFAULTS), tested against the module's certifyDefaults().
#pragma once

#include <cstddef>
#include <string>

#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/certify/multiclass_robustness.h"
#include "gpprobe/certify/probe_certificate.h"
#include "gpprobe/common/fields.h"

namespace gpprobe {

// The binary classifier's certificate (classifier_robustness.h RobustnessOptions).
struct RobustnessDefaults {
  double tolerance = 0.0;
  std::size_t max_iterations = 0;
  double time_limit_seconds = 0.0;
  std::string search, variance;  // by name (search_name, variance_method_name)
};
GPPROBE_DESCRIBE(RobustnessDefaults, "RobustnessDefaults", GPPROBE_FIELD(tolerance), GPPROBE_FIELD(max_iterations),
                 GPPROBE_FIELD(time_limit_seconds), GPPROBE_FIELD(search), GPPROBE_FIELD(variance));

// The probe's certificate (probe_certificate.h CertifyOptions).
struct ProbeCertifyDefaults {
  double tolerance = 0.0;
  std::size_t max_iterations = 0;
  double time_limit_seconds = 0.0;
  std::string norm;  // by name (norm_name)
};
GPPROBE_DESCRIBE(ProbeCertifyDefaults, "ProbeCertifyDefaults", GPPROBE_FIELD(tolerance), GPPROBE_FIELD(max_iterations),
                 GPPROBE_FIELD(time_limit_seconds), GPPROBE_FIELD(norm));

// The multi-class certificate (multiclass_robustness.h MulticlassRobustnessOptions).
struct MulticlassCertifyDefaults {
  double tolerance = 0.0;
  std::size_t max_iterations = 0;
  double time_limit_seconds = 0.0;
};
GPPROBE_DESCRIBE(MulticlassCertifyDefaults, "MulticlassCertifyDefaults", GPPROBE_FIELD(tolerance),
                 GPPROBE_FIELD(max_iterations), GPPROBE_FIELD(time_limit_seconds));

struct CertifyDefaults {
  RobustnessDefaults robustness;
  ProbeCertifyDefaults probe;
  MulticlassCertifyDefaults multiclass;
};
GPPROBE_DESCRIBE(CertifyDefaults, "CertifyDefaults", GPPROBE_FIELD(robustness), GPPROBE_FIELD(probe),
                 GPPROBE_FIELD(multiclass));

// Read from the options' own defaults.
inline CertifyDefaults certify_defaults() {
  const RobustnessOptions r;
  const CertifyOptions p;
  const MulticlassRobustnessOptions m;
  return {
      {r.tolerance, r.max_iterations, r.time_limit_seconds, search_name(r.search), variance_method_name(r.variance)},
      {p.tolerance, p.max_iterations, p.time_limit_seconds, norm_name(p.norm)},
      {m.tolerance, m.max_iterations, m.time_limit_seconds}};
}

}  // namespace gpprobe
