// Products of a lower-triangular matrix's positive and negative parts with a few columns, the inner
// work of the centred variance bound (centred_variance_bounds.h):
//
//   P = max(M, 0) V,   N = min(M, 0) V,   t = M' y  with y = M V[:, j] (one of the columns, optionally)
//
//   M  n by n lower triangular, row-major (the strict upper triangle is not read)
//   V  n by m row-major (m small: 2k + 8), P and N n by m row-major; t n values
//
// In one pass over M's lower triangle (each row is used for all columns and, once y_r = P_rj + N_rj is
// known, added into t while it is in cache): M is megabytes, so the pass is memory-bound and reading
// it once matters more than the arithmetic. Four columns share one register (lanes.h): n^2 m / 8 vector
// operations natively and under -msimd128 alike (Eigen 3.4 has no wasm SIMD, and its triangular product
// repacks all of M for every call). Private to core/src.
#pragma once

#include <cstddef>
#include <vector>

namespace gpprobe {

// transposed: null, or n values receiving M' (M V[:, column]).
void signed_lower_products(const double* M, std::size_t n, const double* V, std::size_t m, double* P, double* N,
                           std::size_t column = 0, double* transposed = nullptr);

}  // namespace gpprobe
