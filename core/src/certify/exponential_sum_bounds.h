// Bounds over a box of a weighted sum of the kernel's exponentials,
//
//   f(x) = sum_i w_i e^{-z_i(x)},   z_i(x) = zfix_i + sum_a theta_a (x_a - X_ia)^2  (a over the moving coordinates)
//
// the latent mean's form (w = s2 alpha) and that of every linear term of the variance bounds (docs/design/
// certify.md, "Bounds over a box" items 1-3):
//   1. ExponentFactors: the exact range [zL_i, zU_i] of each z_i over the box and the factors of the lines
//      of e^{-z} on it: the tangent at the midpoint zm (below) and the chord (above).
//   2. w_i e^{-z_i} lies above w_i tangent and below w_i chord (w_i >= 0; swapped for w_i < 0); summed,
//      the lines are a + sum_i b_i z_i(x), minimised exactly coordinate by coordinate (separable_quadratic.h).
//   3. Intersected with interval arithmetic sum_i [min, max](w_i e^{-zU_i}, w_i e^{-zL_i}), and widened by
//      the rounding allowance `rounding` times sum_i |w_i| e^{-zL_i} (1 + zU_i).
// Private to core/src.
#pragma once

#include <cstddef>
#include <vector>

#include "gpprobe/certify/branch_and_bound.h"
#include "gpprobe/certify/interval.h"

#include "certify/separable_quadratic.h"

namespace gpprobe {

struct ExponentFactors {
  std::vector<double> zL, zU, zm;                        // range of z_i over the box and its midpoint
  std::vector<double> low, high, mid;                    // e^{-zL}, e^{-zU}, e^{-zm}
  std::vector<double> spread, spread_expm1, spread_exp;  // D = zU - zL, expm1(-D), e^{-D}

  // n points; fixed_z: the fixed coordinates' part of every z_i.
  ExponentFactors(const MovingInputs& inputs, const std::vector<double>& fixed_z, const Box& box);

  // The lines of w e^{-z_i} over [zL_i, zU_i], as a + b z.
  struct Line {
    double a, b;
  };
  Line tangent(double w, std::size_t i) const { return {w * mid[i] * (1.0 + zm[i]), -w * mid[i]}; }
  Line chord(double w, std::size_t i) const {
    const double slope = w * low[i] * (spread[i] > 0.0 ? spread_expm1[i] / spread[i] : -1.0);
    return {w * low[i] - slope * zL[i], slope};
  }
};

struct ExponentialSumBounds {
  Interval value;                                // f over the box
  std::vector<double> lower_point, upper_point;  // where the lines' sum reaches its minimum / maximum (k values)
};

// weights: n values w_i; rounding: the allowance factor (a multiple of the unit roundoff).
ExponentialSumBounds exponential_sum_bounds(const double* weights, const ExponentFactors& e, const MovingInputs& inputs,
                                            const std::vector<double>& fixed_z, const Box& box, double rounding);

}  // namespace gpprobe
