// The boundary of the rational region of the judged-probability-vs-episteme plot (paper Fig. 2, after
// Fox & Ulkumen): for each judged probability p, the least episteme any belief of the probe can have,
//
//   e_min(p) = min { episteme(m, s2) : judged(m, s2) = p,  0 < s2 <= 2v },
//
// over Gaussian beliefs f ~ N(m, s2) about the latent function with at most the prior's variance 2v
// (evidence only ever removes variance). A point with episteme below e_min at its judged probability
// claims that certainty with less knowledge than any posterior of this prior could have: irrational.
// Every output of the probe lies on the rational side by construction; overconfident probes (an
// ensemble of logistic regressions, say) need not.
//
// Computed on a grid: for each s2 (log-spaced up to 2v), judged and episteme along m >= 0 (judged is
// increasing in m), interpolated at the requested p, minimised over s2. Symmetric: e_min(1-p) = e_min(p).
#pragma once

#include <cstddef>
#include <vector>

#include "gpprobe/common/status.h"

namespace gpprobe {

struct EnvelopePoint {
  double judged_probability = 0.0;  // in [1/2, 1)
  double episteme = 0.0;            // the least episteme at that judged probability
  double latent_variance = 0.0;     // the s2 that attains it
};

// `points` >= 2 judged probabilities from 1/2 to max_judged (< 1), evenly spaced in logit.
Result<std::vector<EnvelopePoint>> belief_envelope(double epsilon, std::size_t points, double max_judged = 0.999);

}  // namespace gpprobe
