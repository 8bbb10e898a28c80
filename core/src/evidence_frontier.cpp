#include "gpprobe/evidence_frontier.h"

#include <cmath>
#include <string>

#include "gpprobe/beta_prior.h"
#include "gpprobe/uncertainty_measures.h"

namespace gpprobe {

Result<std::vector<FrontierPoint>> evidence_frontier(double epsilon, double strength, double max_evidence,
                                                     std::size_t points) {
  Result<BetaGpPrior> prior = BetaGpPrior::make(epsilon, strength);
  if (!prior.ok()) return prior.status();
  if (!(std::isfinite(max_evidence) && max_evidence > 0.0) || points < 2) {
    return Status(StatusCode::invalid_argument, "the frontier needs max_evidence > 0 and at least 2 points");
  }
  const double v = prior.value().variance;
  const double noise = prior.value().raised.variance;
  const double delta = prior.value().raised.mean - prior.value().mean;
  std::vector<FrontierPoint> curve(points);
  const double top = std::log1p(max_evidence);
  for (std::size_t i = 0; i < points; ++i) {
    const double n = std::expm1(top * double(i) / double(points - 1));
    const double mean = n * v * delta / (n * v + noise);
    const double variance = v * noise / (n * v + noise) + v / (n + 1.0);
    const UncertaintyMeasures u = uncertainty_measures(mean, variance);
    curve[i] = {n, u.episteme, u.judged_probability};
  }
  return curve;
}

}  // namespace gpprobe
