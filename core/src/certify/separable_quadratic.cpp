#include "certify/separable_quadratic.h"

namespace gpprobe {

namespace {

// sum_i b_i (t - x_i)^2.
double weighted_squares(const double* b, const double* x, std::size_t n, double t) {
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = t - x[i];
    sum += b[i] * (r * r);
  }
  return sum;
}

}  // namespace

SeparableMinimum minimise_separable(const MovingInputs& inputs, const double* b, const Box& box) {
  const std::size_t n = inputs.n, k = inputs.k;
  double B = 0.0;
  for (std::size_t i = 0; i < n; ++i) B += b[i];
  SeparableMinimum out;
  out.point.resize(k);
  for (std::size_t a = 0; a < k; ++a) {
    const double* x = inputs.column(a);
    const double lo = box.lower[a], hi = box.upper[a];
    double best_t = lo, best = weighted_squares(b, x, n, lo);
    if (hi > lo) {
      const double at_hi = weighted_squares(b, x, n, hi);
      if (at_hi < best) best = at_hi, best_t = hi;
      if (B > 0.0) {
        double S1 = 0.0;
        for (std::size_t i = 0; i < n; ++i) S1 += b[i] * x[i];
        const double vertex = S1 / B;
        if (vertex > lo && vertex < hi) {
          const double at_vertex = weighted_squares(b, x, n, vertex);
          if (at_vertex < best) best = at_vertex, best_t = vertex;
        }
      }
    }
    out.point[a] = best_t;
    out.value += inputs.theta[a] * best;
  }
  return out;
}

}  // namespace gpprobe
