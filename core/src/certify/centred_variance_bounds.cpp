#include "certify/centred_variance_bounds.h"

#include <algorithm>
#include <cmath>

#include "certify/row_quadratic_range.h"
#include "linalg/signed_lower_products.h"

namespace gpprobe {

namespace {}  // namespace

CentredVarianceBounds centred_variance_bounds(const RowMatrix& M, double s2, const ExponentFactors& e,
                                              const MovingInputs& inputs, const std::vector<double>& fixed_z,
                                              const Box& box, double rounding) {
  const std::size_t n = inputs.n, k = inputs.k;
  const std::vector<double> centre = box.centre();
  std::vector<double> half(k);
  for (std::size_t a = 0; a < k; ++a) half[a] = 0.5 * (box.upper[a] - box.lower[a]);

  // z_i(c) and the columns: tangents [e, b, b d_1..d_k], chords likewise, delta's ends, the rounding
  // mass and k(c).
  std::vector<double> zc = fixed_z;
  for (std::size_t a = 0; a < k; ++a) {
    const double* x = inputs.column(a);
    for (std::size_t i = 0; i < n; ++i) zc[i] += inputs.theta[a] * (centre[a] - x[i]) * (centre[a] - x[i]);
  }
  const std::size_t block = 2 + k, chords = block, delta_low = 2 * block, delta_high = delta_low + 1,
                    mass = delta_low + 2, kc = delta_low + 3, m = delta_low + 4;
  std::vector<double> V(n * m), k_centre(n);
  for (std::size_t i = 0; i < n; ++i) {
    double* v = V.data() + i * m;
    k_centre[i] = s2 * std::exp(-zc[i]);
    const ExponentFactors::Line lines[2] = {e.tangent(s2, i), e.chord(s2, i)};
    for (std::size_t which = 0; which < 2; ++which) {
      double* line = v + which * block;
      line[0] = lines[which].a + lines[which].b * zc[i];
      line[1] = lines[which].b;
      for (std::size_t a = 0; a < k; ++a) line[2 + a] = lines[which].b * (inputs.column(a)[i] - centre[a]);
    }
    v[delta_low] = s2 * e.high[i] - k_centre[i];
    v[delta_high] = s2 * e.low[i] - k_centre[i];
    v[mass] = s2 * e.low[i] * (1.0 + e.zU[i]);
    v[kc] = k_centre[i];
  }
  std::vector<double> plus(n * m), minus(n * m), g(n);  // g = M' v_c = Q k(c)
  signed_lower_products(M.data(), n, V.data(), m, plus.data(), minus.data(), kc, g.data());

  // Each row's deviation (M delta)_r over the box, and the bound of |M delta|^2.
  double remainder = 0.0, mass_squared = 0.0;
  std::vector<double> v_centre(n);
  for (std::size_t r = 0; r < n; ++r) {
    const double* P = plus.data() + r * m;   // the row of max(M, 0) V
    const double* N = minus.data() + r * m;  // the row of min(M, 0) V
    double lower, upper;
    row_quadratic_range(P, N, chords, k, inputs.theta, half.data(), &lower, &upper);
    const double row_mass = P[mass] - N[mass];  // (|M| k^U (1 + zU))_r
    const double allowance = rounding * row_mass;
    v_centre[r] = P[kc] + N[kc];
    const double lo = std::max(lower - v_centre[r], P[delta_low] + N[delta_high]) - allowance;
    const double hi = std::min(upper - v_centre[r], P[delta_high] + N[delta_low]) + allowance;
    remainder += std::max(lo * lo, hi * hi);
    mass_squared += row_mass * row_mass;
  }

  // The linear term g'k(x), g = M' v_c = Q k(c).
  std::vector<double> weights(n);
  double at_centre = s2, g_k = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    weights[i] = s2 * g[i];
    at_centre -= v_centre[i] * v_centre[i];
    g_k += g[i] * k_centre[i];
  }
  const ExponentialSumBounds linear = exponential_sum_bounds(weights.data(), e, inputs, fixed_z, box, rounding);
  const double allowance = rounding * (s2 + mass_squared);
  CentredVarianceBounds out;
  out.variance.upper = at_centre - 2.0 * (linear.value.lower - g_k) + allowance;
  out.variance.lower = at_centre - 2.0 * (linear.value.upper - g_k) - remainder - allowance;
  out.upper_point = linear.lower_point;
  out.lower_point = linear.upper_point;
  return out;
}

}  // namespace gpprobe
