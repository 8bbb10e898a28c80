#include "linalg/float32_products.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "linalg/blocked_rows.h"
#include "linalg/fused.h"

namespace gpprobe {

namespace {

inline Float4 load4(const float* p) {
  Float4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The four lanes summed in float64 (exact conversions, so only these three additions round).
inline double lane_sum(Float4 v) { return (double(v[0]) + double(v[1])) + (double(v[2]) + double(v[3])); }

// Dot products of MR rows of A with NR rows of B over k <= kFloat32Chunk values, added into C.
template <int MR, int NR>
inline void micro_kernel(const float* A, std::size_t lda, const float* B, std::size_t ldb, std::size_t k, double* C,
                         std::size_t ldc) {
  Float4 acc[MR][NR];
  for (int r = 0; r < MR; ++r)
    for (int c = 0; c < NR; ++c) acc[r][c] = Float4{0.0f, 0.0f, 0.0f, 0.0f};
  std::size_t p = 0;
  for (; p + 4 <= k; p += 4) {
    Float4 b[NR];
    for (int c = 0; c < NR; ++c) b[c] = load4(B + c * ldb + p);
    for (int r = 0; r < MR; ++r) {
      const Float4 a = load4(A + r * lda + p);
      for (int c = 0; c < NR; ++c) acc[r][c] = madd(a, b[c], acc[r][c]);
    }
  }
  for (int r = 0; r < MR; ++r) {
    for (int c = 0; c < NR; ++c) {
      double s = lane_sum(acc[r][c]);
      for (std::size_t q = p; q < k; ++q) s += double(A[r * lda + q]) * double(B[c * ldb + q]);  // exact products
      C[r * ldc + c] += s;
    }
  }
}

template <int MR>
inline void row_block(const float* A, std::size_t lda, const float* B, std::size_t ldb, std::size_t n, std::size_t k,
                      double* C, std::size_t ldc) {
  std::size_t j = 0;
  for (; j + 2 <= n; j += 2) micro_kernel<MR, 2>(A, lda, B + j * ldb, ldb, k, C + j, ldc);
  if (j < n) micro_kernel<MR, 1>(A, lda, B + j * ldb, ldb, k, C + j, ldc);
}

}  // namespace

void add_product_transposed(const float* A, std::size_t lda, const float* B, std::size_t ldb, std::size_t m,
                            std::size_t n, std::size_t k, double* C, std::size_t ldc) {
  // A chunk of 256 values keeps 4 rows of A (4 KB) in L1 while a panel of kPanel rows of B (128 KB)
  // stays in L2; each chunk's sums go into C in float64.
  constexpr std::size_t kPanel = 128;
  for_row_blocks<kFloat32Chunk, kPanel>(
      m, n, k, [&](auto rows, std::size_t i, std::size_t j0, std::size_t p0, std::size_t nc, std::size_t kc) {
        row_block<decltype(rows)::value>(A + i * lda + p0, lda, B + j0 * ldb + p0, ldb, nc, kc, C + j0 + i * ldc, ldc);
      });
}

namespace {

// Columns j of C from the chunk [p0, p0 + kFloat32Chunk) of k, for MR rows of B: each pair of columns
// (j, j + 1) runs k up to j + 2 rounded up to a multiple of 4 (the zeros of L above its diagonal up to
// there are multiplied too, 1.5 values per column on average).
template <int MR>
void lower_row_block(const float* B, const float* L, std::size_t n, std::size_t p0, std::size_t j0, std::size_t j1,
                     double* C) {
  const auto end_of = [n](std::size_t j) { return std::min(n, (j + 4) & ~std::size_t(3)); };  // > j, multiple of 4
  std::size_t j = j0;
  for (; j + 2 <= j1; j += 2) {
    const std::size_t end = std::min(end_of(j + 1), p0 + kFloat32Chunk);
    if (end > p0) micro_kernel<MR, 2>(B + p0, n, L + j * n + p0, n, end - p0, C + j, n);
  }
  if (j < j1) {
    const std::size_t end = std::min(end_of(j), p0 + kFloat32Chunk);
    if (end > p0) micro_kernel<MR, 1>(B + p0, n, L + j * n + p0, n, end - p0, C + j, n);
  }
}

}  // namespace

void multiply_lower_transposed(const float* B, std::size_t m, const float* L, std::size_t n, double* C) {
  // Chunks of k outermost, then panels of kPanel rows of L (128 KB, in L2), then 4 rows of B at a time
  // (in L1). Only columns j >= p0 - 3 have anything in chunk p0.
  constexpr std::size_t kPanel = 128;
  std::fill(C, C + m * n, 0.0);
  for (std::size_t p0 = 0; p0 < n; p0 += kFloat32Chunk) {
    for (std::size_t j0 = p0 < 4 ? 0 : p0 - 4; j0 < n; j0 += kPanel) {
      const std::size_t j1 = std::min(n, j0 + kPanel);
      std::size_t i = 0;
      for (; i + 4 <= m; i += 4) lower_row_block<4>(B + i * n, L, n, p0, j0, j1, C + i * n);
      switch (m - i) {
        case 3:
          lower_row_block<3>(B + i * n, L, n, p0, j0, j1, C + i * n);
          break;
        case 2:
          lower_row_block<2>(B + i * n, L, n, p0, j0, j1, C + i * n);
          break;
        case 1:
          lower_row_block<1>(B + i * n, L, n, p0, j0, j1, C + i * n);
          break;
        default:
          break;
      }
    }
  }
}

}  // namespace gpprobe
