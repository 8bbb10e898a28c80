#include "gpprobe/certify/robustness_region.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/input_checks.h"

namespace gpprobe {

namespace {

std::string range_text(Interval range) {
  return "[" + number_text(range.lower) + ", " + number_text(range.upper) + "]";
}

}  // namespace

Result<RobustnessRegion> RobustnessRegion::linf_ball(std::vector<double> point, double gamma,
                                                     std::vector<std::size_t> dims,
                                                     std::optional<Interval> valid_range) {
  const std::size_t d = point.size();
  if (d == 0) return Status(StatusCode::invalid_argument, "the point has no coordinates");
  GPPROBE_RETURN_IF_ERROR(check_finite_values(point.data(), d, "the point"));
  if (!std::isfinite(gamma) || gamma < 0.0) {
    return Status(StatusCode::invalid_argument, "gamma must be a finite number >= 0, got " + number_text(gamma));
  }
  GPPROBE_RETURN_IF_ERROR(check_coordinates(
      &dims, d, "the point has " + count_of(d, "coordinate") + " (0 to " + std::to_string(d - 1) + ")"));
  if (valid_range) {
    const Interval r = *valid_range;
    if (!std::isfinite(r.lower) || !std::isfinite(r.upper) || r.lower > r.upper) {
      return Status(StatusCode::invalid_argument, "the valid range " + range_text(r) + " is empty or not finite");
    }
    for (std::size_t j : dims) {
      if (!r.contains(point[j])) {
        return Status(StatusCode::invalid_argument, "the point's coordinate " + std::to_string(j) + " is " +
                                                        number_text(point[j]) + ", outside the valid range " +
                                                        range_text(r));
      }
    }
  }
  RobustnessRegion region;
  region.box_.lower.resize(dims.size());
  region.box_.upper.resize(dims.size());
  for (std::size_t a = 0; a < dims.size(); ++a) {
    double lo = point[dims[a]] - gamma, hi = point[dims[a]] + gamma;
    if (valid_range) lo = std::max(lo, valid_range->lower), hi = std::min(hi, valid_range->upper);
    region.box_.lower[a] = lo;
    region.box_.upper[a] = hi;
  }
  region.point_ = std::move(point);
  region.gamma_ = gamma;
  region.dims_ = std::move(dims);
  region.valid_range_ = valid_range;
  return region;
}

std::vector<double> RobustnessRegion::full(const std::vector<double>& moving) const {
  std::vector<double> x = point_;
  for (std::size_t a = 0; a < dims_.size(); ++a) x[dims_[a]] = moving[a];
  return x;
}

}  // namespace gpprobe
