#include "gpprobe/uncertainty_measures.h"

#include <cmath>

namespace gpprobe {

namespace {
constexpr double kLog2PiE = 2.8378770664093453;  // log(2 pi e)
}

double softplus(double x) { return std::fmax(x, 0.0) + std::log1p(std::exp(-std::fabs(x))); }

UncertaintyMeasures uncertainty_measures(double mean, double variance, const GaussHermite& rule) {
  const double sd = std::sqrt(variance);
  double judged = 0.0, alea = 0.0, softplus_neg = 0.0;
  const std::size_t n = rule.nodes.size();
  for (std::size_t i = 0; i < n; ++i) {
    const double f = mean + sd * rule.nodes[i];
    // One exp and one log1p per node: with e = exp(-|f|),
    //   softplus(-f) = max(-f, 0) + log1p(e),  softplus(f) = softplus(-f) + f,
    //   sigmoid(f) = 1/(1+e) for f >= 0 and e/(1+e) otherwise; 1 - sigmoid(f) = sigmoid(-f).
    const double e = std::exp(-std::fabs(f));
    const double log1p_e = std::log1p(e);
    const double sp_neg = std::fmax(-f, 0.0) + log1p_e;
    const double sp_pos = std::fmax(f, 0.0) + log1p_e;
    const double big = 1.0 / (1.0 + e);
    const double small = e / (1.0 + e);
    const double g = f >= 0.0 ? big : small;
    const double one_minus_g = f >= 0.0 ? small : big;
    const double w = rule.weights[i];
    judged += w * g;
    alea += w * (g * sp_neg + one_minus_g * sp_pos);
    softplus_neg += w * sp_neg;
  }
  UncertaintyMeasures m;
  m.judged_probability = judged;
  m.alea = alea;
  m.episteme = -(0.5 * (kLog2PiE + std::log(variance)) - mean - 2.0 * softplus_neg);
  return m;
}

}  // namespace gpprobe
