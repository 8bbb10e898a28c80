// The training set of a binary GP classifier, checked once at the boundary: inputs and labels in
// {-1, +1}. Labels arrive as 0/1 or as -1/+1 (both conventions are accepted, 0 and -1 meaning the
// negative class), but not mixed. One class only is allowed: the posterior is then valid (it leans
// towards that class everywhere, and back towards 1/2 far from the data).
//
//   x       n by d training inputs (any n >= 1, d >= 1), finite
//   labels  n values, each 0 or 1, or each -1 or +1
#pragma once

#include <cstddef>

#include <Eigen/Core>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

struct ClassifierTrainingData {
  RowMatrix x;        // n by d
  Eigen::VectorXd y;  // n labels in {-1, +1}

  std::size_t size() const { return std::size_t(x.rows()); }
  std::size_t dimension() const { return std::size_t(x.cols()); }
};

// invalid_argument "training inputs are empty (0 rows)", "training label 3 is 2; labels must be 0/1 or
// -1/+1", "training labels mix the 0/1 and -1/+1 conventions (label 0 is 0, label 4 is -1)";
// dimension_mismatch "training labels have 3 values, training inputs have 4 rows";
// non_finite "training inputs row 2, column 0 is NaN", "training label 1 is NaN".
Result<ClassifierTrainingData> make_gpc_training_data(const MatrixView& x, const double* labels, std::size_t n);

}  // namespace gpprobe
