// How one more observation changes the probe's latent f = f_alpha - f_beta at every query: a rank-one
// change per latent GP (Sherman-Morrison on its weight covariance C, the same in function space through
// the extended Cholesky factor, docs/design/probe.md, "Posterior: weight space vs function space"). From the posterior without the observation x (features D):
//
//   per GP  g = C x,  p = x'g,  a(q) = psi(q)'g;  with the observation's noise n and residual r and the
//           GP's residual mean x'w at x:   mean += a (r - x'w) / (n + p),   variance -= a^2 / (n + p)
//
// Removing an observation is the same change taken back, computed from the posterior without it (the
// one after the removal): no cancellation against the observation's own noise. O(D) per query instead
// of the O(D^2) (weight space) or O(O D + O^2) (function space) of scoring it again.
#pragma once

#include <vector>

namespace gpprobe {

struct ObservationInfluence {
  struct Share {
    std::vector<double> direction;  // g, D values
    double mean_step = 0.0;         // (r - x'w) / (n + p)
    double variance_step = 0.0;     // 1 / (n + p)
  };
  Share alpha, beta;  // f_alpha adds to the latent mean, f_beta subtracts; both remove variance
};

}  // namespace gpprobe
