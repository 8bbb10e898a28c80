#include "gpprobe/matrix_view.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace gpprobe {

void MatrixView::copy_rows(std::size_t first, std::size_t count, double* out) const {
  const std::size_t n = count * cols_;
  const std::size_t offset = first * cols_;
  if (type_ == ScalarType::float64) {
    std::memcpy(out, static_cast<const double*>(data_) + offset, n * sizeof(double));
    return;
  }
  const float* in = static_cast<const float*>(data_) + offset;
  for (std::size_t k = 0; k < n; ++k) out[k] = static_cast<double>(in[k]);
}

namespace {

template <class T>
std::size_t first_non_finite(const T* data, std::size_t n) {
  // Sum-free scan: x - x is 0 for finite x and NaN for NaN and +-Inf, so one comparison per
  // element finds both; the loop vectorises.
  for (std::size_t k = 0; k < n; ++k) {
    if (!(data[k] - data[k] == T(0))) return k;
  }
  return n;
}

}  // namespace

Status check_finite(const MatrixView& m, const std::string& what) {
  const std::size_t n = m.rows() * m.cols();
  if (n == 0) return Status::success();
  std::size_t k = n;
  double value = 0.0;
  // Scan in blocks through copy_rows so both element types share one path without a full copy.
  constexpr std::size_t kBlockRows = 256;
  std::vector<double> block;
  for (std::size_t first = 0; first < m.rows() && k == n; first += kBlockRows) {
    const std::size_t count = std::min(kBlockRows, m.rows() - first);
    block.resize(count * m.cols());
    m.copy_rows(first, count, block.data());
    const std::size_t hit = first_non_finite(block.data(), block.size());
    if (hit < block.size()) {
      k = first * m.cols() + hit;
      value = block[hit];
    }
  }
  if (k == n) return Status::success();
  const std::size_t row = k / m.cols();
  const std::size_t col = k % m.cols();
  const char* kind = std::isnan(value) ? "NaN" : (value > 0 ? "+Inf" : "-Inf");
  return Status(StatusCode::non_finite, what + " row " + std::to_string(row) + ", column " +
                                            std::to_string(col) + " is " + kind);
}

}  // namespace gpprobe
