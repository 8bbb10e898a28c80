// The factorisations shared by the Laplace and EP classifiers (private to core/src). Both work with
//
//   B = I + sW K sW = L L'   (sW = W^1/2, or the square roots of EP's site precisions; eigenvalues >= 1,
//                             so no jitter is ever needed)
//   M = L^-1 diag(sW)        lower triangular, n by n
//   Q = M'M = sW B^-1 sW = (K + W^-1)^-1
//   C' = K M'                row i of C' is column i of C = M K = L \ (sW K)
//
// All matrices are n by n, row-major; the O(n^3) work runs through blocked_cholesky.h / row_products.h.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"

namespace gpprobe {

// The kernel on the n training points (rows of x, n by d) and its gradient contraction: through the
// points' squared distances D2 (kernel_matrix.h) when D2 is given and the kernel is constant(c) * rbf(l)
// with one length-scale (the shared length-scale fit), else pair by pair.
class TrainingKernel {
 public:
  TrainingKernel(const Kernel& kernel, const double* x, std::size_t n, std::size_t d, const RowMatrix* D2);
  RowMatrix matrix() const;
  // sum_ij W_ij dK_ij/dtheta_p (kernel.parameter_count() values) for W's upper triangle, given K = matrix().
  std::vector<double> contract(const RowMatrix& K, const double* W) const;

 private:
  const Kernel& kernel_;
  const double* x_;
  std::size_t n_, d_;
  const RowMatrix* D2_ = nullptr;  // set when the isotropic path applies
  double c_ = 0.0, l_ = 0.0;
};

// L with B = L L'. numerical_failure naming `method` if B is not positive definite (only possible
// with non-finite entries, e.g. an overflowing kernel).
Result<RowMatrix> factor_b(const RowMatrix& K, const Eigen::VectorXd& sW, const std::string& method);

// M = L^-1 diag(sW).
RowMatrix variance_factor(const RowMatrix& L, const Eigen::VectorXd& sW);

// Q = M'M, both triangles.
RowMatrix gram_of_factor(const RowMatrix& M);

// C' = K M' (n by n).
RowMatrix kernel_times_factor(const RowMatrix& K, const RowMatrix& M);

// The lower triangle (diagonal included) of C += sign A B' for A, B n by k (rows at A + i*lda, B + j*ldb)
// and C n by n (row-major, ldc = n): half the work of the full product, in panels of 64 rows through
// add_product_transposed. Entries above the diagonal inside the 64 by 64 diagonal blocks are updated
// too; the rest of the strict upper triangle is not touched.
void add_lower_product(const double* A, std::size_t lda, const double* B, std::size_t ldb, std::size_t n, std::size_t k,
                       double sign, double* C);

// Sigma = K - C'C, lower triangle only (the strict upper triangle is left 0): the posterior covariance at
// the training points given C' = kernel_times_factor(K, M).
RowMatrix posterior_covariance_lower(const RowMatrix& K, const RowMatrix& Ct);

}  // namespace gpprobe
