// The separable problems of the latent bounds over a box (docs/design/certify.md, "Bounds over a box"
// items 3-4):
// a sum of lines b_i z_i in the scaled squared distances z_i(x) = sum_a theta_a (x_a - X_ia)^2 (+ a part
// from the fixed coordinates, constant over the box) is, over the k moving coordinates,
//
//   h(x) = sum_a theta_a sum_i b_i (x_a - X_ia)^2 = sum_a theta_a (B x_a^2 - 2 S1_a x_a + S2_a),  B = sum_i b_i,
//
// k independent quadratics, so min_box h is exact: each is smallest at an end of [l_a, u_a] or, when
// B > 0, at its vertex S1_a / B if that lies inside. Values are summed directly as b_i (t - X_ia)^2,
// never through the expanded form (whose B t^2 and S2 cancel). Private to core/src.
#pragma once

#include <cstddef>
#include <vector>

#include "gpprobe/certify/branch_and_bound.h"

namespace gpprobe {

// The training inputs on the moving coordinates, column by column, and their theta_a = 1 / (2 l_a^2)
// (a view: the caller owns the values).
struct MovingInputs {
  std::size_t n = 0, k = 0;
  const double* columns = nullptr;  // k columns of n: X_{., a} starts at columns + a * n
  const double* theta = nullptr;    // k

  const double* column(std::size_t a) const { return columns + a * n; }
};

struct SeparableMinimum {
  double value = 0.0;         // min over the box of h
  std::vector<double> point;  // k values in the box where it is attained
};

// b: n weights. Cost O(n k).
SeparableMinimum minimise_separable(const MovingInputs& inputs, const double* b, const Box& box);

}  // namespace gpprobe
