#include "common/input_checks.h"

#include <cmath>
#include <sstream>

namespace gpprobe {

Status check_positive(const char* name, double value) {
  if (std::isfinite(value) && value > 0.0) return Status::success();
  return Status(StatusCode::invalid_argument,
                std::string(name) + " must be a finite number > 0, got " + number_text(value));
}

Status check_labels(const std::uint8_t* labels, std::size_t count, std::size_t rows) {
  if (count != rows) {
    return Status(StatusCode::dimension_mismatch, "labels have " + count_of(count, "entry", "entries") +
                                                      ", observations have " + count_of(rows, "row"));
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (labels[i] > 1) {
      return Status(StatusCode::invalid_argument,
                    "label " + std::to_string(i) + " is " + std::to_string(int(labels[i])) + "; labels must be 0 or 1");
    }
  }
  return Status::success();
}

Status check_observations(const MatrixView& observations, const std::uint8_t* labels, std::size_t count) {
  GPPROBE_RETURN_IF_ERROR(check_labels(labels, count, observations.rows()));
  if (observations.rows() == 0) return Status(StatusCode::invalid_argument, "observations are empty (0 rows)");
  if (observations.cols() == 0) return Status(StatusCode::invalid_argument, "observations have 0 columns");
  return check_finite(observations, "observations");
}

Status check_queries(const MatrixView& queries, std::size_t dimension) {
  if (queries.rows() == 0) return Status(StatusCode::invalid_argument, "queries are empty (0 rows)");
  if (queries.cols() == 0) return Status(StatusCode::invalid_argument, "queries have 0 columns");
  if (dimension > 0 && queries.cols() != dimension) {
    return Status(StatusCode::dimension_mismatch, "queries have " + count_of(queries.cols(), "column") +
                                                      ", observations have " + count_of(dimension, "column"));
  }
  return check_finite(queries, "queries");
}

Status check_both_classes(const std::uint8_t* labels, std::size_t count, const std::string& need) {
  std::size_t positives = 0;
  for (std::size_t i = 0; i < count; ++i) positives += labels[i];
  if (positives > 0 && positives < count) return Status::success();
  const std::string which = count == 1 ? "the only label is " : "all " + std::to_string(count) + " labels are ";
  return Status(StatusCode::invalid_argument, need + "; " + which + (positives > 0 ? "1" : "0"));
}

Status check_finite_values(const double* values, std::size_t n, const std::string& what) {
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isfinite(values[i])) continue;
    const char* kind = std::isnan(values[i]) ? "NaN" : (values[i] > 0 ? "+Inf" : "-Inf");
    return Status(StatusCode::non_finite, what + " entry " + std::to_string(i) + " is " + kind);
  }
  return Status::success();
}

Status check_coordinates(std::vector<std::size_t>* dims, std::size_t d, const std::string& range) {
  if (dims->empty()) {
    dims->resize(d);
    for (std::size_t j = 0; j < d; ++j) (*dims)[j] = j;
  }
  std::vector<bool> seen(d, false);
  for (std::size_t j : *dims) {
    if (j >= d)
      return Status(StatusCode::invalid_argument, "coordinate " + std::to_string(j) + " is out of range: " + range);
    if (seen[j]) return Status(StatusCode::invalid_argument, "coordinate " + std::to_string(j) + " is listed twice");
    seen[j] = true;
  }
  return Status::success();
}

}  // namespace gpprobe
