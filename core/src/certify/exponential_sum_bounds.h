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
//   4. Intersected with the Taylor form at the box centre (taylor_exponential_sum_bounds): the lines above
//      leave a gap of sum_i |w_i| e^{-zL_i} (zU_i - zL_i)^2 / 8, second order in the box width and carrying the
//      weights' absolute mass, which at a large signal variance (|w_i| ~ s2 |alpha_i|, a sum that cancels to a
//      far smaller f) is wide on boxes as wide as a length-scale; the Taylor form's polynomial part sums the
//      weights first (the exact gradient and Hessian of f at the centre), so the absolute mass enters only its
//      third-order remainder.
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

// The Taylor form of f over the box at its centre c (u = x - c, h_a the half-widths, d_ia = c_a - X_ia):
// z_i(x) = z_i(c) + s_i(u) exactly, s_i(u) = sum_a theta_a (2 d_ia u_a + u_a^2), and
//   e^{-s} = 1 - s + s^2 / 2 + r(s),  r(s) = -s^3 e^{-xi} / 6 (xi between 0 and s), so
//   r in [-s^3 / 6, 0] for s >= 0 and r in [0, |s|^3 e^{|s|} / 6] for s < 0;
// s_i over the box lies in [zL_i - z_i(c), zU_i - z_i(c)]. So f(c + u) = P(u) + sum_i w_i e^{-z_i(c)} r_i, P the
// quartic sum_i w_i e^{-z_i(c)} (1 - s_i + s_i^2 / 2) with the coefficients W0 = sum w_i e_i(c),
// G_a = sum w_i e_i(c) d_ia and Q_ab = sum w_i e_i(c) d_ia d_ib:
//   P(u) = W0 + sum_a (-2 theta_a G_a u_a + (2 theta_a^2 Q_aa - theta_a W0) u_a^2 + 2 theta_a^2 G_a u_a^3
//                      + theta_a^2 W0 u_a^4 / 2)
//        + sum_{a<b} theta_a theta_b (4 Q_ab u_a u_b + 2 G_a u_a u_b^2 + 2 G_b u_b u_a^2 + W0 u_a^2 u_b^2).
// Bounded over the box by the exact range of each coordinate's linear + quadratic part on [-h_a, h_a] and
// interval arithmetic on the rest (every other term is third order in h, or a cross term u_a u_b whose
// coefficient is f's own Hessian at c), plus the remainders' interval sum, widened by `rounding` times
// sum_i |w_i| e_i(c) (1 + sigma_i + sigma_i^2) (1 + zU_i), sigma_i = sum_a theta_a (2 |d_ia| h_a + h_a^2) >= |s_i|.
// O(n k^2).
Interval taylor_exponential_sum_bounds(const double* weights, const ExponentFactors& e, const MovingInputs& inputs,
                                       const std::vector<double>& fixed_z, const Box& box, double rounding);

// weights: n values w_i; rounding: the allowance factor (a multiple of the unit roundoff); taylor: intersect with the
// Taylor form (item 4; false: the reference relaxation alone, items 1-3, as the authors' code bounds the mean).
ExponentialSumBounds exponential_sum_bounds(const double* weights, const ExponentFactors& e, const MovingInputs& inputs,
                                            const std::vector<double>& fixed_z, const Box& box, double rounding,
                                            bool taylor = true);

}  // namespace gpprobe
