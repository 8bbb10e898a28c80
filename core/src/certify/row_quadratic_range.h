// The range over a box of one row of a sign-split product of chord and tangent lines (the centred bounds
// of the latent variance, centred_variance_bounds.cpp, and of the multi-class latent covariances,
// multiclass_box_bounds.cpp): with P the row of max(M, 0) V and N the row of min(M, 0) V, where each line
// block of V holds [value at the centre, B, b_a (X_a - c_a) for the k moving coordinates] and the chords
// block starts at `chords`, the row is sum_a theta_a (B u_a^2 - 2 D_a u_a) + const in u = x - c, u_a in
// [-h_a, h_a]: each coordinate's quadratic is bounded exactly (an end, or the vertex inside). Private to
// core/src.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace gpprobe {

// min and max of B u^2 - 2 D u over u in [-h, h].
inline double quadratic_minimum(double B, double D, double h) {
  double v = B * h * h - 2.0 * std::abs(D) * h;
  if (B > 0.0 && std::abs(D) < B * h) v = std::min(v, -D * D / B);
  return v;
}

inline double quadratic_maximum(double B, double D, double h) {
  double v = B * h * h + 2.0 * std::abs(D) * h;
  if (B < 0.0 && std::abs(D) < -B * h) v = std::max(v, -D * D / B);
  return v;
}

// The row's lower and upper bound over the box (theta and half: k values each).
inline void row_quadratic_range(const double* P, const double* N, std::size_t chords, std::size_t k,
                                const double* theta, const double* half, double* lower, double* upper) {
  double lo = P[0] + N[chords], hi = P[chords] + N[0];
  const double B_lower = P[1] + N[chords + 1], B_upper = P[chords + 1] + N[1];
  for (std::size_t a = 0; a < k; ++a) {
    const std::size_t j = 2 + a;
    lo += theta[a] * quadratic_minimum(B_lower, P[j] + N[chords + j], half[a]);
    hi += theta[a] * quadratic_maximum(B_upper, P[chords + j] + N[j], half[a]);
  }
  *lower = lo;
  *upper = hi;
}

}  // namespace gpprobe
