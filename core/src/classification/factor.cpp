#include "classification/factor.h"

#include <algorithm>

#include "gpprobe/kernels/kernel_matrix.h"
#include "gpprobe/linalg/blocked_cholesky.h"
#include "gpprobe/linalg/row_products.h"

namespace gpprobe {

TrainingKernel::TrainingKernel(const Kernel& kernel, const double* x, std::size_t n, std::size_t d, const RowMatrix* D2)
    : kernel_(kernel), x_(x), n_(n), d_(d) {
  std::vector<double> l;
  if (D2 && std::size_t(D2->rows()) == n && kernel.scaled_rbf(&c_, &l) && l.size() == 1) {
    D2_ = D2;
    l_ = l[0];
  }
}

RowMatrix TrainingKernel::matrix() const {
  return D2_ ? isotropic_rbf_matrix(c_, l_, *D2_) : kernel_matrix(kernel_, x_, n_, d_);
}

std::vector<double> TrainingKernel::contract(const RowMatrix& K, const double* W) const {
  return D2_ ? contract_isotropic_rbf_gradient(l_, K, *D2_, W) : contract_gradient(kernel_, x_, n_, d_, W);
}

Result<RowMatrix> factor_b(const RowMatrix& K, const Eigen::VectorXd& sW, const std::string& method) {
  const std::size_t n = std::size_t(K.rows());
  RowMatrix L = sW.asDiagonal() * K * sW.asDiagonal();
  L.diagonal().array() += 1.0;
  GPPROBE_RETURN_IF_ERROR(cholesky_in_place(L.data(), n, method + ": B = I + W^1/2 K W^1/2"));
  return L;
}

RowMatrix variance_factor(const RowMatrix& L, const Eigen::VectorXd& sW) {
  const std::size_t n = std::size_t(L.rows());
  RowMatrix U(L.rows(), L.cols());
  invert_lower_transposed(L.data(), n, U.data());  // U = L^-T
  return U.transpose() * sW.asDiagonal();
}

RowMatrix gram_of_factor(const RowMatrix& M) {
  RowMatrix Q = M.transpose();  // upper triangular M'; its Gram matrix M'M is Q
  Q.triangularView<Eigen::StrictlyLower>().setZero();
  gram_of_upper_in_place(Q.data(), std::size_t(Q.rows()), true);
  return Q;
}

RowMatrix kernel_times_factor(const RowMatrix& K, const RowMatrix& M) {
  const std::size_t n = std::size_t(K.rows());
  RowMatrix Ct(K.rows(), K.cols());
  multiply_lower_transposed(K.data(), n, M.data(), n, Ct.data());
  return Ct;
}

void add_lower_product(const double* A, std::size_t lda, const double* B, std::size_t ldb, std::size_t n, std::size_t k,
                       double sign, double* C) {
  constexpr std::size_t kPanel = 64;
  for (std::size_t first = 0; first < n; first += kPanel) {
    const std::size_t rows = std::min(kPanel, n - first);
    // Rows [first, first + rows) against columns [0, first + rows): the panel's share of the lower triangle
    // (a few entries above the diagonal inside the diagonal block are computed too, harmlessly).
    add_product_transposed(A + first * lda, lda, B, ldb, rows, first + rows, k, sign, C + first * n, n);
  }
}

RowMatrix posterior_covariance_lower(const RowMatrix& K, const RowMatrix& Ct) {
  const std::size_t n = std::size_t(K.rows());
  RowMatrix Sigma = K.triangularView<Eigen::Lower>();
  add_lower_product(Ct.data(), n, Ct.data(), n, n, n, -1.0, Sigma.data());
  Sigma.triangularView<Eigen::StrictlyUpper>().setZero();
  return Sigma;
}

}  // namespace gpprobe
