// Embind registration of the explanations (explain_values.h): settings in, Delta intervals and LIME's
// coefficients out, for the handles' explain methods. Conventions of binding_support.h; no mathematics.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <emscripten/bind.h>

#include "gpprobe/explain/feature_sensitivity.h"
#include "gpprobe/explain/lime.h"

#include "explain_values.h"

namespace gpprobe::wasm {

ExplainValue explain_output(const BoundedOutput& output, const val& points, const ExplainSettings& s,
                            const val& progress) {
  using Value = ExplainValue;
  const std::size_t d = output.dimension();
  const std::vector<double> x = emscripten::convertJSArrayToNumberVector<double>(points);
  if (d == 0 || x.empty() || x.size() % d != 0) {
    return failed<Value>(Status(StatusCode::dimension_mismatch, "the points have " + std::to_string(x.size()) +
                                                                    " values, not a whole number of rows of " +
                                                                    std::to_string(d) + " (the model's inputs)"));
  }
  const std::size_t m = x.size() / d;
  SensitivityOptions o;
  o.gamma = s.gamma;
  o.tolerance = s.tolerance;
  o.time_limit_seconds = s.timeLimitSeconds;
  o.nearly_constant_share = s.nearlyConstantShare;
  if (const Status c = count_argument("maxIterations", s.maxIterations, &o.max_iterations); !c.ok())
    return failed<Value>(c);
  for (double v : emscripten::convertJSArrayToNumberVector<double>(s.dims)) {
    std::size_t i = 0;
    if (const Status c = count_argument("each of dims", v, &i); !c.ok()) return failed<Value>(c);
    o.dims.push_back(i);
  }
  if (!s.validRange.isNull() && !s.validRange.isUndefined()) {
    const std::vector<double> range = emscripten::convertJSArrayToNumberVector<double>(s.validRange);
    if (range.size() != 2) {
      return failed<Value>(Status(StatusCode::invalid_argument,
                                  "validRange must be [lo, hi], got " + std::to_string(range.size()) + " values"));
    }
    o.valid_range = Interval{range[0], range[1]};
  }
  std::size_t samples = 0, seed = 0;
  if (const Status c = count_argument("limeSamples", s.limeSamples, &samples); !c.ok()) return failed<Value>(c);
  if (const Status c = count_argument("seed", s.seed, &seed); !c.ok()) return failed<Value>(c);
  LimeOptions lime;
  lime.samples = samples;
  lime.seed = std::uint64_t(seed);
  lime.dims = o.dims;
  lime.baseline = s.baseline.isNull() || s.baseline.isUndefined()
                      ? std::vector<double>(d, 0.0)
                      : emscripten::convertJSArrayToNumberVector<double>(s.baseline);
  if (samples == 1) {
    return failed<Value>(Status(StatusCode::invalid_argument, "limeSamples must be 0 (no LIME) or at least 2, got 1"));
  }

  Result<GlobalSensitivity> global = global_sensitivity(output, MatrixView(x.data(), m, d), o, progress_from(progress));
  if (!global.ok()) return failed<Value>(global.status());
  const GlobalSensitivity& g = global.value();
  const std::size_t k = g.features.size();
  std::vector<double> features(g.features.begin(), g.features.end()), values(m), lower(m * k), delta(m * k),
      upper(m * k), coefficients, intercepts, scores;
  double kernel_width = 0.0, unconverged = 0.0;
  for (std::size_t p = 0; p < m; ++p) {
    const LocalSensitivity& local = g.points[p];
    values[p] = local.value;
    for (std::size_t a = 0; a < k; ++a) {
      const FeatureSensitivity& f = local.features[a];
      lower[p * k + a] = f.delta_lower, delta[p * k + a] = f.delta, upper[p * k + a] = f.delta_upper;
      for (const SideExtremes* side : {&f.minus, &f.plus})
        for (const OutputExtreme* e : {&side->minimum, &side->maximum})
          unconverged += e->status != SearchStatus::converged;
    }
    if (samples == 0) continue;
    // Each point's own stream (the seed for the first point, as the CLI's single point).
    lime.seed = p == 0 ? std::uint64_t(seed) : std::uint64_t(seed) + p;
    Result<LimeExplanation> e = lime_explain(output, local.point, lime);
    if (!e.ok()) return failed<Value>(e.status());
    coefficients.insert(coefficients.end(), e.value().coefficients.begin(), e.value().coefficients.end());
    intercepts.push_back(e.value().intercept);
    scores.push_back(e.value().score);
    kernel_width = e.value().kernel_width;
  }
  for (const std::vector<double>* v : {&values, &lower, &delta, &upper, &coefficients}) {
    for (double y : *v) {
      if (!std::isfinite(y)) {
        return failed<Value>(Status(StatusCode::numerical_failure, "an explanation's value is not finite"));
      }
    }
  }
  Value v;
  v.features = copy_out(features);
  v.points = double(m);
  v.values = copy_out(values);
  v.deltaLower = copy_out(lower);
  v.delta = copy_out(delta);
  v.deltaUpper = copy_out(upper);
  v.meanDeltaLower = copy_out(g.delta_lower);
  v.meanDelta = copy_out(g.delta);
  v.meanDeltaUpper = copy_out(g.delta_upper);
  std::vector<std::uint8_t> constant(k), nearly(k);
  std::vector<double> varying(k);
  for (std::size_t a = 0; a < k; ++a) {
    constant[a] = g.constant_in_training[a] ? 1 : 0;
    nearly[a] = g.nearly_constant_in_training[a] ? 1 : 0;
    varying[a] = double(g.varying_rows[a]);
  }
  v.constantInTraining = copy_out(constant);
  v.nearlyConstantInTraining = copy_out(nearly);
  v.varyingRows = copy_out(varying);
  v.lime = copy_out(coefficients);
  v.limeIntercept = copy_out(intercepts);
  v.limeScore = copy_out(scores);
  v.limeKernelWidth = kernel_width;
  v.unconverged = unconverged;
  return v;
}

}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_explain) {
  using namespace gpprobe::wasm;
  emscripten::value_object<ExplainSettings>("ExplainSettings")
      .field("gamma", &ExplainSettings::gamma)
      .field("dims", &ExplainSettings::dims)
      .field("validRange", &ExplainSettings::validRange)
      .field("tolerance", &ExplainSettings::tolerance)
      .field("maxIterations", &ExplainSettings::maxIterations)
      .field("timeLimitSeconds", &ExplainSettings::timeLimitSeconds)
      .field("nearlyConstantShare", &ExplainSettings::nearlyConstantShare)
      .field("limeSamples", &ExplainSettings::limeSamples)
      .field("seed", &ExplainSettings::seed)
      .field("baseline", &ExplainSettings::baseline);
  result_object<ExplainValue>("ExplainValue", [](auto& o) {
    o.field("features", &ExplainValue::features)
        .field("points", &ExplainValue::points)
        .field("values", &ExplainValue::values)
        .field("deltaLower", &ExplainValue::deltaLower)
        .field("delta", &ExplainValue::delta)
        .field("deltaUpper", &ExplainValue::deltaUpper)
        .field("meanDeltaLower", &ExplainValue::meanDeltaLower)
        .field("meanDelta", &ExplainValue::meanDelta)
        .field("meanDeltaUpper", &ExplainValue::meanDeltaUpper)
        .field("constantInTraining", &ExplainValue::constantInTraining)
        .field("nearlyConstantInTraining", &ExplainValue::nearlyConstantInTraining)
        .field("varyingRows", &ExplainValue::varyingRows)
        .field("lime", &ExplainValue::lime)
        .field("limeIntercept", &ExplainValue::limeIntercept)
        .field("limeScore", &ExplainValue::limeScore)
        .field("limeKernelWidth", &ExplainValue::limeKernelWidth)
        .field("unconverged", &ExplainValue::unconverged);
  });
}
