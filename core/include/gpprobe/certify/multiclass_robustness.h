// Certified adversarial robustness of a multi-class Laplace model at a point x* (Blaas et al. 2020, §5,
// footnote 2; docs/design/multiclass.md "Robustness") over the region T around x* (robustness_region.h:
// the L-inf ball of radius gamma on chosen coordinates, optionally clipped):
//
//   class extremes  for one class c, intervals [L, U] holding pi^c_min(T) and pi^c_max(T), each with a witness
//                   x in T where the model's pi^c(x) is the attained end (U for the minimum, L for the
//                   maximum): best-first branch and bound (branch_and_bound.h) whose box bounds are
//                   multiclass_box_bounds.h (latent moments) + multiclass_probability_bounds.h (Prop. 3-4,
//                   Lemma 1), and whose candidates are each box's centre and the optimisers of class c's mean
//                   relaxations; it stops when U - L <= tolerance or at a limit (SearchStatus).
//   safety margin   the predicted class c^ = argmax_c pi^c(x*) and the margin
//                   min_T (pi^{c^}(x) - max_{c != c^} pi^c(x)) in [L, U]: each box's lower bound is
//                   pi^{c^}_L - max_{c != c^} pi^c_U, U the margin at the best candidate (its witness).
//                   certified when L > 0 (no x in T changes the prediction), refuted when U < 0 (the witness
//                   is an adversarial example), else unknown. The search stops as soon as it is decided
//                   (stop_when_decided), or when U - L <= tolerance, or at a limit.
// For C = 2 the margin > 0 is pi^{c^} > 1/2, the binary question.
//
// Cancellation: `progress` sees (boxes split so far, searches x max_iterations) and may return false; the
// searches then stop with status `cancelled` and the valid intervals reached (anytime).
//
// The time limit is the wall time of the whole request, not of each search: it counts from options.started (the
// request's start; unset, the call's start), so the searches of one call, and of several calls given the same
// `started` (certify_multiclass_robustness: the safety margin, then class c's minimum and maximum), share one clock.
// The searches run in that order and each may use what is left; one reached after the limit does no work (its
// status time_limit, 0 iterations, the trivially sound interval: [0, pi^c(x*)] for a minimum, [pi^c(x*), 1] for a
// maximum, [-1, margin(x*)] for the margin).
// Limits hold inside a box's bound, not only between boxes: the request's time limit and the caller's cancel
// (progress, asked at most every 50 ms) are asked inside the quadratures, the latent partition and the making of
// the bound terms. Work cut short leaves a trivially sound end; a box bounded after the stop gets the trivial bound
// (0, 1, a margin of -1) and no candidate; a search that finished no candidate reports x* as its witness (its value
// is known). The probabilities at x* (the prediction, as predict() computes it) are not cut short by the time limit
// (one quadrature past it at most); a cancel there refuses the certificate (cancelled). The bound terms (MulticlassBoundTerms::bytes) are sized first: out_of_memory
// past kMaxBoundTermBytes, naming the classes, rows and gigabytes.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "gpprobe/certify/branch_and_bound.h"
#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/certify/interval.h"
#include "gpprobe/certify/multiclass_box_bounds.h"
#include "gpprobe/classification/multiclass_laplace.h"
#include "gpprobe/common/fields.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

struct MulticlassRobustnessOptions {
  double gamma = 0.0;                   // radius of the L-inf ball, finite and >= 0
  std::vector<std::size_t> dims;        // coordinates that move, distinct; empty: all
  std::optional<Interval> valid_range;  // clip the moving coordinates to it
  double tolerance = 2e-2;              // stop when U - L <= tolerance
  std::size_t max_iterations = 2000;    // boxes split, per search
  // The wall time of the request, counted from `started` (see above), including the work inside each box's bound;
  // 0: none.
  double time_limit_seconds = 0.0;
  std::optional<std::chrono::steady_clock::time_point> started;  // the request's start; unset: the call's start
  bool stop_when_decided = true;                                 // the safety search stops once certified or refuted
  // The latent partition of every box (Prop. 3-4); target_gap 0 means tolerance / 4. Refined only where the
  // vertex bound (multiclass_box_bounds.h) is wider than the target; 256 cells keep a box at ~1-2 ms (C = 3).
  LatentPartitionOptions partition{0.0, 256, 7.0};
  SoftmaxExpectationOptions quadrature;  // the exact probabilities at candidates and witnesses
};

struct ClassExtreme {
  double lower = 0.0, upper = 0.0;  // the interval holding the extreme of pi^c over T
  std::vector<double> witness;      // d values in T; pi^c(witness) = upper (minimum) or lower (maximum)
  std::size_t iterations = 0;       // boxes split
  SearchStatus status = SearchStatus::converged;
};

struct ClassCertificate {
  std::size_t class_index = 0;
  std::vector<double> probability_at_point;  // C: pi(x*)
  std::vector<double> lower, upper;          // the ends of T (d values each)
  Interval root;                             // Prop. 3-4 bound of pi^c over all of T (one box)
  ClassExtreme minimum, maximum;
};

enum class SafetyVerdict { certified, refuted, unknown };
// "certified", "refuted", "unknown".
const char* safety_verdict_name(SafetyVerdict verdict);
// The verdict of a margin known to lie in [lower, upper]: certified only when lower > 0 (a margin of 0 is a tie,
// where another class may be predicted), refuted when upper < 0 (the witness is an adversarial example), else
// unknown; NaN ends are unknown.
SafetyVerdict safety_verdict(double lower, double upper);

enum class SafetyStop { decided, converged, iteration_limit, time_limit, min_box, cancelled };
// "decided", "converged", "iteration_limit", "time_limit", "min_box", "cancelled".
const char* safety_stop_name(SafetyStop stop);

struct SafetyCertificate {
  std::size_t predicted_class = 0;            // argmax_c pi^c(x*) (the lowest index among ties)
  std::vector<double> probability_at_point;   // C
  std::vector<double> lower_end, upper_end;   // the ends of T
  double lower = 0.0, upper = 0.0;            // the margin min_T (pi^{c^} - max_{c != c^} pi^c) lies in [lower, upper]
  std::vector<double> witness;                // d values; the margin there is `upper`
  std::vector<double> witness_probabilities;  // C: pi at the witness
  SafetyVerdict verdict = SafetyVerdict::unknown;
  SafetyStop stop = SafetyStop::converged;
  std::size_t iterations = 0;
};
GPPROBE_DESCRIBE(SafetyCertificate, "SafetyValue", GPPROBE_FIELD(predicted_class),
                 GPPROBE_COVERED(probability_at_point),                   // the certificate's own (ClassCertificate)
                 GPPROBE_COVERED(lower_end), GPPROBE_COVERED(upper_end),  // the certificate's box
                 GPPROBE_COVERED(lower),
                 GPPROBE_COMPUTED("margin_lower", [](const SafetyCertificate& s) { return s.lower; }),
                 GPPROBE_COVERED(upper),
                 GPPROBE_COMPUTED("margin_upper", [](const SafetyCertificate& s) { return s.upper; }),
                 GPPROBE_FIELD(witness), GPPROBE_FIELD(witness_probabilities), GPPROBE_COVERED(verdict),
                 GPPROBE_COMPUTED("status", [](const SafetyCertificate& s) { return safety_verdict_name(s.verdict); }),
                 GPPROBE_COVERED(stop),
                 GPPROBE_COMPUTED("stop", [](const SafetyCertificate& s) { return safety_stop_name(s.stop); }),
                 GPPROBE_FIELD(iterations));

// dimension_mismatch for a point of the wrong size, invalid_argument for a class index >= C, a tolerance
// that is negative or not finite, and the region's own errors (robustness_region.h); non_finite for NaN / Inf
// in the point.
Result<ClassCertificate> certify_class_probability(const MulticlassLaplace& model, const std::vector<double>& point,
                                                   std::size_t class_index, const MulticlassRobustnessOptions& options,
                                                   const ProgressCallback& progress = {});

Result<SafetyCertificate> certify_safety(const MulticlassLaplace& model, const std::vector<double>& point,
                                         const MulticlassRobustnessOptions& options,
                                         const ProgressCallback& progress = {});

// The request of `gpprobe robustness --likelihood softmax`: the safety margin, then the extremes of class c
// (class_index, or the predicted class without it), under one clock (options.started, or the call's start): all
// three searches together take at most options.time_limit_seconds plus one box's bound. invalid_argument for a
// class index >= C, and the errors of the two calls.
struct MulticlassRobustnessCertificate {
  SafetyCertificate safety;
  ClassCertificate extremes;
  double gamma = 0.0;  // the radius of T (options.gamma)
};
// Shown as one object: the class's certificate, its box and extremes as the binary certificate's, and the
// safety margin.
inline ProbabilityExtreme probability_extreme_of(const ClassExtreme& x) {
  return {x.lower, x.upper, x.witness, x.iterations, x.status};
}
GPPROBE_DESCRIBE(
    MulticlassRobustnessCertificate, "MulticlassCertificateValue",
    GPPROBE_COMPUTED("classes",
                     [](const MulticlassRobustnessCertificate& c) { return c.extremes.probability_at_point.size(); }),
    GPPROBE_COMPUTED("class_index", [](const MulticlassRobustnessCertificate& c) { return c.extremes.class_index; }),
    GPPROBE_FIELD(gamma),
    GPPROBE_COMPUTED("probability_at_point",
                     [](const MulticlassRobustnessCertificate& c) { return c.extremes.probability_at_point; }),
    GPPROBE_COMPUTED("box",
                     [](const MulticlassRobustnessCertificate& c) {
                       return CertifiedBox{c.extremes.lower, c.extremes.upper};
                     }),
    GPPROBE_COMPUTED("root", [](const MulticlassRobustnessCertificate& c) { return c.extremes.root; }),
    GPPROBE_COMPUTED("minimum",
                     [](const MulticlassRobustnessCertificate& c) {
                       return probability_extreme_of(c.extremes.minimum);
                     }),
    GPPROBE_COMPUTED("maximum",
                     [](const MulticlassRobustnessCertificate& c) {
                       return probability_extreme_of(c.extremes.maximum);
                     }),
    GPPROBE_FIELD(safety), GPPROBE_COVERED(extremes));
Result<MulticlassRobustnessCertificate> certify_multiclass_robustness(const MulticlassLaplace& model,
                                                                      const std::vector<double>& point,
                                                                      std::optional<std::size_t> class_index,
                                                                      const MulticlassRobustnessOptions& options,
                                                                      const ProgressCallback& progress = {});

}  // namespace gpprobe
