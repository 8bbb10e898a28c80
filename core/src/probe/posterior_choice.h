// Which form of the probe posterior to keep (latent_posterior.h). Function space and weight space give
// the same numbers in exact arithmetic, so the cheaper one is the default; in double precision they
// differ once a form's linear systems are ill-conditioned (a strength of 1e12, thousands of repeated
// observations): its condition estimate says so, and then the other form is fitted too and the better
// conditioned one is kept. When even that one is beyond kMaxCondition the fit is a numerical_failure
// instead of numbers with fewer than ~4 correct digits.
//
//   kFallbackCondition  1e8    up to here a form keeps ~8 digits: no second fit
//   kMaxCondition       1e11   beyond: numerical_failure naming both estimates and the cause
#pragma once

#include <memory>
#include <vector>

#include "gpprobe/probe/probe.h"

#include "probe/latent_posterior.h"

namespace gpprobe {

constexpr double kFallbackCondition = 1e8;
constexpr double kMaxCondition = 1e11;

std::unique_ptr<LatentPosterior> make_posterior(PosteriorSpace space, const BetaGpPrior& prior);

struct ChosenPosterior {
  std::unique_ptr<LatentPosterior> posterior;
  PosteriorSpace space = PosteriorSpace::function;
};

// `current` after its fit or update to (psi, labels), whose outcome is `status`; kept unless that failed
// or its condition estimate exceeds kFallbackCondition, in which case the other form is fitted to the
// same data and the better conditioned of the two is returned. numerical_failure if that one exceeds
// kMaxCondition (or, when both factorisations failed, the current form's own message).
Result<ChosenPosterior> keep_well_conditioned(const Status& status, ChosenPosterior current, const BetaGpPrior& prior,
                                              const RowMatrix& psi, const std::vector<std::uint8_t>& labels);

}  // namespace gpprobe
