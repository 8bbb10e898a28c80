// The set T of a robustness question about a classifier at a point x* (docs/design/certify.md,
// "The robustness problem"): the L-inf ball of radius gamma around x* on chosen coordinates J, every other coordinate
// fixed at x*, optionally clipped to a valid range (pixels in [0, 1]):
//
//   T = { x : x_j = x*_j for j not in J,  max(x*_j - gamma, lo) <= x_j <= min(x*_j + gamma, hi) for j in J }
//
//   point        x*, d finite values
//   gamma        finite, >= 0
//   dims         J: k distinct coordinates < d in any order (the sides of box() follow this order);
//                empty means all d
//   valid_range  [lo, hi] applied to every moving coordinate; x* must lie in it there
//
// Searches over T (branch and bound, attacks) work on box(), the k moving coordinates only; full()
// turns such a k-vector back into a point of R^d.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "gpprobe/certify/branch_and_bound.h"
#include "gpprobe/certify/interval.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

class RobustnessRegion {
 public:
  // invalid_argument naming the problem: "gamma must be a finite number >= 0, got -1", "coordinate 5 is
  // out of range: the point has 2 coordinates (0 to 1)", "coordinate 1 is listed twice", "the valid range
  // [1, 0] is empty", "the point's coordinate 0 is 1.5, outside the valid range [0, 1]"; non_finite for a
  // NaN or infinite coordinate of the point.
  static Result<RobustnessRegion> linf_ball(std::vector<double> point, double gamma, std::vector<std::size_t> dims = {},
                                            std::optional<Interval> valid_range = std::nullopt);

  const std::vector<double>& point() const { return point_; }
  double gamma() const { return gamma_; }
  const std::vector<std::size_t>& dims() const { return dims_; }
  const std::optional<Interval>& valid_range() const { return valid_range_; }
  const Box& box() const { return box_; }                  // k sides, over dims() in their order
  std::size_t dimension() const { return point_.size(); }  // d
  std::size_t size() const { return dims_.size(); }        // k

  // x* with its moving coordinates replaced by `moving` (k values): a point of R^d.
  std::vector<double> full(const std::vector<double>& moving) const;
  // The ends of T in R^d (fixed coordinates have lower = upper = x*_j).
  std::vector<double> lower() const { return full(box_.lower); }
  std::vector<double> upper() const { return full(box_.upper); }

 private:
  RobustnessRegion() = default;

  std::vector<double> point_;
  double gamma_ = 0.0;
  std::vector<std::size_t> dims_;
  std::optional<Interval> valid_range_;
  Box box_;
};

}  // namespace gpprobe
