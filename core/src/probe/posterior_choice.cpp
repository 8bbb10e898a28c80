#include "probe/posterior_choice.h"

#include <algorithm>
#include <limits>
#include <sstream>

#include "probe/function_space_posterior.h"
#include "probe/weight_space_posterior.h"

namespace gpprobe {

std::unique_ptr<LatentPosterior> make_posterior(PosteriorSpace space, const BetaGpPrior& prior) {
  if (space == PosteriorSpace::weight) return std::make_unique<WeightSpacePosterior>(prior);
  return std::make_unique<FunctionSpacePosterior>(prior);
}

namespace {

constexpr double kFailed = std::numeric_limits<double>::infinity();

// A form's condition estimate, +Inf when its fit failed or produced no number (NaN from overflow).
double condition_of(const Status& status, const LatentPosterior& posterior) {
  const double c = status.ok() ? posterior.condition() : kFailed;
  return c >= 1.0 ? c : kFailed;
}

}  // namespace

Result<ChosenPosterior> keep_well_conditioned(const Status& status, ChosenPosterior current, const BetaGpPrior& prior,
                                              const RowMatrix& psi, const std::vector<std::uint8_t>& labels) {
  const double current_condition = condition_of(status, *current.posterior);
  if (current_condition <= kFallbackCondition) return current;

  ChosenPosterior other{nullptr,
                        current.space == PosteriorSpace::function ? PosteriorSpace::weight : PosteriorSpace::function};
  other.posterior = make_posterior(other.space, prior);
  const Status other_status = other.posterior->fit(psi, labels);
  const double other_condition = condition_of(other_status, *other.posterior);
  if (std::min(current_condition, other_condition) <= kMaxCondition) {
    return other_condition < current_condition ? std::move(other) : std::move(current);
  }
  if (!status.ok() && !other_status.ok()) return status;

  std::ostringstream os;
  os.precision(2);
  const auto estimate = [&](double c, PosteriorSpace space) {
    os << (c == kFailed ? "a failed factorisation" : "condition estimate ");
    if (c != kFailed) os << c;
    os << " in " << space_name(space) << " space";
  };
  os << "the probe's posterior cannot be computed accurately in double precision (";
  estimate(current_condition, current.space);
  os << ", ";
  estimate(other_condition, other.space);
  os << "; at most " << kMaxCondition << "): with epsilon " << prior.epsilon << " and strength " << prior.strength
     << " an observation's noise variance is " << prior.raised.variance << " against a prior variance of "
     << prior.variance << " (a smaller strength, or fewer repeated observations, helps)";
  return Status(StatusCode::numerical_failure, os.str());
}

}  // namespace gpprobe
