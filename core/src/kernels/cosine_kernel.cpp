#include "gpprobe/kernels/cosine_kernel.h"

#include <cmath>

#include "gpprobe/linalg/parallel_for.h"

namespace gpprobe {

namespace {

// Squares overflow once |a| > ~1e154. The kernel is then evaluated on t [a; 1] with t = 2^-k chosen
// so that the largest |t a_j| is in [1, 2): (a'b + 1) / sqrt((|a|^2 + 1)(|b|^2 + 1)) does not change
// when [a; 1] and [b; 1] are scaled, and a power of two scales without rounding. Rows whose squares
// are safe take the plain formula, bit for bit as before.
constexpr double kSafeSquare = 1e150;  // |a|^2 below it: |a|^2 (|b|^2 + 1) cannot overflow either

// t for the row a: 2^-k with max |t a_j| in [1, 2), or 1 when every |a_j| < 1.
double augmented_scale(const double* a, std::size_t d) {
  double largest = 0.0;
  for (std::size_t j = 0; j < d; ++j) largest = std::fmax(largest, std::fabs(a[j]));
  return largest < 1.0 ? 1.0 : std::ldexp(1.0, -std::ilogb(largest));
}

// |t a|^2 + t^2, the squared norm of the augmented row t [a; 1].
double augmented_norm2(const double* a, std::size_t d, double t) {
  double norm2 = 0.0;
  for (std::size_t j = 0; j < d; ++j) norm2 += (t * a[j]) * (t * a[j]);
  return norm2 + t * t;
}

}  // namespace

double CosineKernel::operator()(const double* a, const double* b, std::size_t d) const {
  double ab = 0.0, aa = 0.0, bb = 0.0;
  for (std::size_t j = 0; j < d; ++j) {
    ab += a[j] * b[j];
    aa += a[j] * a[j];
    bb += b[j] * b[j];
  }
  if (aa < kSafeSquare && bb < kSafeSquare) return variance_ * (ab + 1.0) / std::sqrt((aa + 1.0) * (bb + 1.0));
  const double ta = augmented_scale(a, d), tb = augmented_scale(b, d);
  double tab = ta * tb;
  for (std::size_t j = 0; j < d; ++j) tab += (ta * a[j]) * (tb * b[j]);
  return variance_ * tab / (std::sqrt(augmented_norm2(a, d, ta)) * std::sqrt(augmented_norm2(b, d, tb)));
}

void CosineKernel::features(const MatrixView& x, std::size_t first, std::size_t count, double* psi) const {
  const std::size_t d = x.cols();
  const std::size_t width = d + 1;
  const double root_v = std::sqrt(variance_);
  for (std::size_t i = 0; i < count; ++i) {
    double* row = psi + i * width;
    // Widen the input row into place, then scale: row = sqrt(v) [a; 1] / sqrt(|a|^2 + 1).
    x.copy_rows(first + i, 1, row);
    double norm2 = 0.0;
    for (std::size_t j = 0; j < d; ++j) norm2 += row[j] * row[j];
    if (norm2 < kSafeSquare) {
      const double scale = root_v / std::sqrt(norm2 + 1.0);
      for (std::size_t j = 0; j < d; ++j) row[j] *= scale;
      row[d] = scale;
      continue;
    }
    // The same vector from t [a; 1]: sqrt(v) t [a; 1] / sqrt(|t a|^2 + t^2).
    const double t = augmented_scale(row, d);
    const double scale = root_v / std::sqrt(augmented_norm2(row, d, t));
    for (std::size_t j = 0; j < d; ++j) row[j] = (t * row[j]) * scale;
    row[d] = t * scale;
  }
}

RowMatrix CosineKernel::features(const MatrixView& x) const {
  RowMatrix psi(static_cast<Eigen::Index>(x.rows()), static_cast<Eigen::Index>(x.cols() + 1));
  // Rows are independent: bands of them on the pool (the same values on any thread count), so a large
  // psi is also first touched by every thread.
  const std::size_t D = x.cols() + 1;
  parallel_for(
      x.rows(), [&](std::size_t begin, std::size_t end) { features(x, begin, end - begin, psi.data() + begin * D); },
      256);
  return psi;
}

}  // namespace gpprobe
