// The flags that place a box around a point and bound the certified searches over it, read one way for
// every command that certifies (robustness, binary and softmax; explain; paper-robustness):
//   --point x1,...,xd                 required_point
//   --gamma G                         required_gamma (>= 0, or > 0 where a zero box says nothing)
//   --dims i,j,...  --valid-range LO,HI   read_box_flags (LO <= HI checked where the command asks)
//   --tolerance E  --time-limit S  --max-iterations N   read_search_limits (defaults per command)
// and the region's own checks before a long fit (check_region: "--dims: ...", "--valid-range: ...").
// The options structs (RobustnessOptions, MulticlassRobustnessOptions, SensitivityOptions) share the
// field names dims, valid_range, tolerance, time_limit_seconds and max_iterations.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpprobe/certify/interval.h"
#include "gpprobe/common/status.h"

#include "arguments.h"

namespace gpprobe::cli {

// The valued flags of `gpprobe robustness` (binary and softmax alike), besides the model's.
std::set<std::string> robustness_flag_names();

// "missing --point", or the numbers of --point.
Result<std::vector<double>> required_point(const Arguments& args);

enum class GammaBound { non_negative, positive };

// "missing --gamma", or --gamma, refused below 0 ("--gamma must be >= 0, got ...") or, for `positive`, at
// or below 0 ("--gamma must be > 0, got ...").
Result<double> required_gamma(const Arguments& args, GammaBound bound);

enum class RangeOrder { any, ordered };

// --valid-range LO,HI if given: two numbers ("--valid-range expects two numbers LO,HI, got '...'"), for
// `ordered` also LO <= HI ("... LO,HI with LO <= HI, got '...'").
Result<std::optional<Interval>> read_valid_range(const Arguments& args, RangeOrder order);

struct BoxFlags {
  std::vector<std::size_t> dims;  // empty: every coordinate moves
  std::optional<Interval> valid_range;
};

// --dims, then --valid-range.
Result<BoxFlags> read_box_flags(const Arguments& args, RangeOrder order);

struct SearchLimits {
  double tolerance = 0.0, time_limit_seconds = 0.0;
  std::size_t max_iterations = 0;
};

// --tolerance (>= 0) and --time-limit (>= 0, 0 = none), then --max-iterations, with the command's defaults.
Result<SearchLimits> read_search_limits(const Arguments& args, double default_tolerance, long long default_iterations);

template <class Options>
void apply_box(const BoxFlags& box, Options* options) {
  options->dims = box.dims;
  if (box.valid_range) options->valid_range = box.valid_range;
}

template <class Options>
void apply_limits(const SearchLimits& limits, Options* options) {
  options->tolerance = limits.tolerance;
  options->time_limit_seconds = limits.time_limit_seconds;
  options->max_iterations = limits.max_iterations;
}

// invalid_argument unless the point has one value per feature column of the training file: "--point has 3
// values; train.csv has 2 feature columns".
Status check_point_size(const std::vector<double>& point, const std::string& train_path, std::size_t features);

// The L-inf region's checks of the point against --dims and --valid-range, with the flag named: "--dims:
// coordinate 5 is out of range: ...", "--valid-range: the point's coordinate 0 is 1.5, outside ...".
// Returns the moving coordinates (all of them without --dims).
Result<std::vector<std::size_t>> check_region(const std::vector<double>& point, const std::vector<std::size_t>& dims,
                                              const std::optional<Interval>& valid_range);

}  // namespace gpprobe::cli
