#include "loaded_matrix.h"

#include <cmath>
#include <sstream>

#include "delimited_reader.h"
#include "npy_reader.h"

namespace gpprobe::cli {

namespace {

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::ostringstream os;
  os << "(";
  for (std::size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
  os << (shape.size() == 1 ? ",)" : ")");
  return os.str();
}

std::string format_value(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

Result<LoadedMatrix> matrix_from_npy(const std::string& path) {
  Result<NpyArray> read = read_npy(path);
  if (!read.ok()) return read.status();
  NpyArray& a = read.value();
  if (a.shape.size() != 2) {
    return Status(StatusCode::parse_error, path + ": expected a 2-D array, got shape " + shape_text(a.shape));
  }
  if (a.kind != 'f') {
    return Status(StatusCode::parse_error,
                  path + ": unsupported dtype '" + a.descr + "' (expected float32 or float64)");
  }
  if (a.fortran_order) {
    return Status(StatusCode::parse_error, path + ": Fortran-ordered arrays are not supported (save with C order)");
  }
  LoadedMatrix m;
  m.rows = a.shape[0];
  m.cols = a.shape[1];
  const std::size_t n = a.size();
  if (a.itemsize == 4) {
    m.type = ScalarType::float32;
    m.float32.resize(n);
    for (std::size_t k = 0; k < n; ++k) m.float32[k] = float(a.value(k));
  } else {
    m.type = ScalarType::float64;
    m.float64.resize(n);
    for (std::size_t k = 0; k < n; ++k) m.float64[k] = a.value(k);
  }
  for (std::size_t k = 0; k < n; ++k) {
    const double v = a.value(k);
    if (!std::isfinite(v)) {
      return Status(StatusCode::non_finite, path + ": element [" + std::to_string(k / m.cols) + ", " +
                                                std::to_string(k % m.cols) + "] is " +
                                                (std::isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf"));
    }
  }
  return m;
}

Status check_label(const std::string& where, double v) {
  if (v == 0.0 || v == 1.0) return Status::success();
  return Status(StatusCode::invalid_argument, where + " is " + format_value(v) + "; labels must be 0 or 1");
}

}  // namespace

Result<LoadedMatrix> read_matrix(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == "npy") return matrix_from_npy(path);
  if (ext == "csv" || ext == "tsv" || ext == "txt") {
    Result<DelimitedTable> table = read_delimited(path);
    if (!table.ok()) return table.status();
    LoadedMatrix m;
    m.rows = table.value().rows;
    m.cols = table.value().cols;
    m.float64 = std::move(table.value().values);
    return m;
  }
  return Status(StatusCode::parse_error,
                path + ": unsupported file type '." + ext + "' (expected .npy, .csv, .tsv or .txt)");
}

Result<std::vector<std::uint8_t>> read_labels(const std::string& path) {
  std::vector<std::uint8_t> labels;
  if (lower_extension(path) == "npy") {
    Result<NpyArray> read = read_npy(path);
    if (!read.ok()) return read.status();
    const NpyArray& a = read.value();
    const bool column = a.shape.size() == 2 && a.shape[1] == 1;
    if (a.shape.size() != 1 && !column) {
      return Status(StatusCode::parse_error, path + ": expected a 1-D array of labels, got shape " + shape_text(a.shape));
    }
    labels.resize(a.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      const double v = a.value(k);
      GPPROBE_RETURN_IF_ERROR(check_label(path + ": entry " + std::to_string(k), v));
      labels[k] = std::uint8_t(v);
    }
    return labels;
  }
  Result<DelimitedTable> table = read_delimited(path);
  if (!table.ok()) return table.status();
  if (table.value().cols != 1) {
    return Status(StatusCode::parse_error, path + ": expected one label per line, found " +
                                               std::to_string(table.value().cols) + " columns");
  }
  const std::size_t offset = table.value().header.empty() ? 1 : 2;  // 1-based line of the first label
  for (std::size_t k = 0; k < table.value().rows; ++k) {
    const double v = table.value().values[k];
    GPPROBE_RETURN_IF_ERROR(check_label(path + ": label on data line " + std::to_string(k + offset), v));
    labels.push_back(std::uint8_t(v));
  }
  return labels;
}

}  // namespace gpprobe::cli
