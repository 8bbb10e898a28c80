#include "gpprobe/probe/belief_envelope.h"

#include <cmath>
#include <limits>
#include <string>

#include "gpprobe/probe/beta_prior.h"
#include "gpprobe/probe/uncertainty_measures.h"

#include "probe/lane_quadrature.h"

namespace gpprobe {

namespace {

constexpr int kVarianceSteps = 64;  // s2 from 2v * 1e-4 to 2v, log-spaced
constexpr int kMeanSteps = 320;     // m from 0 to kMaxMean, denser near 0
constexpr double kMaxMean = 40.0;

// The mean m >= 0 with E[sigmoid(f)] = p for f ~ N(m, s2): Newton from m0, with the slope
// dE[g]/dm = E[g (1 - g)] > 0, bracketed so a step never leaves [lo, hi].
double mean_for(double p, double s2, double m0, const LaneRule& rule) {
  const double sd = std::sqrt(s2);
  double lo = 0.0, hi = 2.0 * kMaxMean, m = m0;
  for (int iteration = 0; iteration < 40; ++iteration) {
    const JudgedAndSlope at = lane_judged_and_slope(m, sd, rule);
    (at.judged < p ? lo : hi) = m;
    double next = m - (at.judged - p) / at.slope;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::fabs(next - m) < 1e-13 * (1.0 + m)) return next;
    m = next;
  }
  return m;
}

// The least episteme at judged probability p for log-variance in [a, b] (golden-section search).
EnvelopePoint refine(double p, double a, double b, double m0, const LaneRule& rule) {
  const double phi = 0.6180339887498949;
  double m_guess = m0;
  auto episteme_at = [&](double t) {
    m_guess = mean_for(p, std::exp(t), m_guess, rule);
    return lane_measures(m_guess, std::exp(t), rule).episteme;
  };
  double c = b - phi * (b - a), d = a + phi * (b - a);
  double fc = episteme_at(c), fd = episteme_at(d);
  for (int iteration = 0; iteration < 40 && b - a > 1e-9; ++iteration) {
    if (fc < fd) {
      b = d, d = c, fd = fc;
      c = b - phi * (b - a);
      fc = episteme_at(c);
    } else {
      a = c, c = d, fc = fd;
      d = a + phi * (b - a);
      fd = episteme_at(d);
    }
  }
  const double t = fc < fd ? c : d;
  return {p, std::min(fc, fd), std::exp(t)};
}

}  // namespace

Result<std::vector<EnvelopePoint>> belief_envelope(double epsilon, std::size_t points, double max_judged) {
  Result<BetaGpPrior> prior = BetaGpPrior::make(epsilon, 1.0);
  if (!prior.ok()) return prior.status();
  if (points < 2 || !(max_judged > 0.5 && max_judged < 1.0)) {
    return Status(StatusCode::invalid_argument, "the envelope needs at least 2 points and 1/2 < max_judged < 1");
  }
  // Plotting accuracy does not need the probe's 128 nodes; 64 keep every value within 1e-6 here. On
  // lanes (lane_quadrature.h): the grid and the searches are 2-3 million exp and log1p.
  static const LaneRule rule = lane_rule(GaussHermite::make(64));
  const double top = 2.0 * prior.value().variance;
  const double max_logit = std::log(max_judged / (1.0 - max_judged));

  std::vector<EnvelopePoint> envelope(points);
  for (std::size_t k = 0; k < points; ++k) {
    const double logit = max_logit * double(k) / double(points - 1);
    envelope[k].judged_probability = 1.0 / (1.0 + std::exp(-logit));
    envelope[k].episteme = std::numeric_limits<double>::infinity();
  }
  std::vector<double> judged(kMeanSteps), episteme(kMeanSteps);
  std::vector<int> best_step(points, -1);
  std::vector<double> best_mean(points, 0.0);
  for (int j = 0; j < kVarianceSteps; ++j) {
    const double s2 = top * std::pow(1e-4, 1.0 - double(j) / (kVarianceSteps - 1));
    for (int i = 0; i < kMeanSteps; ++i) {
      const double t = double(i) / (kMeanSteps - 1);
      const UncertaintyMeasures u = lane_measures(kMaxMean * t * t, s2, rule);
      judged[i] = u.judged_probability;
      episteme[i] = u.episteme;
    }
    // judged is increasing in m: walk both sorted sequences together, interpolating linearly.
    std::size_t i = 0;
    for (EnvelopePoint& e : envelope) {
      while (i + 1 < std::size_t(kMeanSteps) && judged[i + 1] < e.judged_probability) ++i;
      if (i + 1 >= std::size_t(kMeanSteps) || judged[i] > e.judged_probability) continue;  // out of reach here
      const double w = (e.judged_probability - judged[i]) / (judged[i + 1] - judged[i]);
      const double value = episteme[i] + w * (episteme[i + 1] - episteme[i]);
      if (value < e.episteme) {
        const std::size_t k = std::size_t(&e - envelope.data());
        e.episteme = value;
        e.latent_variance = s2;
        best_step[k] = j;
        const double t0 = double(i) / (kMeanSteps - 1), t1 = double(i + 1) / (kMeanSteps - 1);
        best_mean[k] = kMaxMean * ((1 - w) * t0 * t0 + w * t1 * t1);
      }
    }
  }
  // The grid finds the right cell; a golden-section search over log s2 within the neighbouring cells
  // (never above the prior's 2v) finds the minimum to ~1e-9.
  const double step = std::log(1e-4) / (kVarianceSteps - 1);  // negative: log-spacing of the grid
  for (std::size_t k = 0; k < points; ++k) {
    if (best_step[k] < 0) continue;
    const double t_best = std::log(envelope[k].latent_variance);
    const double a = t_best + step, b = std::min(t_best - step, std::log(top));
    envelope[k] = refine(envelope[k].judged_probability, a, b, best_mean[k], rule);
  }
  return envelope;
}

}  // namespace gpprobe
