// Explanations as JavaScript values: the certified feature sensitivity Delta_gamma (feature_sensitivity.h)
// at one or more points and LIME's local linear surrogate (lime.h), for any bounded output the handles
// hold (ClassifierHandle.explain: p(y = +1); MulticlassClassifierHandle.explain: one class's probability;
// ProbeHandle.explain: the judged probability over embedding dimensions). bindings_explain.cpp registers
// the values and runs explain_output; the handles call it on their fitted model. Registration and
// conversion only; the numbers are the core's (the CLI's `gpprobe explain` gives the same).
#pragma once

#include "gpprobe/explain/scalar_output.h"

#include "binding_support.h"

namespace gpprobe::wasm {

// gamma > 0; dims (features explained; empty: all d); validRange ([lo, hi] or null); tolerance,
// maxIterations, timeLimitSeconds (0: none) of each of the four searches per feature; limeSamples (N, the
// point included; 0: no LIME), seed (LIME's sampling), baseline (d values a switched-off feature becomes:
// the training mean for tabular data, 0 for pixels; null: 0).
struct ExplainSettings {
  double gamma = 0, tolerance = 0, maxIterations = 0, timeLimitSeconds = 0, limeSamples = 0, seed = 0;
  double nearlyConstantShare = 0.02;  // feature_sensitivity.h training_variation
  val dims = val::array();
  val validRange = val::null();
  val baseline = val::null();
};

// For m points and k features (row-major m by k where noted): the output at each point, each point's
// Delta interval and value, their means over the points (the global metric, eq. 26), and LIME's
// coefficients, intercepts and weighted R^2 per point (empty with limeSamples 0); per feature, whether it
// is constant in the model's training inputs (feature_sensitivity.h constant_features: the probe's
// observations, the classifiers' training points), or nearly constant (off their most common value in
// fewer than max(2, nearlyConstantShare n) rows; training_variation), such features' Delta measuring
// distance from the data, and in how many training rows each varies.
struct ExplainValue : BindingStatus {
  val features = val::null();                                                               // k
  double points = 0;                                                                        // m
  val values = val::null();                                                                 // m
  val deltaLower = val::null(), delta = val::null(), deltaUpper = val::null();              // m by k
  val meanDeltaLower = val::null(), meanDelta = val::null(), meanDeltaUpper = val::null();  // k
  val constantInTraining = val::null();        // k (Uint8Array, 1: constant in the model's training inputs)
  val nearlyConstantInTraining = val::null();  // k (Uint8Array, 1: nearly constant, training_variation)
  val varyingRows = val::null();               // k (Float64Array: training rows off the most common value)
  val lime = val::null();                      // m by k
  val limeIntercept = val::null(), limeScore = val::null();  // m
  double limeKernelWidth = 0;
  double unconverged = 0;  // searches that stopped at a limit
};

// points: m * d values (Float64Array or number[]), d = output.dimension(); progress sees (point-feature
// pairs done, m k) and may cancel.
ExplainValue explain_output(const BoundedOutput& output, const val& points, const ExplainSettings& settings,
                            const val& progress);

}  // namespace gpprobe::wasm
