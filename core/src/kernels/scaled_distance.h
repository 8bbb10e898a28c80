// r^2 = sum_j ((a_j - b_j) / l_j)^2, the scaled squared distance of the stationary kernels, for an
// isotropic (one l) or ARD length-scale: four lanes at a time in two accumulators, the last d mod 4
// terms one by one (lanes_dot's order). kernel.cpp's leaves and kernel_matrix.cpp's constant * rbf
// loops both call it, so they give the same bits. The divisions stay divisions (correctly rounded lane
// by lane, as scalar ones); the sum's chain is four lanes wide instead of one. Private to core/src.
#pragma once

#include <cstddef>

#include "linalg/lanes.h"

namespace gpprobe {

// One length-scale for every dimension.
struct IsotropicScale {
  double l;
  double at(std::size_t) const { return l; }
  Lanes lanes(std::size_t) const { return splat(l); }
};

// A length-scale per dimension, read through `value(j)`.
template <class Value>
struct ArdScale {
  Value value;
  double at(std::size_t j) const { return value(j); }
  Lanes lanes(std::size_t j) const { return Lanes{value(j), value(j + 1), value(j + 2), value(j + 3)}; }
};

template <class Value>
ArdScale<Value> ard_scale(Value value) {
  return {value};
}

template <class Scale>
inline double scaled_distance2(const double* a, const double* b, std::size_t d, const Scale& l) {
  Lanes even = splat(0.0), odd = splat(0.0);
  std::size_t j = 0;
  for (; j + 2 * kLaneCount <= d; j += 2 * kLaneCount) {
    const Lanes t0 = (load(a + j) - load(b + j)) / l.lanes(j);
    const Lanes t1 = (load(a + j + kLaneCount) - load(b + j + kLaneCount)) / l.lanes(j + kLaneCount);
    even = madd(t0, t0, even);
    odd = madd(t1, t1, odd);
  }
  if (j + kLaneCount <= d) {
    const Lanes t = (load(a + j) - load(b + j)) / l.lanes(j);
    even = madd(t, t, even);
    j += kLaneCount;
  }
  double r2 = sum(even + odd);
  for (; j < d; ++j) {
    const double t = (a[j] - b[j]) / l.at(j);
    r2 += t * t;
  }
  return r2;
}

}  // namespace gpprobe
