#include "gpprobe/explain/feature_sensitivity.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <utility>

#include "gpprobe/linalg/parallel_for.h"

#include "common/input_checks.h"
#include "common/numeric_constants.h"

namespace gpprobe {

namespace {

std::string sensitivity_range_text(Interval range) {
  return "[" + number_text(range.lower) + ", " + number_text(range.upper) + "]";
}

Status check_sensitivity_options(const SensitivityOptions& options, std::size_t d, std::vector<std::size_t>* dims) {
  if (!std::isfinite(options.gamma) || !(options.gamma > 0.0)) {
    return Status(StatusCode::invalid_argument, "gamma must be a finite number > 0, got " + number_text(options.gamma));
  }
  if (!std::isfinite(options.tolerance) || options.tolerance < 0.0) {
    return Status(StatusCode::invalid_argument,
                  "tolerance must be a finite number >= 0, got " + number_text(options.tolerance));
  }
  if (!std::isfinite(options.constant_tolerance) || options.constant_tolerance < 0.0) {
    return Status(StatusCode::invalid_argument, "the constant-feature tolerance must be a finite number >= 0, got " +
                                                    number_text(options.constant_tolerance));
  }
  if (!std::isfinite(options.nearly_constant_share) || options.nearly_constant_share < 0.0 ||
      options.nearly_constant_share > 1.0) {
    return Status(StatusCode::invalid_argument, "the nearly-constant share must be a number in [0, 1], got " +
                                                    number_text(options.nearly_constant_share));
  }
  if (!std::isfinite(options.time_limit_seconds) || options.time_limit_seconds < 0.0) {
    return Status(StatusCode::invalid_argument,
                  "the time limit must be a finite number >= 0, got " + number_text(options.time_limit_seconds));
  }
  if (options.valid_range) {
    const Interval r = *options.valid_range;
    if (!std::isfinite(r.lower) || !std::isfinite(r.upper) || r.lower > r.upper) {
      return Status(StatusCode::invalid_argument,
                    "the valid range " + sensitivity_range_text(r) + " is empty or not finite");
    }
  }
  return check_coordinates(
      dims, d, "the points have " + count_of(d, "coordinate") + " (0 to " + std::to_string(d == 0 ? 0 : d - 1) + ")");
}

// A point's values: finite, and inside the valid range on the features explained.
Status check_sensitivity_point(const double* x, std::size_t d, const std::string& what,
                               const std::vector<std::size_t>& dims, const std::optional<Interval>& valid_range) {
  GPPROBE_RETURN_IF_ERROR(check_finite_values(x, d, what));
  if (!valid_range) return Status::success();
  for (std::size_t j : dims) {
    if (!valid_range->contains(x[j])) {
      return Status(StatusCode::invalid_argument, what + "'s coordinate " + std::to_string(j) + " is " +
                                                      number_text(x[j]) + ", outside the valid range " +
                                                      sensitivity_range_text(*valid_range));
    }
  }
  return Status::success();
}

// The four searches of one feature at one point, and Delta from them.
Status explain_feature(const BoundedOutput& output, const std::vector<double>& point, std::size_t feature,
                       const SensitivityOptions& options, std::chrono::steady_clock::time_point started,
                       FeatureSensitivity* out) {
  Result<std::unique_ptr<BoxBounder>> bounder = output.around(point, {feature});
  if (!bounder.ok()) return bounder.status();
  const double x = point[feature];
  double lo = x - options.gamma, hi = x + options.gamma;
  if (options.valid_range) lo = std::max(lo, options.valid_range->lower), hi = std::min(hi, options.valid_range->upper);
  out->feature = feature;
  out->minus.from = lo;
  out->minus.to = x;
  out->plus.from = x;
  out->plus.to = hi;
  const ExtremeSearchOptions search{options.tolerance, options.max_iterations, options.time_limit_seconds, started};
  out->status = SearchStatus::converged;
  out->iterations = 0;
  for (SideExtremes* side : {&out->minus, &out->plus}) {
    const Box root{{side->from}, {side->to}};
    for (Extremum extremum : {Extremum::minimum, Extremum::maximum}) {
      Result<OutputExtreme> r = search_extreme(*bounder.value(), extremum, root, search);
      if (!r.ok()) return r.status();
      if (r.value().status != SearchStatus::converged && out->status == SearchStatus::converged) {
        out->status = r.value().status;
      }
      out->iterations += r.value().iterations;
      (extremum == Extremum::minimum ? side->minimum : side->maximum) = std::move(r).value();
    }
  }
  const OutputExtreme &max_plus = out->plus.maximum, &max_minus = out->minus.maximum;
  const OutputExtreme &min_plus = out->plus.minimum, &min_minus = out->minus.minimum;
  const double lower = (max_plus.lower - max_minus.upper) + (min_plus.lower - min_minus.upper);
  const double upper = (max_plus.upper - max_minus.lower) + (min_plus.upper - min_minus.lower);
  // Three roundings in each sum: widen each end by twice their bound.
  const double slack_lower =
      4.0 * kUnitRoundoff *
      (std::abs(max_plus.lower) + std::abs(max_minus.upper) + std::abs(min_plus.lower) + std::abs(min_minus.upper));
  const double slack_upper =
      4.0 * kUnitRoundoff *
      (std::abs(max_plus.upper) + std::abs(max_minus.lower) + std::abs(min_plus.upper) + std::abs(min_minus.lower));
  out->delta_lower = lower - slack_lower;
  out->delta_upper = upper + slack_upper;
  out->delta = (max_plus.attained(Extremum::maximum) - max_minus.attained(Extremum::maximum)) +
               (min_plus.attained(Extremum::minimum) - min_minus.attained(Extremum::minimum));
  return Status::success();
}

}  // namespace

std::vector<bool> constant_features(const MatrixView& inputs, double tolerance) {
  const std::size_t n = inputs.rows(), d = inputs.cols();
  if (n == 0) return std::vector<bool>(d, false);
  std::vector<double> row(d), lo(d), hi(d);
  inputs.copy_rows(0, 1, lo.data());
  hi = lo;
  for (std::size_t i = 1; i < n; ++i) {
    inputs.copy_rows(i, 1, row.data());
    for (std::size_t j = 0; j < d; ++j) lo[j] = std::min(lo[j], row[j]), hi[j] = std::max(hi[j], row[j]);
  }
  std::vector<bool> constant(d);
  for (std::size_t j = 0; j < d; ++j) {
    const double scale = std::max({1.0, std::abs(lo[j]), std::abs(hi[j])});
    constant[j] = hi[j] - lo[j] <= tolerance * scale;
  }
  return constant;
}

TrainingVariation training_variation(const MatrixView& inputs, double tolerance, double nearly_constant_share) {
  const std::size_t n = inputs.rows(), d = inputs.cols();
  TrainingVariation v;
  v.varying_rows.assign(d, 0);
  v.constant.assign(d, false);
  v.nearly_constant.assign(d, false);
  if (n == 0) return v;
  std::vector<double> all(n * d), column(n);
  inputs.copy_rows(0, n, all.data());
  // r < max(2, share n), i.e. r <= limit: 1 at least, the largest whole r below share n otherwise.
  const double cut = std::max(2.0, nearly_constant_share * double(n));
  const std::size_t limit = nearly_constant_share > 0.0 ? std::size_t(std::ceil(cut)) - 1 : 0;
  for (std::size_t j = 0; j < d; ++j) {
    for (std::size_t i = 0; i < n; ++i) column[i] = all[i * d + j];
    std::sort(column.begin(), column.end());
    const double width = tolerance * std::max({1.0, std::abs(column.front()), std::abs(column.back())});
    // The most common value: the most rows in a window of the sorted column no wider than `width`.
    std::size_t most = 0;
    for (std::size_t lo = 0, hi = 0; hi < n; ++hi) {
      while (column[hi] - column[lo] > width) ++lo;
      most = std::max(most, hi - lo + 1);
    }
    v.varying_rows[j] = n - most;
    v.constant[j] = column.back() - column.front() <= width;
    v.nearly_constant[j] = !v.constant[j] && v.varying_rows[j] <= limit;
  }
  return v;
}

std::vector<std::size_t> rank_features(const LocalSensitivity& local, bool include_constant) {
  const std::vector<FeatureSensitivity>& f = local.features;
  std::vector<std::size_t> order;
  for (std::size_t a = 0; a < f.size(); ++a)
    if (include_constant || !(f[a].constant_in_training || f[a].nearly_constant_in_training)) order.push_back(a);
  const auto certain = [&](std::size_t a) {
    return f[a].delta_lower > 0.0 ? f[a].delta_lower : f[a].delta_upper < 0.0 ? -f[a].delta_upper : 0.0;
  };
  const auto reach = [&](std::size_t a) { return std::max(std::abs(f[a].delta_lower), std::abs(f[a].delta_upper)); };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (certain(a) != certain(b)) return certain(a) > certain(b);
    if (reach(a) != reach(b)) return reach(a) > reach(b);
    return std::abs(f[a].delta) > std::abs(f[b].delta);
  });
  return order;
}

Result<GlobalSensitivity> global_sensitivity(const BoundedOutput& output, const MatrixView& points,
                                             const SensitivityOptions& options, const ProgressCallback& progress) {
  const std::size_t d = output.dimension(), m = points.rows();
  if (m == 0) return Status(StatusCode::invalid_argument, "there are no points to explain (0 rows)");
  if (points.cols() != d) {
    return Status(StatusCode::dimension_mismatch, "the points have " + count_of(points.cols(), "column") +
                                                      ", the model's inputs have " + count_of(d, "column"));
  }
  // One clock for the whole call (SensitivityOptions::time_limit_seconds).
  const std::chrono::steady_clock::time_point started = options.started.value_or(std::chrono::steady_clock::now());
  std::vector<std::size_t> dims = options.dims;
  GPPROBE_RETURN_IF_ERROR(check_sensitivity_options(options, d, &dims));
  GlobalSensitivity global;
  global.points.resize(m);
  std::vector<double> rows(m * d), values(m);
  points.copy_rows(0, m, rows.data());
  for (std::size_t p = 0; p < m; ++p) {
    const std::string what = m == 1 ? "the point" : "point " + std::to_string(p);
    GPPROBE_RETURN_IF_ERROR(check_sensitivity_point(rows.data() + p * d, d, what, dims, options.valid_range));
    global.points[p].point.assign(rows.begin() + std::ptrdiff_t(p * d), rows.begin() + std::ptrdiff_t((p + 1) * d));
    global.points[p].features.resize(dims.size());
  }
  GPPROBE_RETURN_IF_ERROR(output.values(MatrixView(rows.data(), m, d), values.data()));
  for (std::size_t p = 0; p < m; ++p) global.points[p].value = values[p];

  const std::size_t k = dims.size(), count = m * k;
  const Status status = parallel_tasks(
      count,
      [&](std::size_t task) {
        const std::size_t p = task / k, a = task % k;
        return explain_feature(output, global.points[p].point, dims[a], options, started,
                               &global.points[p].features[a]);
      },
      [&](std::size_t done) {
        if (report_progress(progress, done, count)) return Status::success();
        return Status(StatusCode::cancelled, "the feature sensitivity was cancelled after " +
                                                 count_of(done, "feature search") + " of " + std::to_string(count));
      });
  GPPROBE_RETURN_IF_ERROR(status);

  global.features = dims;
  global.constant_in_training.assign(k, false);
  global.nearly_constant_in_training.assign(k, false);
  global.varying_rows.assign(k, 0);
  if (const RowMatrix* train = output.training_inputs(); train != nullptr && std::size_t(train->cols()) == d) {
    const TrainingVariation v =
        training_variation(MatrixView(*train), options.constant_tolerance, options.nearly_constant_share);
    for (std::size_t a = 0; a < k; ++a) {
      const std::size_t j = dims[a];
      global.constant_in_training[a] = v.constant[j];
      global.nearly_constant_in_training[a] = v.nearly_constant[j];
      global.varying_rows[a] = v.varying_rows[j];
      for (LocalSensitivity& local : global.points) {
        local.features[a].constant_in_training = v.constant[j];
        local.features[a].nearly_constant_in_training = v.nearly_constant[j];
        local.features[a].varying_rows = v.varying_rows[j];
      }
    }
  }
  global.delta_lower.assign(k, 0.0);
  global.delta.assign(k, 0.0);
  global.delta_upper.assign(k, 0.0);
  for (std::size_t a = 0; a < k; ++a) {
    // Means in point order (the same sums whatever thread computed which point).
    double lower = 0.0, delta = 0.0, upper = 0.0, size = 0.0;
    for (const LocalSensitivity& local : global.points) {
      const FeatureSensitivity& f = local.features[a];
      lower += f.delta_lower, delta += f.delta, upper += f.delta_upper;
      size += std::abs(f.delta_lower) + std::abs(f.delta_upper);
    }
    // m - 1 additions and a division, each within u of its exact value.
    const double slack = double(m + 1) * kUnitRoundoff * size / double(m);
    global.delta_lower[a] = lower / double(m) - slack;
    global.delta[a] = delta / double(m);
    global.delta_upper[a] = upper / double(m) + slack;
  }
  return global;
}

Result<LocalSensitivity> feature_sensitivity(const BoundedOutput& output, const std::vector<double>& point,
                                             const SensitivityOptions& options, const ProgressCallback& progress) {
  if (point.size() != output.dimension()) {
    return Status(StatusCode::dimension_mismatch, "the point has " + count_of(point.size(), "coordinate") +
                                                      ", the model's inputs have " +
                                                      count_of(output.dimension(), "column"));
  }
  Result<GlobalSensitivity> global =
      global_sensitivity(output, MatrixView(point.data(), 1, point.size()), options, progress);
  if (!global.ok()) return global.status();
  return std::move(global.value().points.front());
}

}  // namespace gpprobe
