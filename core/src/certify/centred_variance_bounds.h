// A second bound of the latent variance over a box: the centred form around the box centre c. On small
// boxes it is far tighter than the pairwise relaxation, whose gap ~ sum_il |R_il| e^{-w_il} D_il^2 / 8
// carries the absolute mass of R = s2^2 Q, which exceeds k'Rk by orders of magnitude where the data are
// dense (Synthetic2D at a box of half-width 0.05: true variance [7.3, 13.4], relaxation [0, 52.7], this
// form [6.9, 13.9]). With Q = M'M (M = variance_factor), v(x) = M k(x), v_c = v(c), g = M' v_c = Q k(c)
// and delta(x) = k(x) - k(c):
//
//   Sigma(x) = s2 - |v_c|^2 - 2 g'delta(x) - |M delta(x)|^2
//   Sigma^U  = s2 - |v_c|^2 - 2 (min_box g'k - g'k(c))                                  (|M delta|^2 >= 0)
//   Sigma^L  = s2 - |v_c|^2 - 2 (max_box g'k - g'k(c)) - sum_r max(lo_r^2, hi_r^2)
//
// g'k is an exponential sum (exponential_sum_bounds.h, gap second order in the width), and so is every
// row (M delta)_r = sum_i M_ri k_i(x) - v_c,r, bounded in [lo_r, hi_r] by the same lines (tangent below,
// chord above, exchanged where M_ri < 0) and intersected with interval arithmetic. All n rows at once:
// in coordinates u = x - c on the box the lines of k_i are e_i + b_i sum_a theta_a (u_a^2 - 2 u_a d_ia)
// (e_i the line at z_i(c), d_ia = X_ia - c_a), so each row needs the products of max(M, 0) and min(M, 0)
// with the columns e, b, b d_a of the tangents and chords (signed_lower_products.h, 2 (2 + k) + 4
// columns, O(n^2 k)), then per row k one-dimensional quadratics on [-h_a, h_a]. Private to core/src.
#pragma once

#include <vector>

#include "gpprobe/certify/interval.h"
#include "gpprobe/common/matrix_view.h"

#include "certify/exponential_sum_bounds.h"

namespace gpprobe {

struct CentredVarianceBounds {
  Interval variance;                             // not yet clipped to [0, s2]
  std::vector<double> lower_point, upper_point;  // k values: where Sigma^L / Sigma^U are nearly attained
};

// M: the lower-triangular variance factor (n by n); s2 the signal variance; rounding: the allowance
// factor (a multiple of the unit roundoff).
CentredVarianceBounds centred_variance_bounds(const RowMatrix& M, double s2, const ExponentFactors& e,
                                              const MovingInputs& inputs, const std::vector<double>& fixed_z,
                                              const Box& box, double rounding);

}  // namespace gpprobe
