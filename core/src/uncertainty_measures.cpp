#include "gpprobe/uncertainty_measures.h"

#include <cmath>

namespace gpprobe {

namespace {
constexpr double kLog2PiE = 2.8378770664093453;  // log(2 pi e)
}

double softplus(double x) { return std::fmax(x, 0.0) + std::log1p(std::exp(-std::fabs(x))); }

double latent_episteme(double mean, double variance, double softplus_neg) {
  return -(0.5 * (kLog2PiE + std::log(variance)) - mean - 2.0 * softplus_neg);
}

UncertaintyMeasures uncertainty_measures(double mean, double variance, const GaussHermite& rule) {
  const double sd = std::sqrt(variance);
  const LogisticExpectations e = logistic_expectations(rule.nodes.size(), rule.weights.data(),
                                                       [&](std::size_t i) { return mean + sd * rule.nodes[i]; });
  UncertaintyMeasures m;
  m.judged_probability = e.judged_probability;
  m.alea = e.alea;
  m.episteme = latent_episteme(mean, variance, e.softplus_neg);
  return m;
}

}  // namespace gpprobe
