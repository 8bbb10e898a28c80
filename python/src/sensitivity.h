// Certified feature sensitivity (gpprobe/explain/feature_sensitivity.h) for any bounded output, as
// `gpprobe explain` computes it, as a dict of the CLI's columns: shared by the probe's and the classifier's
// bindings. Bookkeeping only.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpprobe/explain/feature_sensitivity.h"

#include "arrays.h"

namespace gpprobe::python {

inline py::dict sensitivity(const BoundedOutput& output, const std::vector<double>& point, double gamma,
                            const std::optional<std::vector<std::size_t>>& dims,
                            const std::optional<std::pair<double, double>>& valid_range, double tolerance,
                            std::size_t max_iterations, double time_limit_seconds) {
  SensitivityOptions options;
  options.gamma = gamma;
  if (dims) options.dims = *dims;
  if (valid_range) options.valid_range = Interval{valid_range->first, valid_range->second};
  options.tolerance = tolerance;
  options.max_iterations = max_iterations;
  options.time_limit_seconds = time_limit_seconds;
  std::optional<Result<LocalSensitivity>> local;
  {
    py::gil_scoped_release unlocked;
    local.emplace(feature_sensitivity(output, point, options));
  }
  raise_if_failed(local->status());
  const LocalSensitivity& s = local->value();
  const std::size_t k = s.features.size();
  py::array_t<std::int64_t> feature{py::ssize_t(k)}, iterations{py::ssize_t(k)};
  py::array_t<double> lower = new_column(k), delta = new_column(k), upper = new_column(k);
  std::vector<std::string> status(k);
  std::size_t unconverged = 0;
  for (std::size_t a = 0; a < k; ++a) {
    const FeatureSensitivity& f = s.features[a];
    feature.mutable_data()[a] = std::int64_t(f.feature);
    lower.mutable_data()[a] = f.delta_lower;
    delta.mutable_data()[a] = f.delta;
    upper.mutable_data()[a] = f.delta_upper;
    iterations.mutable_data()[a] = std::int64_t(f.iterations);
    status[a] = search_status_name(f.status);
    unconverged += f.status != SearchStatus::converged;
  }
  py::dict out;
  out["feature"] = feature;
  out["delta_lower"] = lower;
  out["delta"] = delta;
  out["delta_upper"] = upper;
  out["status"] = py::module_::import("numpy").attr("array")(py::cast(status), "U");
  out["iterations"] = iterations;
  out["value_at_point"] = s.value;
  out["unconverged_searches"] = unconverged;
  return out;
}

}  // namespace gpprobe::python
