#include "certify/exponential_sum_bounds.h"

#include <algorithm>
#include <cmath>

namespace gpprobe {

ExponentFactors::ExponentFactors(const MovingInputs& inputs, const std::vector<double>& fixed_z, const Box& box)
    : zL(fixed_z), zU(fixed_z) {
  const std::size_t n = inputs.n;
  for (std::size_t a = 0; a < inputs.k; ++a) {
    const double* x = inputs.column(a);
    const double lo = box.lower[a], hi = box.upper[a], theta = inputs.theta[a];
    for (std::size_t i = 0; i < n; ++i) {
      // The nearest and the farthest point of [lo, hi] from x_i.
      const double near = x[i] < lo ? lo - x[i] : x[i] > hi ? x[i] - hi : 0.0;
      const double far = std::max(std::abs(x[i] - lo), std::abs(x[i] - hi));
      zL[i] += theta * near * near;
      zU[i] += theta * far * far;
    }
  }
  zm.resize(n), low.resize(n), high.resize(n), mid.resize(n);
  spread.resize(n), spread_expm1.resize(n), spread_exp.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    zm[i] = 0.5 * (zL[i] + zU[i]);
    low[i] = std::exp(-zL[i]);
    high[i] = std::exp(-zU[i]);
    mid[i] = std::exp(-zm[i]);
    spread[i] = zU[i] - zL[i];
    spread_expm1[i] = std::expm1(-spread[i]);
    spread_exp[i] = std::exp(-spread[i]);
  }
}

ExponentialSumBounds exponential_sum_bounds(const double* weights, const ExponentFactors& e, const MovingInputs& inputs,
                                            const std::vector<double>& fixed_z, const Box& box, double rounding) {
  const std::size_t n = inputs.n;
  std::vector<double> b_lower(n), b_upper_negated(n);
  double a_lower = 0.0, a_upper = 0.0, fixed_lower = 0.0, fixed_upper = 0.0, ia_lower = 0.0, ia_upper = 0.0, mass = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double w = weights[i];
    const ExponentFactors::Line below = w >= 0.0 ? e.tangent(w, i) : e.chord(w, i);
    const ExponentFactors::Line above = w >= 0.0 ? e.chord(w, i) : e.tangent(w, i);
    a_lower += below.a;
    a_upper += above.a;
    b_lower[i] = below.b;
    b_upper_negated[i] = -above.b;
    fixed_lower += below.b * fixed_z[i];
    fixed_upper += above.b * fixed_z[i];
    ia_lower += std::min(w * e.low[i], w * e.high[i]);
    ia_upper += std::max(w * e.low[i], w * e.high[i]);
    mass += std::abs(w) * e.low[i] * (1.0 + e.zU[i]);
  }
  SeparableMinimum lowest = minimise_separable(inputs, b_lower.data(), box);
  SeparableMinimum highest = minimise_separable(inputs, b_upper_negated.data(), box);
  const double allowance = rounding * mass;
  ExponentialSumBounds out;
  out.value.lower = std::max(a_lower + fixed_lower + lowest.value, ia_lower) - allowance;
  out.value.upper = std::min(a_upper + fixed_upper - highest.value, ia_upper) + allowance;
  out.lower_point = std::move(lowest.point);
  out.upper_point = std::move(highest.point);
  return out;
}

}  // namespace gpprobe
