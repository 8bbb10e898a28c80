// Cholesky factor, triangular inverse and inverse of a symmetric positive definite matrix in blocks of
// 64 rows, so that nearly all of the O(n^3) work is one primitive, C -= A B' on row-major blocks
// (add_product_transposed in row_products.h: an f64x2 kernel under wasm, Eigen natively). In
// WebAssembly Eigen's own factorisations run its scalar path; these run the SIMD kernel.
//
//   cholesky_in_place         A = L L'                      n^3/3 flops   (LAPACK potrf, left-looking)
//   invert_lower_transposed   U = L^-T  (upper)             n^3/3 flops   (trtri)
//   gram_of_upper_in_place    U -> U U' = A^-1 (upper)      n^3/3 flops   (lauum)
//   multiply_lower_transposed C = B L'  for lower L         m n^2 flops   (half of a dense B L')
//
// so A^-1 = L^-T L^-1 costs n^3 flops, where a triangular solve against I plus a dense product cost
// 10/3 n^3. All matrices are n by n, row-major; "lower"/"upper" name the triangle read and written.
#pragma once

#include <cstddef>
#include <string>

#include "gpprobe/common/status.h"

namespace gpprobe {

// Reads the lower triangle of the symmetric A and overwrites it with L (A = L L'); the strict upper
// triangle becomes 0. numerical_failure "<what> is not positive definite" when a pivot is not > 0
// (no jitter is added); A is then left part-way factored.
Status cholesky_in_place(double* A, std::size_t n, const std::string& what);

// U = L^-T for a lower triangular L with a positive diagonal: upper triangular, strict lower part 0.
// Row i of U is column i of L^-1. U must not alias L.
void invert_lower_transposed(const double* L, std::size_t n, double* U);

// Overwrites the upper triangular U (strict lower part 0) with the upper triangle of U U'; the strict
// lower triangle is left with values of no meaning unless `mirror` copies the upper one there.
// With U = L^-T this is A^-1.
void gram_of_upper_in_place(double* U, std::size_t n, bool mirror);

// C = B L' (m by n) for B m by n and a lower triangular L (n by n, only its lower triangle is read).
void multiply_lower_transposed(const double* B, std::size_t m, const double* L, std::size_t n, double* C);

}  // namespace gpprobe
