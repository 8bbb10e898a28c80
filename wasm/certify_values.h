// Certified bounds as JavaScript values: the settings and certificates of a GP classifier's robustness
// at a point (classifier_robustness.h) and of the probe's verdict at a query (probe_certificate.h), under the
// TS API's names (the CLI's JSON names in camelCase): the settings here, the certificates the core's own
// structs (described next to them, described_values.h). bindings_certify.cpp registers them and converts; the handles (ClassifierHandle.certifyRobustness / .robustnessSweep, ProbeHandle.certify)
// call the functions below on their fitted model. Registration only; the numbers are the core's.
#pragma once

#include <cstddef>
#include <string>

#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/certify/probe_certificate.h"
#include "gpprobe/classification/common_form.h"
#include "gpprobe/probe/probe.h"

#include "binding_support.h"
#include "described_values.h"

namespace gpprobe::wasm {

// RobustnessOptions: gamma, dims (moving coordinates; empty: all), validRange ([lo, hi] or null),
// tolerance, maxIterations, timeLimitSeconds (0: none), search ("both" | "adversarial"), variance
// ("both" | "centred" | "relaxation").
struct RobustnessSettings {
  double gamma = 0, tolerance = 0, maxIterations = 0, timeLimitSeconds = 0;
  val dims = val::array();       // Float64Array or number[] of whole numbers
  val validRange = val::null();  // null or [lo, hi]
  std::string search, variance;
};

// CertifyOptions: gamma, norm ("inf" | "2"), dims, search (branch and bound), tolerance, maxIterations,
// timeLimitSeconds.
struct ProbeCertifySettings {
  double gamma = 0, tolerance = 0, maxIterations = 0, timeLimitSeconds = 0;
  std::string norm;
  val dims = val::array();
  bool search = false;
};

// `point`: Float64Array or number[] of d values. `progress(done, total)` as progress_from; `on_interval`
// a JS function (extremum "minimum" | "maximum", iterations, lower, upper) called after each split, or
// anything else for none.
Reply<RobustnessCertificate> robustness_certificate(const ClassifierCommonForm& form, const val& point,
                                                    const RobustnessSettings& settings, const val& progress,
                                                    const val& on_interval);

// One certificate per value of `gammas` (settings.gamma is ignored); progress (gammas done, gammas).
Reply<RobustnessSweep> robustness_sweep_certificates(const ClassifierCommonForm& form, const val& point,
                                                     const val& gammas, const RobustnessSettings& settings,
                                                     const val& progress);

// The query: `cols` values at `query`, float32 or float64 (dtype 32 / 64).
Reply<ProbeCertificate> probe_certificate(const Probe& probe, std::uintptr_t query, std::size_t cols, int dtype,
                                          const ProbeCertifySettings& settings, const val& progress);

}  // namespace gpprobe::wasm
