// The reference's bound of the latent variance over a box (docs/design/certify.md, "Bounds over a box"
// item 4; the authors' `var_bound = 'quick'`): Sigma(x) = s2 - S(x), S = sum_{i,l} R_il e^{-(z_i + z_l)}, R = s2^2 Q.
// Every pair is c e^{-w} with w = z_i + z_l in [zL_i + zL_l, zU_i + zU_l]: its tangent at the midpoint
// lies below e^{-w}, its chord above, so with P = max(R, 0), N = min(R, 0)
//
//   lower lines of S (P: tangent, N: chord) = a + sum_i beta_i z_i(x)  ->  Sigma^U = s2 - min_box
//   upper lines of S (P: chord, N: tangent)                            ->  Sigma^L = s2 - max_box
//
// both separable (separable_quadratic.h), then intersected with the pairwise interval sum
// S in [sum P e^{-wU} + N e^{-wL}, sum P e^{-wL} + N e^{-wU}] and widened by `rounding` times
// s2 + sum |R_il| e^{-zL_i - zL_l} (1 + zU_i + zU_l). Not yet clipped to [0, s2]. O(n^2) in one pass over
// Q's lower triangle (pairwise_exponential_sums.h). Private to core/src.
#pragma once

#include <vector>

#include "gpprobe/certify/interval.h"
#include "gpprobe/common/matrix_view.h"

#include "certify/exponential_sum_bounds.h"

namespace gpprobe {

struct RelaxedVarianceBounds {
  Interval variance;
  std::vector<double> lower_point, upper_point;  // k values: where the upper / lower lines' sum is optimal
};

// Q: n by n symmetric (the common form's); s2 the signal variance.
RelaxedVarianceBounds relaxed_variance_bounds(const RowMatrix& Q, double s2, const ExponentFactors& e,
                                              const MovingInputs& inputs, const std::vector<double>& fixed_z,
                                              const Box& box, double rounding);

}  // namespace gpprobe
