// Certified adversarial robustness of a fitted GP classifier at a point x* (Blaas et al., AISTATS 2020;
// docs/design/certify.md, "The robustness problem" and "Branch and bound"): over the region T around x* (robustness_region.h)
//
//   root      sound bounds of the latent mean, latent variance and class probability over all of T at
//             once (box_bounds.h), O(n^2 + n d)
//   minimum   an interval [L, U] holding pi_min(T) with a witness x in T, pi(x) = U, by best-first
//             branch and bound (branch_and_bound.h: the widest side, in length-scale units, is split at
//             its midpoint) until U - L <= tolerance or a limit; the candidates of each box are its
//             centre and the optimisers of the four separable relaxations
//   maximum   the same for pi_max(T): pi(witness) = L <= pi_max <= U
//   gpfgs     the one-step GPFGS attack (gpfgs_attack.h), the heuristic the paper compares with
//
// x* is predicted +1 when pi(x*) > 1/2. Its class can flip in T (`yes`: the witness on the adversarial
// side, pi_min if predicted +1 and pi_max otherwise, lies across 1/2 and is an adversarial example),
// cannot (`no`: the certified bound stays on x*'s side; the paper's Def. 2 "safe"), or `unknown`.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpprobe/certify/box_bounds.h"
#include "gpprobe/certify/branch_and_bound.h"
#include "gpprobe/certify/gpfgs_attack.h"
#include "gpprobe/certify/interval.h"
#include "gpprobe/certify/probe_certificate.h"
#include "gpprobe/classification/common_form.h"
#include "gpprobe/common/enum_names.h"
#include "gpprobe/common/fields.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

// Which extremes branch and bound refines: both, or only the adversarial one (the paper's Fig. 2);
// the other then stops at the root box (its interval is still valid, with 0 iterations).
enum class RobustnessSearch { both, adversarial };
inline constexpr EnumNames<RobustnessSearch, 2> kRobustnessSearchNames = {
    {{RobustnessSearch::both, "both"}, {RobustnessSearch::adversarial, "adversarial"}}};

// "both" / "adversarial".
inline const char* search_name(RobustnessSearch search) { return name_of(kRobustnessSearchNames, search); }
// invalid_argument "search must be both or adversarial, got 'x'".
inline Result<RobustnessSearch> parse_search(const std::string& name) {
  return parse_name(kRobustnessSearchNames, name, "search");
}

// "both" / "centred" / "relaxation" (box_bounds.h VarianceMethod).
inline const char* variance_method_name(VarianceMethod variance) { return name_of(kVarianceMethodNames, variance); }
// invalid_argument "variance must be both, centred or relaxation, got 'x'".
inline Result<VarianceMethod> parse_variance_method(const std::string& name) {
  return parse_name(kVarianceMethodNames, name, "variance");
}

struct RobustnessOptions {
  double gamma = 0.0;                   // radius of the L-inf ball, finite and >= 0
  std::vector<std::size_t> dims;        // coordinates that move, distinct; empty: all
  std::optional<Interval> valid_range;  // clip the moving coordinates to it (e.g. [0, 1] for pixels)
  double tolerance = 1e-2;              // of each search: stop when U - L <= tolerance
  std::size_t max_iterations = 10000;   // boxes split, per search
  // The wall time of the whole request (both searches; every gamma of a sweep), counted from `started`; 0: none.
  // The adversarial search runs first and may use all of it; a search reached after the limit keeps its root box's
  // bound (status time_limit, 0 iterations): a wider interval, still sound.
  double time_limit_seconds = 0.0;
  std::optional<std::chrono::steady_clock::time_point> started;  // the request's start; unset: the call's start
  RobustnessSearch search = RobustnessSearch::both;
  // The variance bounds of every box (box_bounds.h). `both`: both at the root, the centred form
  // below it (where it was tighter on 99% of boxes, at half the cost); `relaxation`: the reference's
  // relaxation everywhere (the paper's algorithm, for comparison); `centred`: the centred form everywhere.
  VarianceMethod variance = VarianceMethod::both;
};

struct ProbabilityExtreme {
  double lower = 0.0, upper = 0.0;  // the interval holding the extreme value of pi over T
  std::vector<double> witness;      // d values in T; pi(witness) = upper (minimum) or lower (maximum)
  std::size_t iterations = 0;       // boxes split
  SearchStatus status = SearchStatus::converged;
};
GPPROBE_DESCRIBE(ProbabilityExtreme, "ProbabilityExtremeValue", GPPROBE_FIELD(lower), GPPROBE_FIELD(upper),
                 GPPROBE_FIELD(witness), GPPROBE_FIELD(iterations), GPPROBE_NAMED(status, kSearchStatusNames));

struct RobustnessCertificate {
  double gamma = 0.0;                    // the radius of T (options.gamma, or the sweep's gamma)
  double probability_at_point = 0.0;     // pi(x*)
  std::vector<double> lower, upper;      // the ends of T (d values each)
  Interval mean, variance, probability;  // the root bounds: sound over all of T
  ProbabilityExtreme minimum, maximum;
  GpfgsAttack gpfgs;
  VerdictFlip verdict_can_flip = VerdictFlip::unknown;
};

// The region T and the root bounds, as the other faces group them.
struct CertifiedBox {
  std::vector<double> lower, upper;
};
GPPROBE_DESCRIBE(CertifiedBox, "BoxValue", GPPROBE_FIELD(lower), GPPROBE_FIELD(upper));
struct RootBounds {
  Interval mean, variance, probability;
};
GPPROBE_DESCRIBE(RootBounds, "RootBoundsValue", GPPROBE_FIELD(mean), GPPROBE_FIELD(variance),
                 GPPROBE_FIELD(probability));
inline CertifiedBox box_of(const RobustnessCertificate& c) { return {c.lower, c.upper}; }
inline RootBounds root_of(const RobustnessCertificate& c) { return {c.mean, c.variance, c.probability}; }
GPPROBE_DESCRIBE(RobustnessCertificate, "RobustnessCertificateValue", GPPROBE_FIELD(gamma),
                 GPPROBE_FIELD(probability_at_point), GPPROBE_COVERED(lower), GPPROBE_COVERED(upper),
                 GPPROBE_COMPUTED("box", box_of), GPPROBE_COVERED(mean), GPPROBE_COVERED(variance),
                 GPPROBE_COVERED(probability), GPPROBE_COMPUTED("root", root_of), GPPROBE_FIELD(minimum),
                 GPPROBE_FIELD(maximum), GPPROBE_FIELD(gpfgs), GPPROBE_NAMED(verdict_can_flip, kVerdictFlipNames));

// One certificate per gamma (robustness_sweep below), as the other faces return them.
struct RobustnessSweep {
  std::vector<RobustnessCertificate> certificates;
};
GPPROBE_DESCRIBE(RobustnessSweep, "RobustnessSweepValue", GPPROBE_FIELD(certificates));

// Called after each split with the extreme searched and its current interval (a live plot).
using IntervalCallback = std::function<void(Extremum extremum, std::size_t iterations, double lower, double upper)>;

// invalid_argument / non_finite naming the problem (the point's size or values, gamma, dims, valid
// range, tolerance). `progress` sees (boxes split so far, searches refined x max_iterations); returning false
// stops the searches, which then report status `cancelled` with the (valid) intervals reached.
Result<RobustnessCertificate> certify_robustness(const ClassifierCommonForm& form, const std::vector<double>& point,
                                                 const RobustnessOptions& options,
                                                 const ProgressCallback& progress = {},
                                                 const IntervalCallback& on_interval = {});

// The paper's Fig. 2: one certificate per gamma (options.gamma is ignored), in the given order.
// `progress` sees (gammas done, gammas) and may cancel between and within them (status `cancelled`).
Result<std::vector<RobustnessCertificate>> robustness_sweep(const ClassifierCommonForm& form,
                                                            const std::vector<double>& point,
                                                            const std::vector<double>& gammas,
                                                            const RobustnessOptions& options,
                                                            const ProgressCallback& progress = {});

}  // namespace gpprobe
