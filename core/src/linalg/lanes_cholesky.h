// Cholesky factor and solves of a small dense symmetric positive definite matrix (row-major), with the
// inner loops on four lanes (lanes.h): the Newton systems of the logistic fits (logistic_newton.cpp),
// 65 by 65 for the demo's 64-dimensional embeddings, factorised hundreds of times per experiment. In
// WebAssembly Eigen's LLT runs its scalar path there; blocked_cholesky.h targets large matrices (its
// diagonal blocks of 64 are factorised scalar). Private to core/src.
//
//   lanes_cholesky_rows   A = L L' row by row: L_ij = (A_ij - L_i[0:j] . L_j[0:j]) / L_jj, every inner
//                         loop contiguous dot products, four at a time (n^3/6 multiply-adds)
//   lanes_cholesky_solve  x = A^-1 b in place: L y = b by rows (dot products), then L' x = y by
//                         columns of L', i.e. rows of L (four-row axpys)
#pragma once

#include <cmath>
#include <cstddef>

#include "linalg/lanes.h"

namespace gpprobe {

// out[a] = x . r_a over n values for four rows r_0..r_3: one pass over x, four accumulators.
inline void lanes_dot4(const double* x, const double* r0, const double* r1, const double* r2, const double* r3,
                       std::size_t n, double out[4]) {
  Lanes s0 = splat(0.0), s1 = splat(0.0), s2 = splat(0.0), s3 = splat(0.0);
  std::size_t i = 0;
  for (; i + kLaneCount <= n; i += kLaneCount) {
    const Lanes v = load(x + i);
    s0 = madd(v, load(r0 + i), s0);
    s1 = madd(v, load(r1 + i), s1);
    s2 = madd(v, load(r2 + i), s2);
    s3 = madd(v, load(r3 + i), s3);
  }
  double t0 = sum(s0), t1 = sum(s1), t2 = sum(s2), t3 = sum(s3);
  for (; i < n; ++i) {
    t0 += x[i] * r0[i];
    t1 += x[i] * r1[i];
    t2 += x[i] * r2[i];
    t3 += x[i] * r3[i];
  }
  out[0] = t0;
  out[1] = t1;
  out[2] = t2;
  out[3] = t3;
}

// Forward substitution for entries j .. j + 3 of x against rows j .. j + 3 of a lower triangle L (row
// stride ld, from `rows` = L + j ld) whose rows' first j entries meet x[0 .. j) already final:
// x[j + k] = (x[j + k] - L_{j+k, <j+k} . x) / L_{j+k, j+k}, the four dot products over x[0 .. j) in one pass
// (lanes_dot4), then the 4 by 4 triangle between them. Shared by the factorisation (x a row of A becoming a
// row of L) and the solve (x = b becoming y of L y = b).
inline void forward_four(const double* rows, std::size_t ld, const double* inverse, std::size_t j, double* x) {
  const double *r0 = rows, *r1 = r0 + ld, *r2 = r1 + ld, *r3 = r2 + ld;
  double s[4];
  lanes_dot4(x, r0, r1, r2, r3, j, s);
  x[j] = (x[j] - s[0]) * inverse[j];
  x[j + 1] = (x[j + 1] - s[1] - x[j] * r1[j]) * inverse[j + 1];
  x[j + 2] = (x[j + 2] - s[2] - x[j] * r2[j] - x[j + 1] * r2[j + 1]) * inverse[j + 2];
  x[j + 3] = (x[j + 3] - s[3] - x[j] * r3[j] - x[j + 1] * r3[j + 1] - x[j + 2] * r3[j + 2]) * inverse[j + 3];
}

// Overwrites the lower triangle of A (n by n, row stride ld) with L and sets inverse[j] = 1 / L_jj (n
// values; the divisions of both routines become multiplications, off the chain of dependent steps).
// The strict upper triangle is not read or written. False when a pivot is not > 0 (also NaN): A is
// then left part-way factored. Row i's entries come four at a time: their dot products with the part of
// row i already final in one pass (lanes_dot4), then the 4 by 4 triangle between them.
inline bool lanes_cholesky_rows(double* A, std::size_t n, std::size_t ld, double* inverse) {
  for (std::size_t i = 0; i < n; ++i) {
    double* x = A + i * ld;
    std::size_t j = 0;
    for (; j + 4 <= i; j += 4) forward_four(A + j * ld, ld, inverse, j, x);
    for (; j < i; ++j) x[j] = (x[j] - lanes_dot(x, A + j * ld, j)) * inverse[j];
    const double pivot = x[i] - lanes_dot(x, x, i);
    if (!(pivot > 0.0)) return false;
    x[i] = std::sqrt(pivot);
    inverse[i] = 1.0 / x[i];
  }
  return true;
}

// b <- (L L')^-1 b for the L and inverse of lanes_cholesky_rows. L y = b by rows, four at a time
// (lanes_dot4 and their 4 by 4 triangle); then L' x = y from the last row up, four at a time: the 4 by 4
// triangle, then the four rows' share subtracted from the rest of b in one pass.
inline void lanes_cholesky_solve(const double* L, std::size_t n, std::size_t ld, const double* inverse, double* b) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) forward_four(L + i * ld, ld, inverse, i, b);
  for (; i < n; ++i) b[i] = (b[i] - lanes_dot(L + i * ld, b, i)) * inverse[i];

  std::size_t j = n;
  for (; j >= 4; j -= 4) {
    const std::size_t j0 = j - 4;
    const double *r0 = L + j0 * ld, *r1 = r0 + ld, *r2 = r1 + ld, *r3 = r2 + ld;
    b[j0 + 3] *= inverse[j0 + 3];
    b[j0 + 2] = (b[j0 + 2] - r3[j0 + 2] * b[j0 + 3]) * inverse[j0 + 2];
    b[j0 + 1] = (b[j0 + 1] - r3[j0 + 1] * b[j0 + 3] - r2[j0 + 1] * b[j0 + 2]) * inverse[j0 + 1];
    b[j0] = (b[j0] - r3[j0] * b[j0 + 3] - r2[j0] * b[j0 + 2] - r1[j0] * b[j0 + 1]) * inverse[j0];
    const Lanes x0 = splat(b[j0]), x1 = splat(b[j0 + 1]), x2 = splat(b[j0 + 2]), x3 = splat(b[j0 + 3]);
    std::size_t k = 0;  // b[0:j0] -= sum_a x_(j0+a) L[j0+a, 0:j0]
    for (; k + kLaneCount <= j0; k += kLaneCount) {
      store(b + k,
            load(b + k) - madd(x3, load(r3 + k), madd(x2, load(r2 + k), madd(x1, load(r1 + k), x0 * load(r0 + k)))));
    }
    for (; k < j0; ++k) b[k] -= b[j0] * r0[k] + b[j0 + 1] * r1[k] + b[j0 + 2] * r2[k] + b[j0 + 3] * r3[k];
  }
  while (j-- > 0) {  // the first n mod 4 rows
    b[j] *= inverse[j];
    lanes_axpy(-b[j], L + j * ld, b, j);
  }
}

}  // namespace gpprobe
