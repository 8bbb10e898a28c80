#include "certify/exponential_sum_bounds.h"

#include <algorithm>
#include <cmath>

#include "common/numeric_constants.h"

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

Interval taylor_exponential_sum_bounds(const double* weights, const ExponentFactors& e, const MovingInputs& inputs,
                                       const std::vector<double>& fixed_z, const Box& box, double rounding) {
  const std::size_t n = inputs.n, k = inputs.k;
  std::vector<double> c(k), h(k);
  for (std::size_t a = 0; a < k; ++a) {
    c[a] = 0.5 * (box.lower[a] + box.upper[a]);
    h[a] = 0.5 * (box.upper[a] - box.lower[a]);
  }
  double W0 = 0.0, rest_lower = 0.0, rest_upper = 0.0, mass = 0.0;
  std::vector<double> G(k, 0.0), Q(k * k, 0.0), d(k);
  for (std::size_t i = 0; i < n; ++i) {
    double zc = fixed_z[i], sigma = 0.0;
    for (std::size_t a = 0; a < k; ++a) {
      d[a] = c[a] - inputs.column(a)[i];
      zc += inputs.theta[a] * d[a] * d[a];
      sigma += inputs.theta[a] * (2.0 * std::abs(d[a]) * h[a] + h[a] * h[a]);
    }
    const double we = weights[i] * std::exp(-zc);
    W0 += we;
    for (std::size_t a = 0; a < k; ++a) {
      const double wd = we * d[a];
      G[a] += wd;
      for (std::size_t b = a; b < k; ++b) Q[a * k + b] += wd * d[b];
    }
    // The remainder r_i: s_i in [s_low, s_high] (s_low <= 0 <= s_high), each widened by the rounding of the z's.
    const double slack = 8.0 * kUnitRoundoff * double(k + 4) * (e.zU[i] + zc + 1.0);
    const double s_low = std::min(0.0, e.zL[i] - zc) - slack, s_high = std::max(0.0, e.zU[i] - zc) + slack;
    const double r_low = -s_high * s_high * s_high / 6.0, r_high = -s_low * s_low * s_low / 6.0 * std::exp(-s_low);
    rest_lower += std::min(we * r_low, we * r_high);
    rest_upper += std::max(we * r_low, we * r_high);
    mass += std::abs(we) * (1.0 + sigma + sigma * sigma) * (1.0 + e.zU[i]);
  }
  double lower = W0, upper = W0;
  const double* theta = inputs.theta;
  for (std::size_t a = 0; a < k; ++a) {
    const double ha = h[a], t2 = theta[a] * theta[a];
    // alpha t + beta t^2 on [-h, h]: its ends, and its vertex -alpha / (2 beta) where that lies inside.
    const double alpha = -2.0 * theta[a] * G[a], beta = 2.0 * t2 * Q[a * k + a] - theta[a] * W0;
    double lo = std::min(-alpha * ha + beta * ha * ha, alpha * ha + beta * ha * ha),
           hi = std::max(lo, alpha * ha + beta * ha * ha);
    hi = std::max(hi, -alpha * ha + beta * ha * ha);
    if (beta != 0.0) {
      const double vertex = -alpha / (2.0 * beta);
      if (std::abs(vertex) < ha) {
        const double at = -alpha * alpha / (4.0 * beta);
        lo = std::min(lo, at);
        hi = std::max(hi, at);
      }
    }
    const double cubic = std::abs(2.0 * t2 * G[a]) * ha * ha * ha, quartic = 0.5 * t2 * W0 * ha * ha * ha * ha;
    lower += lo - cubic + std::min(0.0, quartic);
    upper += hi + cubic + std::max(0.0, quartic);
    for (std::size_t b = a + 1; b < k; ++b) {
      const double hb = h[b], tt = theta[a] * theta[b];
      const double cross = std::abs(4.0 * tt * Q[a * k + b]) * ha * hb + std::abs(2.0 * tt * G[a]) * ha * hb * hb +
                           std::abs(2.0 * tt * G[b]) * hb * ha * ha;
      const double fourth = tt * W0 * ha * ha * hb * hb;
      lower += -cross + std::min(0.0, fourth);
      upper += cross + std::max(0.0, fourth);
    }
  }
  const double allowance = 4.0 * rounding * mass;
  return {lower + rest_lower - allowance, upper + rest_upper + allowance};
}

ExponentialSumBounds exponential_sum_bounds(const double* weights, const ExponentFactors& e, const MovingInputs& inputs,
                                            const std::vector<double>& fixed_z, const Box& box, double rounding,
                                            bool taylor) {
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
  if (taylor)
    out.value = intersect(out.value, taylor_exponential_sum_bounds(weights, e, inputs, fixed_z, box, rounding));
  out.lower_point = std::move(lowest.point);
  out.upper_point = std::move(highest.point);
  return out;
}

}  // namespace gpprobe
