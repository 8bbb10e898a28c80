// Closed intervals [lower, upper] of reals and the few interval-arithmetic operations the certified
// bounds use (each returns the exact range of the operation over its argument intervals, up to the
// rounding of its own products, which the callers' margins absorb).
#pragma once

#include <algorithm>

#include "gpprobe/common/fields.h"

namespace gpprobe {

struct Interval {
  double lower = 0.0;
  double upper = 0.0;

  double width() const { return upper - lower; }
  bool contains(double x) const { return x >= lower && x <= upper; }
};
GPPROBE_DESCRIBE(Interval, "IntervalValue", GPPROBE_FIELD(lower), GPPROBE_FIELD(upper));

inline Interval intersect(Interval a, Interval b) { return {std::max(a.lower, b.lower), std::min(a.upper, b.upper)}; }

// x^2 for x in [lo, hi].
inline Interval square(double lo, double hi) {
  const double low = lo > 0.0 ? lo * lo : hi < 0.0 ? hi * hi : 0.0;
  return {low, std::max(lo * lo, hi * hi)};
}

inline Interval times(Interval a, Interval b) {
  const double p[] = {a.lower * b.lower, a.lower * b.upper, a.upper * b.lower, a.upper * b.upper};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

// a / b for b > 0.
inline Interval over(Interval a, Interval b) {
  return {a.lower / (a.lower >= 0.0 ? b.upper : b.lower), a.upper / (a.upper >= 0.0 ? b.lower : b.upper)};
}

}  // namespace gpprobe
