#include "gpprobe/explain/scalar_output.h"

namespace gpprobe {

Result<OutputExtreme> search_extreme(const BoxBounder& bounder, Extremum extremum, const Box& root,
                                     const ExtremeSearchOptions& options) {
  BranchAndBoundOptions search;
  search.tolerance = options.tolerance;
  search.max_iterations = options.max_iterations;
  search.time_limit_seconds = options.time_limit_seconds;
  search.started = options.started;
  search.scales = bounder.scales();
  // The root is the box branch and bound bounds first; every later box is a strict part of it.
  bool first = true;
  const BoundOracle oracle = [&](const Box& box) {
    const bool root_box = first;
    first = false;
    return bounder.bound(box, extremum, root_box);
  };
  Result<BranchAndBoundResult> r = branch_and_bound(extremum, root, oracle, search);
  if (!r.ok()) return r.status();
  const BranchAndBoundResult& s = r.value();
  return OutputExtreme{s.lower, s.upper, s.witness, s.iterations, s.status};
}

}  // namespace gpprobe
