// A model's scalar output as the explanations see it (feature_sensitivity.h, lime.h): its values at
// points and, for the certified metric, sound bounds over boxes of a few coordinates through a point.
// Binary GP classification's class probability (gpc_output.h) and the probe's judged probability
// (probe_output.h) implement it; a multi-class classifier plugs in one class at a time, as one more
// BoundedOutput whose values are that class's probability.
//
//   ScalarOutput   dimension() = d; values(points, out): the output at the m rows of `points` (m by d)
//   BoundedOutput  around(point, dims): a BoxBounder for boxes of the k coordinates `dims` (in that
//                  order), every other coordinate fixed at the point's value
//   BoxBounder     bound(box, extremum, root): for a box of k sides (absolute values of the moving
//                  coordinates, not offsets), a sound bound of the output over it (minimum: a lower
//                  bound of its minimum; maximum: an upper bound of its maximum) and candidate points of
//                  the box with their exact values. `root` says the box is a search's first (a model may
//                  spend more on it, e.g. a second variance bound).
//   search_extreme branch and bound (branch_and_bound.h) of one extreme over a root box through a
//                  bounder: an interval [lower, upper] holding the extreme and the witness where the
//                  attained end was found (upper for a minimum, lower for a maximum).
//
// A BoxBounder is used by one thread at a time; around() may be called from several threads at once.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "gpprobe/certify/branch_and_bound.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

class ScalarOutput {
 public:
  virtual ~ScalarOutput() = default;
  virtual std::size_t dimension() const = 0;
  // The output at every row of `points` (m by dimension()) into `out` (m values). Errors name the
  // points ("test inputs have 3 columns, ...").
  virtual Status values(const MatrixView& points, double* out) const = 0;
  // The inputs the model was trained on (n by dimension()), when it has them; the explanations mark
  // the features that never vary there (feature_sensitivity.h constant_features). nullptr: unknown.
  virtual const RowMatrix* training_inputs() const { return nullptr; }
};

class BoxBounder {
 public:
  virtual ~BoxBounder() = default;
  virtual BoxBound bound(const Box& box, Extremum extremum, bool root) const = 0;
  // The widths per unit branch and bound measures sides in (k values, e.g. length-scales).
  virtual std::vector<double> scales() const = 0;
};

class BoundedOutput : public ScalarOutput {
 public:
  // invalid_argument naming the problem for a point of the wrong size or a bad coordinate list;
  // non_finite for a NaN or infinite coordinate of the point.
  virtual Result<std::unique_ptr<BoxBounder>> around(const std::vector<double>& point,
                                                     const std::vector<std::size_t>& dims) const = 0;
};

struct ExtremeSearchOptions {
  double tolerance = 1e-3;            // stop when U - L <= tolerance
  std::size_t max_iterations = 1000;  // boxes split
  double time_limit_seconds = 0.0;    // 0: none
  // The clock time_limit_seconds counts from (BranchAndBoundOptions::started): a request's start, shared by all of
  // its searches; unset: this search's own start.
  std::optional<std::chrono::steady_clock::time_point> started = std::nullopt;
};

struct OutputExtreme {
  double lower = 0.0, upper = 0.0;  // the interval holding the extreme value over the root box
  std::vector<double> witness;      // k values in the root box; the output there is upper (minimum) or
                                    // lower (maximum)
  std::size_t iterations = 0;       // boxes split
  SearchStatus status = SearchStatus::converged;

  // The value attained at the witness.
  double attained(Extremum extremum) const { return extremum == Extremum::minimum ? upper : lower; }
};

// invalid_argument for a malformed root or options; numerical_failure for an unsound bounder.
Result<OutputExtreme> search_extreme(const BoxBounder& bounder, Extremum extremum, const Box& root,
                                     const ExtremeSearchOptions& options = {});

}  // namespace gpprobe
