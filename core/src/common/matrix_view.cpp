#include "gpprobe/common/matrix_view.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "gpprobe/linalg/parallel_for.h"

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

// The index of the first NaN or +-Inf among n values, n when there is none. x - x is 0 for a finite x
// and NaN otherwise, so a block's lanes summing (x - x) stay 0 exactly when the block is finite; the
// block that is not is scanned again value by value for the first one. Eight lanes per step (two
// vectors of the element type), so the scan runs at memory speed instead of one compare-and-branch per
// value.
template <class T>
std::size_t first_non_finite(const T* data, std::size_t n) {
  typedef T Vector __attribute__((vector_size(16)));
  constexpr std::size_t kLanes = 16 / sizeof(T), kBlock = 1024;
  std::size_t start = 0;
  for (; start + kBlock <= n; start += kBlock) {
    Vector even{}, odd{};
    for (std::size_t k = start; k < start + kBlock; k += 2 * kLanes) {
      Vector x, y;
      std::memcpy(&x, data + k, sizeof x);
      std::memcpy(&y, data + k + kLanes, sizeof y);
      even += x - x;
      odd += y - y;
    }
    even += odd;
    T total = 0;
    for (std::size_t l = 0; l < kLanes; ++l) total += even[l];
    if (!(total == T(0))) break;  // not finite somewhere in this block: found below
  }
  for (std::size_t k = start; k < n; ++k) {
    if (!(data[k] - data[k] == T(0))) return k;
  }
  return n;
}

}  // namespace

Status check_finite(const MatrixView& m, const std::string& what) {
  const std::size_t n = m.rows() * m.cols();
  if (n == 0) return Status::success();
  // In place, in the view's own element type (no widened copy).
  // In bands on the pool (a large query matrix is read at memory speed, ~60 MB for 10,000 x 768 doubles):
  // each band finds its first non-finite entry, and the first band that has one names it.
  constexpr std::size_t kBand = std::size_t(1) << 16;
  const std::size_t bands = (n + kBand - 1) / kBand;
  std::vector<std::size_t> found(bands, n);
  parallel_for(bands, [&](std::size_t begin, std::size_t end) {
    for (std::size_t b = begin; b < end; ++b) {
      const std::size_t first = b * kBand, count = std::min(kBand, n - first);
      const std::size_t k = m.type() == ScalarType::float64
                                ? first_non_finite(static_cast<const double*>(m.data()) + first, count)
                                : first_non_finite(static_cast<const float*>(m.data()) + first, count);
      if (k < count) found[b] = first + k;
      if (k < count) break;
    }
  });
  const std::size_t k = *std::min_element(found.begin(), found.end());
  if (k == n) return Status::success();
  const std::size_t row = k / m.cols();
  const std::size_t col = k % m.cols();
  const double value = m.at(row, col);
  const char* kind = std::isnan(value) ? "NaN" : (value > 0 ? "+Inf" : "-Inf");
  return Status(StatusCode::non_finite,
                what + " row " + std::to_string(row) + ", column " + std::to_string(col) + " is " + kind);
}

}  // namespace gpprobe
