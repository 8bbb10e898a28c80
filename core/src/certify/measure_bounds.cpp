#include "gpprobe/certify/measure_bounds.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpprobe/probe/uncertainty_measures.h"

#include "common/numeric_constants.h"

namespace gpprobe {

namespace {

// The quadrature's sums of 128 terms and the log: a few hundred eps of the magnitudes involved.
constexpr double kRounding = 1e-13;

}  // namespace

double quadrature_error_envelope(double variance) {
  if (!(variance > 0.0)) return 1e-12;
  return std::max(1e-12, std::exp(1.2 - 65.0 / std::sqrt(variance)));
}

MeasureBounds measure_bounds(Interval mean, Interval variance) {
  const double s2_L = std::max(variance.lower, 0.0), s2_U = std::max(variance.upper, s2_L);
  const double margin = quadrature_error_envelope(s2_U);
  MeasureBounds out;

  const double judged_low = uncertainty_measures(mean.lower, mean.lower >= 0.0 ? s2_U : s2_L).judged_probability;
  const double judged_high = uncertainty_measures(mean.upper, mean.upper >= 0.0 ? s2_L : s2_U).judged_probability;
  out.judged_probability.lower = std::max(0.0, judged_low - margin - kRounding);
  out.judged_probability.upper = std::min(1.0, judged_high + margin + kRounding);

  // E[h] at (m, s2) is the probe's episteme there plus 1/2 log(2 pi e s2); the log terms of the two
  // ends then differ by 1/2 log(s2_U / s2_L).
  const double m_near = mean.lower > 0.0 ? mean.lower : mean.upper < 0.0 ? mean.upper : 0.0;
  const double m_far = std::fabs(mean.lower) > std::fabs(mean.upper) ? mean.lower : mean.upper;
  const double far_rounding = kRounding * (1.0 + std::fabs(m_far));
  if (s2_L > 0.0) {
    const double log_ratio = 0.5 * std::log(s2_U / s2_L);
    const double low = uncertainty_measures(m_near, s2_L).episteme - log_ratio;
    const double high = uncertainty_measures(m_far, s2_U).episteme + log_ratio;
    out.episteme.lower = low - margin - kRounding * (1.0 + std::fabs(low)) - far_rounding;
    out.episteme.upper = high + margin + kRounding * (1.0 + std::fabs(high)) + far_rounding;
  } else {
    // s2 may come arbitrarily close to 0: -H is unbounded above. Below, E[h] >= h(m_near) (Jensen).
    const double h_near = std::fabs(m_near) + 2.0 * softplus(-std::fabs(m_near));
    const double low = h_near - 0.5 * (std::log(2.0 * 3.14159265358979323846 * s2_U) + 1.0);
    out.episteme.lower = s2_U > 0.0 ? low - margin - kRounding * (1.0 + std::fabs(low)) : -kInfinity;
    out.episteme.upper = kInfinity;
  }
  return out;
}

}  // namespace gpprobe
