// Float32 versions of the two products behind scoring many queries, for float32 queries whose callers
// asked for float32 products (ProbeOptions::float32_products):
//
//   add_product_transposed      C += A B'      A m by k,  B n by k  (float, row-major, strided)
//   multiply_lower_transposed   C  = B L'      B m by n,  L n by n lower triangular (float, zeros above)
//
// C is float64. Products and sums run in float32 four lanes at a time (f32x4 under -msimd128, SSE/AVX
// natively, one source through the GCC/Clang vector extension), register-blocked 4 rows by 2 columns:
// eight accumulators of four lanes, so each multiply-add step does 32 of them, twice the f64x2 kernel's
// 16. Every chunk of kChunk = 256 values of k (64 per lane) is summed in float64 and added into C, so a
// float32 sum never runs over more than 64 terms: with u = 2^-24 each entry of C is within
//
//   66 u sum_p |a_p b_p|                                   (of the exact product of the float inputs)
//
// whatever k is (64 additions, one rounding of each product, the lane sum in float64). What that means
// for a probe's variance, and when it falls back to float64, is in weight_space_posterior.h.
// Private to core/src.
#pragma once

#include <cstddef>

namespace gpprobe {

constexpr std::size_t kFloat32Chunk = 256;

// C += A B' on blocks inside larger row-major matrices (row i of A at A + i*lda, of B at B + j*ldb,
// of C at C + i*ldc).
void add_product_transposed(const float* A, std::size_t lda, const float* B, std::size_t ldb, std::size_t m,
                            std::size_t n, std::size_t k, double* C, std::size_t ldc);

// C = B L' (m by n) for B m by n and a lower triangular L (n by n) whose strict upper triangle holds
// zeros: row j is read up to column j rounded up to a multiple of 4 (so the vector steps need no tail).
void multiply_lower_transposed(const float* B, std::size_t m, const float* L, std::size_t n, double* C);

}  // namespace gpprobe
