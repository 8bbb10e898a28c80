// Cholesky factor and solves of a small dense symmetric positive definite matrix (row-major), with the
// inner loops on four lanes (lanes.h): the Newton systems of the logistic fits (logistic_newton.cpp),
// 65 by 65 for the demo's 64-dimensional embeddings, factorised hundreds of times per experiment. In
// WebAssembly Eigen's LLT runs its scalar path there; blocked_cholesky.h targets large matrices (its
// diagonal blocks of 64 are factorised scalar). Private to core/src.
//
//   lanes_cholesky_rows   A = L L' row by row: L_ij = (A_ij - L_i[0:j] . L_j[0:j]) / L_jj, every inner
//                         loop a contiguous dot product (n^3/6 multiply-adds)
//   lanes_cholesky_solve  x = A^-1 b in place: L y = b by rows (dot products), then L' x = y by
//                         columns of L', i.e. rows of L (axpys)
#pragma once

#include <cmath>
#include <cstddef>

#include "lanes.h"

namespace gpprobe {

// Overwrites the lower triangle of A (n by n, row stride ld) with L; the strict upper triangle is not
// read or written. False when a pivot is not > 0 (also NaN): A is then left part-way factored.
inline bool lanes_cholesky_rows(double* A, std::size_t n, std::size_t ld) {
  for (std::size_t i = 0; i < n; ++i) {
    double* row_i = A + i * ld;
    for (std::size_t j = 0; j < i; ++j) {
      const double* row_j = A + j * ld;
      row_i[j] = (row_i[j] - lanes_dot(row_i, row_j, j)) / row_j[j];
    }
    const double pivot = row_i[i] - lanes_dot(row_i, row_i, i);
    if (!(pivot > 0.0)) return false;
    row_i[i] = std::sqrt(pivot);
  }
  return true;
}

// b <- (L L')^-1 b for the L of lanes_cholesky_rows.
inline void lanes_cholesky_solve(const double* L, std::size_t n, std::size_t ld, double* b) {
  for (std::size_t i = 0; i < n; ++i) b[i] = (b[i] - lanes_dot(L + i * ld, b, i)) / L[i * ld + i];
  for (std::size_t j = n; j-- > 0;) {
    b[j] /= L[j * ld + j];
    lanes_axpy(-b[j], L + j * ld, b, j);  // b[0:j] -= x_j L[j, 0:j]
  }
}

}  // namespace gpprobe
