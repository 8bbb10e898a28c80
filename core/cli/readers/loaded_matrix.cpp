#include "readers/loaded_matrix.h"

#include <cmath>
#include <new>
#include <sstream>
#include <stdexcept>

#include "gpprobe/common/number_text.h"

#include "readers/delimited_reader.h"
#include "readers/npy_reader.h"

namespace gpprobe::cli {

namespace {

Status check_label(const std::string& where, double v) {
  if (v == 0.0 || v == 1.0) return Status::success();
  return Status(StatusCode::invalid_argument, where + " is " + number_text(v) + "; labels must be 0 or 1");
}

// The reading, with running out of memory (a legitimately huge file) reported against the file.
template <class T, class Read>
Result<T> with_memory_guard(const std::string& path, Read read) {
  try {
    return read();
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::out_of_memory, path + ": not enough memory to load it");
  } catch (const std::length_error&) {
    return Status(StatusCode::out_of_memory, path + ": not enough memory to load it");
  }
}

}  // namespace

Result<LoadedMatrix> matrix_from_npy(const NpyArray& a, const std::string& path) {
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
  // Rows of nothing: shape (2^64 - 1, 0) holds no data, yet every row loop would run 2^64 times.
  if (a.shape[1] == 0 && a.shape[0] > 0) {
    return Status(StatusCode::parse_error,
                  path + ": the array has " + std::to_string(a.shape[0]) + " rows of 0 columns");
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
                                                (std::isnan(v) ? "NaN"
                                                 : v > 0       ? "+Inf"
                                                               : "-Inf"));
    }
  }
  return m;
}

LoadedMatrix matrix_from_table(DelimitedTable table) {
  LoadedMatrix m;
  m.rows = table.rows;
  m.cols = table.cols;
  m.float64 = std::move(table.values);
  return m;
}

Result<std::vector<std::uint8_t>> labels_from_npy(const NpyArray& a, const std::string& path) {
  std::vector<std::uint8_t> labels;
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

Result<std::vector<std::uint8_t>> labels_from_table(const DelimitedTable& table, const std::string& path) {
  if (table.cols != 1) {
    return Status(StatusCode::parse_error,
                  path + ": expected one label per line, found " + std::to_string(table.cols) + " columns");
  }
  std::vector<std::uint8_t> labels;
  const std::size_t offset = table.header.empty() ? 1 : 2;  // 1-based line of the first label
  for (std::size_t k = 0; k < table.rows; ++k) {
    GPPROBE_RETURN_IF_ERROR(check_label(path + ": label on data line " + std::to_string(k + offset), table.values[k]));
    labels.push_back(std::uint8_t(table.values[k]));
  }
  return labels;
}

Result<LoadedMatrix> read_matrix(const std::string& path) {
  return with_memory_guard<LoadedMatrix>(path, [&]() -> Result<LoadedMatrix> {
    const std::string ext = lower_extension(path);
    if (ext == "npy") {
      Result<NpyArray> read = read_npy(path);
      if (!read.ok()) return read.status();
      return matrix_from_npy(read.value(), path);
    }
    if (ext == "csv" || ext == "tsv" || ext == "txt") {
      Result<DelimitedTable> table = read_delimited(path);
      if (!table.ok()) return table.status();
      return matrix_from_table(std::move(table.value()));
    }
    return Status(StatusCode::parse_error,
                  path + ": unsupported file type '." + ext + "' (expected .npy, .csv, .tsv or .txt)");
  });
}

Result<std::vector<std::uint8_t>> read_labels(const std::string& path) {
  return with_memory_guard<std::vector<std::uint8_t>>(path, [&]() -> Result<std::vector<std::uint8_t>> {
    if (lower_extension(path) == "npy") {
      Result<NpyArray> read = read_npy(path);
      if (!read.ok()) return read.status();
      return labels_from_npy(read.value(), path);
    }
    Result<DelimitedTable> table = read_delimited(path);
    if (!table.ok()) return table.status();
    return labels_from_table(table.value(), path);
  });
}

}  // namespace gpprobe::cli
