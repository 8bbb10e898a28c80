#include "gpprobe/linalg/cholesky_update.h"

#include <cmath>

#include <Eigen/Cholesky>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/linalg/blocked_cholesky.h"

namespace gpprobe {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

Status cholesky_factor(const MatrixXd& A, MatrixXd* L, const std::string& what) {
  Eigen::LLT<MatrixXd> llt(A);
  if (llt.info() != Eigen::Success) {
    return Status(StatusCode::numerical_failure, what + " is not positive definite");
  }
  *L = llt.matrixL();
  return Status::success();
}

Status append_row(MatrixXd* L, const VectorXd& b, double c, const std::string& what) {
  const Index n = L->rows();
  VectorXd l = b;
  if (n > 0) L->triangularView<Eigen::Lower>().solveInPlace(l);
  const double pivot = c - l.squaredNorm();
  if (!(pivot > 0.0)) {
    return Status(StatusCode::numerical_failure, what + " lost positive definiteness when a row was added");
  }
  MatrixXd grown = MatrixXd::Zero(n + 1, n + 1);
  grown.topLeftCorner(n, n) = *L;
  grown.row(n).head(n) = l.transpose();
  grown(n, n) = std::sqrt(pivot);
  *L = std::move(grown);
  return Status::success();
}

void rank_one_update(Eigen::Ref<MatrixXd> L, VectorXd x) {
  // Column-by-column rotation (the classic update): each step zeroes x(k) against L(k, k).
  const Index n = L.rows();
  for (Index k = 0; k < n; ++k) {
    const double r = std::hypot(L(k, k), x(k));
    const double c = r / L(k, k);
    const double s = x(k) / L(k, k);
    L(k, k) = r;
    if (k + 1 < n) {
      L.col(k).tail(n - k - 1) = (L.col(k).tail(n - k - 1) + s * x.tail(n - k - 1)) / c;
      x.tail(n - k - 1) = c * x.tail(n - k - 1) - s * L.col(k).tail(n - k - 1);
    }
  }
}

void delete_row(MatrixXd* L, Index i) {
  // With L = [L11 0 0; l21 d 0; L31 l32 L33], removing row/column i leaves
  // [L11 0; L31 L33'] where L33' L33'^T = L33 L33^T + l32 l32^T.
  const Index n = L->rows();
  const Index tail = n - i - 1;
  VectorXd l32 = L->col(i).tail(tail);
  MatrixXd shrunk = MatrixXd::Zero(n - 1, n - 1);
  shrunk.topLeftCorner(i, i) = L->topLeftCorner(i, i);
  shrunk.bottomLeftCorner(tail, i) = L->bottomLeftCorner(tail, i);
  shrunk.bottomRightCorner(tail, tail) = L->bottomRightCorner(tail, tail);
  rank_one_update(shrunk.bottomRightCorner(tail, tail), std::move(l32));
  *L = std::move(shrunk);
}

void inverse_from_cholesky(const MatrixXd& L, double* inverse) {
  // A^-1 = U U' with U = L^-T, both blocked through the row products (n^3 flops in all).
  const std::size_t n = std::size_t(L.rows());
  const RowMatrix rows = L.triangularView<Eigen::Lower>();
  invert_lower_transposed(rows.data(), n, inverse);
  gram_of_upper_in_place(inverse, n, true);
}

}  // namespace gpprobe
