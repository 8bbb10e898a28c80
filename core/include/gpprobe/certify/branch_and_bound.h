// Best-first branch and bound for the minimum (or maximum) of a function f over an axis-aligned box,
// with a certificate: Algorithm 1 of Blaas et al. (AISTATS 2020) as settled in docs/design/certify.md, "Branch and bound".
//
//   root      k-dimensional box [lower, upper]
//   oracle    for a box R: a sound bound L_R <= min_R f (an upper bound when maximising) and candidate
//             points of R with their exact values f(x)
//   result    [lower, upper] holding min_R f, a witness x in the root with f(x) = upper (for a maximum:
//             max_R f in [lower, upper] and f(witness) = lower), iterations, and why it stopped.
//
// The queue holds the open leaves of a partition of the root, keyed by L_R (smallest first). Each
// iteration pops the best box, splits it at the midpoint of its widest side measured in the caller's
// scales ((u_j - l_j) / scale_j, e.g. length-scales), bounds both children, lets each child inherit its
// parent's bound (L_child = max(L_child, L_parent)), updates U and the witness from the candidates,
// and keeps a child open only while L_child < U - tolerance. L = min of L_R over all leaves, open and
// closed. The interval [L, U] is valid whenever the search stops (anytime); `converged` means
// U - L <= tolerance.
//
// Stop reasons (SearchStatus):
//   converged        U - L <= tolerance
//   iteration_limit  max_iterations boxes were split
//   time_limit       time_limit_seconds elapsed, counted from `started` (a request's start, shared by all its
//                    searches) or else from the search's own start. The limit is asked before every split and
//                    again between a split's two children: a child whose bound would start past the limit
//                    inherits its parent's bound (sound, no candidates), so a search overruns its limit by at
//                    most one box's bound.
//   min_box          the best open box is narrower than min_box_width in every scaled side (or cannot be
//                    split in floating point): L cannot rise further
//   cancelled        the progress callback returned false
//
// A box may hold no admissible point (e.g. it lies outside a ball the caller also constrains to): the
// oracle then returns an infinite bound (+inf when minimising) and no candidates, and the box is closed.
//
// Example: the minimum of the class probability of a GP classifier over x* +- gamma, where
// `probability_bounds(box)` returns sound [lower, upper] bounds over the box (docs/design/certify.md,
// "Bounds over a box") and `probability(x)` the exact value:
//
//   BoundOracle oracle = [&](const Box& box) {
//     BoxBound b;
//     b.bound = probability_bounds(box).lower;
//     const std::vector<double> centre = box.centre();
//     b.candidates.push_back({centre, probability(centre)});
//     return b;
//   };
//   BranchAndBoundOptions options;
//   options.tolerance = 0.01;
//   options.scales = length_scales;
//   Result<BranchAndBoundResult> r = branch_and_bound(Extremum::minimum, box, oracle, options);
//   // r.value().lower <= min probability <= r.value().upper = probability(r.value().witness)
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "gpprobe/common/enum_names.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

struct Box {
  std::vector<double> lower, upper;  // k each, lower <= upper

  std::size_t dimension() const { return lower.size(); }
  std::vector<double> centre() const;
  bool contains(const std::vector<double>& x) const;
};

struct BoxPoint {
  std::vector<double> point;  // k, inside the box
  double value = 0.0;         // f(point), exactly as the caller reports f
};

struct BoxBound {
  double bound = 0.0;                // minimum: L_R <= f on the box; maximum: f <= bound on the box
  std::vector<BoxPoint> candidates;  // any number, each inside the box
};

using BoundOracle = std::function<BoxBound(const Box&)>;

enum class Extremum { minimum, maximum };
inline constexpr EnumNames<Extremum, 2> kExtremumNames = {
    {{Extremum::minimum, "minimum"}, {Extremum::maximum, "maximum"}}};

// "minimum" / "maximum".
inline const char* extremum_name(Extremum extremum) { return name_of(kExtremumNames, extremum); }

enum class SearchStatus { converged, iteration_limit, time_limit, min_box, cancelled };
inline constexpr EnumNames<SearchStatus, 5> kSearchStatusNames = {{{SearchStatus::converged, "converged"},
                                                                   {SearchStatus::iteration_limit, "iteration_limit"},
                                                                   {SearchStatus::time_limit, "time_limit"},
                                                                   {SearchStatus::min_box, "min_box"},
                                                                   {SearchStatus::cancelled, "cancelled"}}};

// "converged", "iteration_limit", "time_limit", "min_box", "cancelled".
inline const char* search_status_name(SearchStatus status) { return name_of(kSearchStatusNames, status); }

struct BranchAndBoundOptions {
  double tolerance = 1e-2;             // stop when U - L <= tolerance (>= 0)
  std::size_t max_iterations = 10000;  // boxes split at most
  double time_limit_seconds = 0.0;     // 0: no limit
  // Where the time limit counts from: the start of the request this search is part of, so that the limit is
  // the wall time of the whole request (the searches of a certificate, the certificates of a sweep). Unset:
  // the search's own start. A start whose limit has already passed leaves the root box's bound only.
  std::optional<std::chrono::steady_clock::time_point> started;
  std::vector<double> scales;  // k positive widths per unit; empty: all 1
  double min_box_width = 0.0;  // scaled width below which a box is not split
  ProgressCallback progress;   // (iterations, max_iterations) after each split; false cancels
  // Called after each split with the current interval, e.g. to plot L and U converging.
  std::function<void(std::size_t iterations, double lower, double upper)> on_interval;
};

struct BranchAndBoundResult {
  double lower = 0.0, upper = 0.0;  // the interval holding the extremum
  std::vector<double> witness;      // where the attained end (upper for a minimum) was found; empty if
                                    // no candidate was ever reported
  std::size_t iterations = 0;       // boxes split
  std::size_t boxes_bounded = 0;    // oracle calls
  SearchStatus status = SearchStatus::converged;
};

// invalid_argument for a malformed root or options; numerical_failure if the oracle returns NaN, a
// candidate outside its box, or a candidate value beyond its own box's bound (an unsound oracle).
Result<BranchAndBoundResult> branch_and_bound(Extremum extremum, const Box& root, const BoundOracle& oracle,
                                              const BranchAndBoundOptions& options = {});

}  // namespace gpprobe
