#include "gpprobe/probe/uncertainty_measures.h"

#include <cmath>
#include <vector>

#include "linalg/lanes_math.h"
#include "probe/lane_quadrature.h"

namespace gpprobe {

namespace {
constexpr double kLog2PiE = 2.8378770664093453;  // log(2 pi e)
}

double softplus(double x) { return std::fmax(x, 0.0) + std::log1p(std::exp(-std::fabs(x))); }

double latent_episteme(double mean, double variance, double softplus_neg) {
  return -(0.5 * (kLog2PiE + std::log(variance)) - mean - 2.0 * softplus_neg);
}

LaneRule lane_rule(const GaussHermite& full) {
  LaneRule r;
  for (std::size_t i = 0; i < full.nodes.size(); ++i) {
    if (full.weights[i] < 1e-20) continue;
    r.nodes.push_back(full.nodes[i]);
    r.weights.push_back(full.weights[i]);
  }
  while (r.nodes.size() % kLaneCount != 0) {
    r.nodes.push_back(0.0);
    r.weights.push_back(0.0);
  }
  return r;
}

namespace {

const LaneMask kSignBit = LaneMask{} + (long long)0x8000000000000000ULL;

// The probe's rule on lanes: 60 of its 128 nodes.
const LaneRule& probe_lane_rule() {
  static const LaneRule rule = lane_rule(probe_quadrature());
  return rule;
}

}  // namespace

LogisticExpectations lane_expectations(double mean, double sd, const LaneRule& rule) {
  Lanes judged = splat(0.0), alea = splat(0.0), softplus_neg = splat(0.0);
  for (std::size_t i = 0; i < rule.nodes.size(); i += kLaneCount) {
    const Lanes x = splat(mean) + splat(sd) * load(&rule.nodes[i]);
    const Lanes w = load(&rule.weights[i]);
    const Lanes e = exp_nonpositive((Lanes)((LaneMask)x | kSignBit));  // e^-|x|
    const Lanes log1p_e = log1p_unit(e);
    const Lanes sp_neg = positive_part(-x) + log1p_e;
    const Lanes sp_pos = positive_part(x) + log1p_e;
    const Lanes big = splat(1.0) / (splat(1.0) + e);
    const Lanes small = e * big;
    const LaneMask non_negative = x >= splat(0.0);
    const Lanes g = keep(non_negative, big) + keep(~non_negative, small);
    const Lanes one_minus_g = keep(non_negative, small) + keep(~non_negative, big);
    judged += w * g;
    alea += w * (g * sp_neg + one_minus_g * sp_pos);
    softplus_neg += w * sp_neg;
  }
  return {sum(judged), sum(alea), sum(softplus_neg)};
}

UncertaintyMeasures lane_measures(double mean, double variance, const LaneRule& rule) {
  const LogisticExpectations e = lane_expectations(mean, std::sqrt(variance), rule);
  return {e.judged_probability, latent_episteme(mean, variance, e.softplus_neg), e.alea};
}

JudgedAndSlope lane_judged_and_slope(double mean, double sd, const LaneRule& rule) {
  Lanes judged = splat(0.0), slope = splat(0.0);
  for (std::size_t i = 0; i < rule.nodes.size(); i += kLaneCount) {
    const Lanes x = splat(mean) + splat(sd) * load(&rule.nodes[i]);
    const Lanes w = load(&rule.weights[i]);
    const Lanes e = exp_nonpositive((Lanes)((LaneMask)x | kSignBit));
    const Lanes big = splat(1.0) / (splat(1.0) + e);
    const Lanes small = e * big;
    const LaneMask non_negative = x >= splat(0.0);
    const Lanes g = keep(non_negative, big) + keep(~non_negative, small);
    judged += w * g;
    slope += w * (big * small);  // g (1 - g) = sigmoid(|x|) sigmoid(-|x|)
  }
  return {sum(judged), sum(slope)};
}

UncertaintyMeasures uncertainty_measures(double mean, double variance, const GaussHermite& rule) {
  const double sd = std::sqrt(variance);
  if (&rule == &probe_quadrature()) {
    const LogisticExpectations e = lane_expectations(mean, sd, probe_lane_rule());
    return {e.judged_probability, latent_episteme(mean, variance, e.softplus_neg), e.alea};
  }
  const LogisticExpectations e = logistic_expectations(rule.nodes.size(), rule.weights.data(),
                                                       [&](std::size_t i) { return mean + sd * rule.nodes[i]; });
  UncertaintyMeasures m;
  m.judged_probability = e.judged_probability;
  m.alea = e.alea;
  m.episteme = latent_episteme(mean, variance, e.softplus_neg);
  return m;
}

}  // namespace gpprobe
