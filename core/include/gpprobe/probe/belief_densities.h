// Densities of the probe's belief g(a) = sigmoid(f(a)) in (0, 1), for plots:
//
//   logit-normal (paper Eq. 8):  p(y) = exp(-(logit y - m)^2 / (2 s2)) / (y (1 - y) sqrt(2 pi s2)),
//                                f ~ N(m, s2); with m = 0, s2 = 2v it is the prior (Eq. 9);
//   Beta(a, b):                  p(y) = y^(a-1) (1 - y)^(b-1) / B(a, b)   (through lgamma, no overflow).
//
// The prior belief at any point (no observation): f = f_alpha - f_beta ~ N(0, 2 v(epsilon)), whatever
// the strength. And the belief the probe holds at a point observed `positives` times with label 1 and `negatives`
// times with label 0 (all at that point): exactly Beta(eps + s*positives, eps + s*negatives) in the
// Beta model; the GP's logit-normal approximation has the latent mean/variance of a Probe fitted to
// those observations and queried at the same point (paper Figs 9-11).
#pragma once

#include "gpprobe/common/status.h"

namespace gpprobe {

double logit_normal_density(double y, double mean, double variance);
double beta_density(double y, double a, double b);

struct BeliefAtObservedPoint {
  double beta_a = 0.0;  // exact Beta parameters
  double beta_b = 0.0;
  double latent_mean = 0.0;  // the probe's approximation: g = sigmoid(f), f ~ N(latent_mean, latent_variance)
  double latent_variance = 0.0;
};

struct LatentBelief {
  double mean = 0.0;
  double variance = 0.0;
};

// invalid_argument unless epsilon is finite and > 0.
Result<LatentBelief> prior_belief(double epsilon);

// positives, negatives >= 0; invalid epsilon/strength give the probe's messages.
Result<BeliefAtObservedPoint> belief_at_observed_point(double epsilon, double strength, int positives, int negatives);

}  // namespace gpprobe
