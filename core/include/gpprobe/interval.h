// A closed interval [lower, upper] of reals: the value of a certified bound.
#pragma once

namespace gpprobe {

struct Interval {
  double lower = 0.0;
  double upper = 0.0;

  double width() const { return upper - lower; }
  bool contains(double x) const { return x >= lower && x <= upper; }
};

}  // namespace gpprobe
