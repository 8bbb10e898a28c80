#include "gpprobe/probe/belief_densities.h"

#include <cmath>
#include <string>
#include <vector>

#include "gpprobe/probe/beta_prior.h"
#include "gpprobe/probe/probe.h"

#include "common/input_checks.h"

namespace gpprobe {

namespace {
constexpr double kLogSqrt2Pi = 0.91893853320467274;  // log sqrt(2 pi)
}

double logit_normal_density(double y, double mean, double variance) {
  if (!(y > 0.0 && y < 1.0)) return 0.0;
  const double z = std::log(y) - std::log1p(-y) - mean;
  return std::exp(-0.5 * z * z / variance - kLogSqrt2Pi - 0.5 * std::log(variance) - std::log(y) - std::log1p(-y));
}

double beta_density(double y, double a, double b) {
  if (!(y > 0.0 && y < 1.0)) return 0.0;
  const double log_beta = std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b);
  return std::exp((a - 1.0) * std::log(y) + (b - 1.0) * std::log1p(-y) - log_beta);
}

Result<LatentBelief> prior_belief(double epsilon) {
  GPPROBE_RETURN_IF_ERROR(check_positive("epsilon", epsilon));
  return LatentBelief{0.0, 2.0 * lognormal_match(epsilon).variance};
}

Result<BeliefAtObservedPoint> belief_at_observed_point(double epsilon, double strength, int positives, int negatives) {
  if (positives < 0 || negatives < 0) {
    return Status(StatusCode::invalid_argument, "observation counts must be >= 0, got " + std::to_string(positives) +
                                                    " positive and " + std::to_string(negatives) + " negative");
  }
  // All observations at one point a; k(a, a) = v for every a, so a = [0] in one dimension will do.
  const std::size_t n = std::size_t(positives + negatives);
  const std::vector<double> x(n, 0.0);
  std::vector<std::uint8_t> labels(n, 0);
  std::fill(labels.begin(), labels.begin() + positives, std::uint8_t(1));
  ProbeOptions options;
  options.epsilon = epsilon;
  options.strength = strength;
  Result<Probe> probe = Probe::fit(MatrixView(x.data(), n, 1), labels.data(), n, options);
  if (!probe.ok()) return probe.status();
  const double query = 0.0;
  BeliefAtObservedPoint b;
  ProbeScoreColumns out;
  out.latent_mean = &b.latent_mean;
  out.latent_variance = &b.latent_variance;
  GPPROBE_RETURN_IF_ERROR(probe.value().score(MatrixView(&query, 1, 1), out));
  b.beta_a = epsilon + strength * positives;
  b.beta_b = epsilon + strength * negatives;
  return b;
}

}  // namespace gpprobe
