#include "gpprobe/cosine_kernel.h"

#include <cmath>

namespace gpprobe {

double CosineKernel::operator()(const double* a, const double* b, std::size_t d) const {
  double ab = 0.0, aa = 0.0, bb = 0.0;
  for (std::size_t j = 0; j < d; ++j) {
    ab += a[j] * b[j];
    aa += a[j] * a[j];
    bb += b[j] * b[j];
  }
  return variance_ * (ab + 1.0) / std::sqrt((aa + 1.0) * (bb + 1.0));
}

void CosineKernel::features(const MatrixView& x, std::size_t first, std::size_t count,
                            double* psi) const {
  const std::size_t d = x.cols();
  const std::size_t width = d + 1;
  const double root_v = std::sqrt(variance_);
  for (std::size_t i = 0; i < count; ++i) {
    double* row = psi + i * width;
    // Widen the input row into place, then scale: row = sqrt(v) [a; 1] / sqrt(|a|^2 + 1).
    x.copy_rows(first + i, 1, row);
    double norm2 = 0.0;
    for (std::size_t j = 0; j < d; ++j) norm2 += row[j] * row[j];
    const double scale = root_v / std::sqrt(norm2 + 1.0);
    for (std::size_t j = 0; j < d; ++j) row[j] *= scale;
    row[d] = scale;
  }
}

RowMatrix CosineKernel::features(const MatrixView& x) const {
  RowMatrix psi(static_cast<Eigen::Index>(x.rows()), static_cast<Eigen::Index>(x.cols() + 1));
  features(x, 0, x.rows(), psi.data());
  return psi;
}

}  // namespace gpprobe
