#include "gpprobe/kernel_matrix.h"

namespace gpprobe {

RowMatrix kernel_matrix(const Kernel& kernel, const double* x, std::size_t n, std::size_t d) {
  RowMatrix K{Eigen::Index(n), Eigen::Index(n)};
  for (std::size_t j = 0; j < n; ++j) {
    const double* xj = x + j * d;
    for (std::size_t i = j; i < n; ++i) {
      const double k = kernel(x + i * d, xj, d);
      K(Eigen::Index(i), Eigen::Index(j)) = k;
      K(Eigen::Index(j), Eigen::Index(i)) = k;
    }
  }
  return K;
}

void cross_kernel_matrix(const Kernel& kernel, const double* a, std::size_t m, const double* x, std::size_t n,
                         std::size_t d, double* out) {
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) out[i * n + j] = kernel(a + i * d, x + j * d, d);
}

void kernel_diagonal(const Kernel& kernel, const double* a, std::size_t m, std::size_t d, double* out) {
  for (std::size_t i = 0; i < m; ++i) out[i] = kernel(a + i * d, a + i * d, d);
}

std::vector<double> contract_gradient(const Kernel& kernel, const double* x, std::size_t n, std::size_t d,
                                      const double* W) {
  const std::size_t P = kernel.parameter_count();
  std::vector<double> out(P, 0.0), grad(P);
  for (std::size_t j = 0; j < n; ++j) {
    const double* xj = x + j * d;
    for (std::size_t i = j; i < n; ++i) {
      kernel.evaluate(x + i * d, xj, d, grad.data());
      // Off-diagonal pairs appear twice in the sum over i, j.
      const double w = (i == j ? 1.0 : 2.0) * W[j * n + i];
      for (std::size_t p = 0; p < P; ++p) out[p] += w * grad[p];
    }
  }
  return out;
}

}  // namespace gpprobe
