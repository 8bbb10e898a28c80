#include "certify/relaxed_variance_bounds.h"

#include "certify/pairwise_exponential_sums.h"

namespace gpprobe {

namespace {

double dot(const std::vector<double>& a, const double* b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

RelaxedVarianceBounds relaxed_variance_bounds(const RowMatrix& Q, double s2, const ExponentFactors& e,
                                              const MovingInputs& inputs, const std::vector<double>& fixed_z,
                                              const Box& box, double rounding) {
  const std::size_t n = inputs.n;
  std::vector<double> sums(kPairwiseSums * n);
  const PairwiseFactors factors{e.mid.data(),    e.low.data(),          e.high.data(),
                                e.spread.data(), e.spread_expm1.data(), e.spread_exp.data()};
  pairwise_exponential_sums(Q.data(), n, factors, sums.data());
  const auto sum = [&](PairwiseSum s) { return sums.data() + std::size_t(s) * n; };
  std::vector<double> beta_lower(n), beta_upper_negated(n), weighted_mid(n), weighted_low(n);
  for (std::size_t i = 0; i < n; ++i) {
    beta_lower[i] = 2.0 * (e.low[i] * sum(kChordN)[i] - e.mid[i] * sum(kPMid)[i]);
    beta_upper_negated[i] = -2.0 * (e.low[i] * sum(kChordP)[i] - e.mid[i] * sum(kNMid)[i]);
    weighted_mid[i] = e.mid[i] * (1.0 + 2.0 * e.zm[i]);
    weighted_low[i] = 2.0 * e.zL[i] * e.low[i];
  }
  const double a_lower = dot(weighted_mid, sum(kPMid)) + dot(e.low, sum(kNLow)) - dot(weighted_low, sum(kChordN));
  const double a_upper = dot(e.low, sum(kPLow)) - dot(weighted_low, sum(kChordP)) + dot(weighted_mid, sum(kNMid));
  SeparableMinimum lowest = minimise_separable(inputs, beta_lower.data(), box);
  SeparableMinimum highest = minimise_separable(inputs, beta_upper_negated.data(), box);
  const double r = s2 * s2;
  const double lines_lower = r * (a_lower + dot(beta_lower, fixed_z.data()) + lowest.value);
  const double lines_upper = r * (a_upper - dot(beta_upper_negated, fixed_z.data()) - highest.value);
  const double ia_lower = r * (dot(e.high, sum(kPHigh)) + dot(e.low, sum(kNLow)));
  const double ia_upper = r * (dot(e.low, sum(kPLow)) + dot(e.high, sum(kNHigh)));
  double mass = 0.0;
  for (std::size_t i = 0; i < n; ++i) mass += e.low[i] * (1.0 + 2.0 * e.zU[i]) * (sum(kPLow)[i] - sum(kNLow)[i]);
  const double allowance = rounding * (s2 + r * mass);
  RelaxedVarianceBounds out;
  out.variance.lower = s2 - std::min(lines_upper, ia_upper) - allowance;
  out.variance.upper = s2 - std::max(lines_lower, ia_lower) + allowance;
  out.upper_point = std::move(lowest.point);
  out.lower_point = std::move(highest.point);
  return out;
}

}  // namespace gpprobe
