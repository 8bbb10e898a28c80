// Validation shared by every fitted model of the core (the probe, the baselines, the experiments), so
// that the same bad input gets the same message everywhere ("queries have 3 columns, observations
// have 2 columns"). Private to core/src.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/number_text.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

// invalid_argument "<name> must be a finite number > 0, got <value>" (17 significant digits).
Status check_positive(const char* name, double value);

// `count` labels for `rows` observations, each 0 or 1.
Status check_labels(const std::uint8_t* labels, std::size_t count, std::size_t rows);

// At least one row and one column, labels that fit, every value finite.
Status check_observations(const MatrixView& observations, const std::uint8_t* labels, std::size_t count);

// At least one row and one column, `dimension` columns (when dimension > 0), every value finite.
Status check_queries(const MatrixView& queries, std::size_t dimension);

// invalid_argument "<need>; all 3 labels are 0" (or "; the only label is 0") unless both labels occur,
// e.g. need = "lp needs observations of both classes".
Status check_both_classes(const std::uint8_t* labels, std::size_t count, const std::string& need);

// non_finite "<what> entry 4 is NaN" for the first non-finite of n values.
Status check_finite_values(const double* values, std::size_t n, const std::string& what);

// The coordinates a certified set lets move, among d: empty means all (filled in, 0 to d - 1); each below
// d, none twice. invalid_argument "coordinate 9 is out of range: <range>" (range says what has how many,
// e.g. "queries have 3 columns (coordinates 0 to 2)"), "coordinate 3 is listed twice".
Status check_coordinates(std::vector<std::size_t>* dims, std::size_t d, const std::string& range);

}  // namespace gpprobe
