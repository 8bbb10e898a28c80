// Explain (gpprobe explain) for any bounded output, as the CLI computes it (core/cli/explain/
// explain_command.cpp): the certified feature sensitivity (gpprobe/explain/feature_sensitivity.h) beside
// LIME's coefficients (gpprobe/explain/lime.h), the rank by certified |Delta| (rank_features) and which
// features are constant in training, as a dict of the CLI's CSV columns and JSON line. Shared by the probe's,
// the binary and the multi-class classifier's bindings. Bookkeeping only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpprobe/explain/feature_sensitivity.h"
#include "gpprobe/explain/lime.h"

#include "arrays.h"

namespace gpprobe::python {

// What LIME switches a feature off to: "mean", the column means of the output's training inputs (the
// classifier's training rows, the probe's observations), summed row by row as the CLI sums them; or
// "zero" (pixels).
inline std::vector<double> lime_baseline(const BoundedOutput& output, const std::string& baseline) {
  const std::size_t d = output.dimension();
  if (baseline == "zero") return std::vector<double>(d, 0.0);
  if (baseline != "mean") {
    raise_if_failed(Status(StatusCode::invalid_argument, "baseline must be 'mean' or 'zero', got '" + baseline + "'"));
  }
  const RowMatrix* train = output.training_inputs();
  if (train == nullptr || train->rows() == 0 || std::size_t(train->cols()) != d) {
    raise_if_failed(Status(StatusCode::invalid_argument, "baseline 'mean' needs the training inputs; give 'zero'"));
  }
  std::vector<double> mean(d, 0.0);
  for (Eigen::Index i = 0; i < train->rows(); ++i)
    for (std::size_t j = 0; j < d; ++j) mean[j] += (*train)(i, Eigen::Index(j));
  for (double& m : mean) m /= double(train->rows());
  return mean;
}

struct ExplainArguments {
  double gamma = 0.0;
  std::optional<std::vector<std::size_t>> dims;
  std::optional<std::pair<double, double>> valid_range;
  double tolerance = 1e-3;
  std::size_t max_iterations = 1000;
  double time_limit_seconds = 0.0;
  std::string baseline = "mean";
  std::size_t lime_samples = 5000;
  std::uint64_t seed = 0;
  bool include_constant = false;
  double nearly_constant_share = kNearlyConstantShare;
};

inline py::dict explain_output(const BoundedOutput& output, const std::vector<double>& point,
                               const ExplainArguments& a) {
  SensitivityOptions options;
  options.gamma = a.gamma;
  if (a.dims) options.dims = *a.dims;
  if (a.valid_range) options.valid_range = Interval{a.valid_range->first, a.valid_range->second};
  options.tolerance = a.tolerance;
  options.max_iterations = a.max_iterations;
  options.time_limit_seconds = a.time_limit_seconds;
  options.nearly_constant_share = a.nearly_constant_share;
  if (a.lime_samples < 2) {
    raise_if_failed(
        Status(StatusCode::invalid_argument, "lime_samples must be at least 2, got " + std::to_string(a.lime_samples)));
  }
  LimeOptions lime_options;
  lime_options.samples = a.lime_samples;
  lime_options.seed = a.seed;
  lime_options.dims = options.dims;
  lime_options.baseline = lime_baseline(output, a.baseline);
  std::optional<Result<LocalSensitivity>> local;
  std::optional<Result<LimeExplanation>> lime;
  {
    py::gil_scoped_release unlocked;
    local.emplace(feature_sensitivity(output, point, options));
    if (local->ok()) lime.emplace(lime_explain(output, point, lime_options));
  }
  raise_if_failed(local->status());
  raise_if_failed(lime->status());
  const LocalSensitivity& s = local->value();
  const LimeExplanation& l = lime->value();
  const std::size_t k = s.features.size();
  py::array_t<std::int64_t> feature{py::ssize_t(k)}, iterations{py::ssize_t(k)}, rank{py::ssize_t(k)};
  py::array_t<double> lower = new_column(k), delta = new_column(k), upper = new_column(k), coefficients = new_column(k);
  py::array_t<bool> constant{py::ssize_t(k)}, nearly{py::ssize_t(k)};
  py::array_t<std::int64_t> varying{py::ssize_t(k)};
  std::vector<std::string> status(k);
  std::vector<std::size_t> place(k, 0);
  const std::vector<std::size_t> order = rank_features(s, a.include_constant);
  for (std::size_t r = 0; r < order.size(); ++r) place[order[r]] = r + 1;
  std::size_t unconverged = 0;
  py::list constant_features, nearly_constant_features, time_limited_features;
  for (std::size_t i = 0; i < k; ++i) {
    const FeatureSensitivity& f = s.features[i];
    feature.mutable_data()[i] = std::int64_t(f.feature);
    lower.mutable_data()[i] = f.delta_lower;
    delta.mutable_data()[i] = f.delta;
    upper.mutable_data()[i] = f.delta_upper;
    coefficients.mutable_data()[i] = l.coefficients[i];
    rank.mutable_data()[i] = std::int64_t(place[i]);  // 0: not ranked (the CLI's empty cell)
    constant.mutable_data()[i] = f.constant_in_training;
    if (f.constant_in_training) constant_features.append(f.feature);
    if (f.status == SearchStatus::time_limit) time_limited_features.append(f.feature);
    nearly.mutable_data()[i] = f.nearly_constant_in_training;
    if (f.nearly_constant_in_training) nearly_constant_features.append(f.feature);
    varying.mutable_data()[i] = std::int64_t(f.varying_rows);
    iterations.mutable_data()[i] = std::int64_t(f.iterations);
    status[i] = search_status_name(f.status);
    for (const SideExtremes* side : {&f.minus, &f.plus})
      for (const OutputExtreme* e : {&side->minimum, &side->maximum})
        unconverged += e->status != SearchStatus::converged;
  }
  py::dict out;
  out["feature"] = feature;
  out["delta_lower"] = lower;
  out["delta"] = delta;
  out["delta_upper"] = upper;
  out["lime"] = coefficients;
  out["rank"] = rank;
  out["constant_in_training"] = constant;
  out["nearly_constant_in_training"] = nearly;
  out["varying_rows"] = varying;
  out["status"] = py::module_::import("numpy").attr("array")(py::cast(status), "U");
  out["iterations"] = iterations;
  out["value_at_point"] = s.value;
  out["gamma"] = a.gamma;
  out["lime_intercept"] = l.intercept;
  out["lime_score"] = l.score;
  out["lime_kernel_width"] = l.kernel_width;
  out["unconverged_searches"] = unconverged;
  out["time_limited_features"] = time_limited_features;
  out["constant_features"] = constant_features;
  out["nearly_constant_features"] = nearly_constant_features;
  out["nearly_constant_share"] = a.nearly_constant_share;
  out["constant_ranked"] = a.include_constant;
  return out;
}

// The keyword arguments every explain binding takes, in this order, after `point`.
#define GPPROBE_EXPLAIN_ARGS                                                                                        \
  py::arg("gamma"), py::arg("dims") = py::none(), py::arg("valid_range") = py::none(), py::arg("tolerance") = 1e-3, \
                    py::arg("max_iterations") = 1000, py::arg("time_limit_seconds") = 0.0,                          \
                    py::arg("baseline") = "mean", py::arg("lime_samples") = 5000, py::arg("seed") = 0,              \
                    py::arg("include_constant") = false, py::arg("nearly_constant_share") = kNearlyConstantShare

inline ExplainArguments explain_arguments(double gamma, const std::optional<std::vector<std::size_t>>& dims,
                                          const std::optional<std::pair<double, double>>& valid_range, double tolerance,
                                          std::size_t max_iterations, double time_limit_seconds,
                                          const std::string& baseline, std::size_t lime_samples, std::uint64_t seed,
                                          bool include_constant, double nearly_constant_share) {
  return ExplainArguments{
      gamma,    dims,         valid_range, tolerance,        max_iterations,       time_limit_seconds,
      baseline, lime_samples, seed,        include_constant, nearly_constant_share};
}

}  // namespace gpprobe::python
