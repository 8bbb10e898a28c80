// A read-only view of a row-major matrix of float32 or float64 values owned by someone else
// (a wasm heap buffer, a memory-mapped .npy, an Eigen matrix). Embeddings usually arrive as float32;
// the core widens rows to float64 block by block, so a float32 matrix is never copied whole.
//
//   data  rows*cols values, row i at data + i*cols
//   rows  number of rows (may be 0)
//   cols  number of columns
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <Eigen/Core>

#include "gpprobe/common/status.h"

namespace gpprobe {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

enum class ScalarType { float32, float64 };

class MatrixView {
 public:
  MatrixView() = default;
  MatrixView(const float* data, std::size_t rows, std::size_t cols)
      : data_(data), type_(ScalarType::float32), rows_(rows), cols_(cols) {}
  MatrixView(const double* data, std::size_t rows, std::size_t cols)
      : data_(data), type_(ScalarType::float64), rows_(rows), cols_(cols) {}
  // A view of an Eigen row-major matrix; the matrix must outlive the view.
  explicit MatrixView(const RowMatrix& m)
      : MatrixView(m.data(), static_cast<std::size_t>(m.rows()), static_cast<std::size_t>(m.cols())) {}

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  ScalarType type() const { return type_; }
  // The first value (float or double as type() says), for loops that read rows in place.
  const void* data() const { return data_; }
  bool empty() const { return rows_ == 0; }

  double at(std::size_t row, std::size_t col) const {
    const std::size_t k = row * cols_ + col;
    return type_ == ScalarType::float32 ? static_cast<double>(static_cast<const float*>(data_)[k])
                                        : static_cast<const double*>(data_)[k];
  }

  // Rows [first, first + count) widened to float64 into `out` (count by cols, row-major).
  void copy_rows(std::size_t first, std::size_t count, double* out) const;

 private:
  const void* data_ = nullptr;
  ScalarType type_ = ScalarType::float64;
  std::size_t rows_ = 0;
  std::size_t cols_ = 0;
};

// non_finite naming the first offending entry ("observations row 3, column 7 is NaN"), else ok.
// `what` names the matrix in the message.
Status check_finite(const MatrixView& m, const std::string& what);

}  // namespace gpprobe
