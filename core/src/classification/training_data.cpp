#include "gpprobe/classification/training_data.h"

#include <cmath>

#include "classification/training_inputs.h"
#include "common/input_checks.h"

namespace gpprobe {

namespace {

// Each label 0, 1, -1 or +1, with 0 and -1 never both present.
Status check_labels(const double* labels, std::size_t n) {
  std::size_t first_zero = n, first_minus = n;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = labels[i];
    if (!std::isfinite(v)) {
      return Status(StatusCode::non_finite, "training label " + std::to_string(i) + " is " +
                                                (std::isnan(v) ? "NaN"
                                                 : v > 0       ? "+Inf"
                                                               : "-Inf"));
    }
    if (v != 0.0 && v != 1.0 && v != -1.0) {
      return Status(StatusCode::invalid_argument,
                    "training label " + std::to_string(i) + " is " + number_text(v) + "; labels must be 0/1 or -1/+1");
    }
    if (v == 0.0 && first_zero == n) first_zero = i;
    if (v == -1.0 && first_minus == n) first_minus = i;
  }
  if (first_zero < n && first_minus < n) {
    return Status(StatusCode::invalid_argument, "training labels mix the 0/1 and -1/+1 conventions (label " +
                                                    std::to_string(first_zero) + " is 0, label " +
                                                    std::to_string(first_minus) + " is -1)");
  }
  return Status::success();
}

}  // namespace

Status check_training_inputs(const MatrixView& x, std::size_t labels) {
  if (x.rows() == 0) return Status(StatusCode::invalid_argument, "training inputs are empty (0 rows)");
  if (x.cols() == 0) return Status(StatusCode::invalid_argument, "training inputs have 0 columns");
  if (labels != x.rows()) {
    return Status(StatusCode::dimension_mismatch, "training labels have " + count_of(labels, "value") +
                                                      ", training inputs have " + count_of(x.rows(), "row"));
  }
  return check_finite(x, "training inputs");
}

Result<ClassifierTrainingData> make_gpc_training_data(const MatrixView& x, const double* labels, std::size_t n) {
  GPPROBE_RETURN_IF_ERROR(check_training_inputs(x, n));
  GPPROBE_RETURN_IF_ERROR(check_labels(labels, n));
  ClassifierTrainingData data;
  data.x.resize(Eigen::Index(n), Eigen::Index(x.cols()));
  x.copy_rows(0, n, data.x.data());
  data.y.resize(Eigen::Index(n));
  for (std::size_t i = 0; i < n; ++i) data.y[Eigen::Index(i)] = labels[i] == 1.0 ? 1.0 : -1.0;
  return data;
}

}  // namespace gpprobe
