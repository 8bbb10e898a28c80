#include "gpc_factor.h"

#include "gpprobe/blocked_cholesky.h"
#include "gpprobe/row_products.h"

namespace gpprobe {

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

}  // namespace gpprobe
