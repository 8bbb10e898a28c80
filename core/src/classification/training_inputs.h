// The checks every classifier's training set starts with (binary: training_data.h; softmax:
// multiclass_laplace.h): invalid_argument "training inputs are empty (0 rows)", "training inputs have 0
// columns"; dimension_mismatch "training labels have 3 values, training inputs have 4 rows"; non_finite
// "training inputs row 2, column 0 is NaN". The labels themselves are each model's own.
#pragma once

#include <cstddef>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

Status check_training_inputs(const MatrixView& x, std::size_t labels);

}  // namespace gpprobe
