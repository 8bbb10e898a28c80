#include "gpprobe/linalg/row_products.h"

#include <algorithm>

#include "gpprobe/linalg/parallel_for.h"

#include "linalg/blocked_rows.h"
#include "linalg/lanes.h"

#if defined(__wasm_simd128__) && !defined(GPPROBE_PORTABLE_PRODUCTS)
#define GPPROBE_WASM_SIMD 1
#include <wasm_simd128.h>
#else
#include <Eigen/Core>
#endif

namespace gpprobe {

#if GPPROBE_WASM_SIMD

namespace {

// acc + a * b (fused in the relaxed build, fused.h).
inline v128_t madd_f64x2(v128_t a, v128_t b, v128_t acc) { return (v128_t)madd((Double2)a, (Double2)b, (Double2)acc); }

inline double horizontal_sum(v128_t v) { return wasm_f64x2_extract_lane(v, 0) + wasm_f64x2_extract_lane(v, 1); }

// Dot products of MR rows of A with NR rows of B over k values, added into C.
// MR*NR accumulators of two lanes each; the k loop streams 2 values per row per step.
template <int MR, int NR>
inline void micro_kernel(const double* A, std::size_t lda, const double* B, std::size_t ldb, std::size_t k, double* C,
                         std::size_t ldc, double sign = 1.0) {
  v128_t acc[MR][NR];
  for (int r = 0; r < MR; ++r)
    for (int c = 0; c < NR; ++c) acc[r][c] = wasm_f64x2_splat(0.0);
  std::size_t p = 0;
  for (; p + 2 <= k; p += 2) {
    v128_t b[NR];
    for (int c = 0; c < NR; ++c) b[c] = wasm_v128_load(B + c * ldb + p);
    for (int r = 0; r < MR; ++r) {
      const v128_t a = wasm_v128_load(A + r * lda + p);
      for (int c = 0; c < NR; ++c) acc[r][c] = madd_f64x2(a, b[c], acc[r][c]);
    }
  }
  for (int r = 0; r < MR; ++r) {
    for (int c = 0; c < NR; ++c) {
      double s = horizontal_sum(acc[r][c]);
      if (p < k) s += A[r * lda + p] * B[c * ldb + p];  // odd k: one value left
      C[r * ldc + c] += sign * s;
    }
  }
}

template <int MR>
inline void row_block(const double* A, std::size_t lda, const double* B, std::size_t ldb, std::size_t n, std::size_t k,
                      double* C, std::size_t ldc, double sign) {
  std::size_t j = 0;
  for (; j + 2 <= n; j += 2) micro_kernel<MR, 2>(A, lda, B + j * ldb, ldb, k, C + j, ldc, sign);
  if (j < n) micro_kernel<MR, 1>(A, lda, B + j * ldb, ldb, k, C + j, ldc, sign);
}

}  // namespace

void add_product_transposed(const double* A, std::size_t lda, const double* B, std::size_t ldb, std::size_t m,
                            std::size_t n, std::size_t k, double sign, double* C, std::size_t ldc) {
  // Blocking: a k-chunk of kKc values keeps 4 rows of A (8 KB) in L1 while a panel of kNc rows of B
  // (128 KB) stays in L2; C accumulates across k-chunks.
  constexpr std::size_t kKc = 256;
  constexpr std::size_t kNc = 64;
  for_row_blocks<kKc, kNc>(
      m, n, k, [&](auto rows, std::size_t i, std::size_t j0, std::size_t p0, std::size_t nc, std::size_t kc) {
        row_block<decltype(rows)::value>(A + i * lda + p0, lda, B + j0 * ldb + p0, ldb, nc, kc, C + j0 + i * ldc, ldc,
                                         sign);
      });
}

void multiply_transposed(const double* A, std::size_t m, const double* B, std::size_t n, std::size_t k, double* C) {
  std::fill(C, C + m * n, 0.0);
  add_product_transposed(A, k, B, k, m, n, k, 1.0, C, n);
}

void rowwise_dot(const double* A, const double* B, std::size_t m, std::size_t k, double* out) {
  for (std::size_t i = 0; i < m; ++i) {
    out[i] = 0.0;
    micro_kernel<1, 1>(A + i * k, k, B + i * k, k, k, out + i, 1);
  }
}

void multiply_vector(const double* A, std::size_t m, std::size_t k, const double* x, double* out) {
  std::fill(out, out + m, 0.0);
  std::size_t i = 0;
  // Eight rows a step: eight independent accumulator chains keep two multiply-adds a cycle in flight
  // (four chains wait on the multiply-add's latency half the time).
  for (; i + 8 <= m; i += 8) micro_kernel<8, 1>(A + i * k, k, x, k, k, out + i, 1);
  for (; i + 4 <= m; i += 4) micro_kernel<4, 1>(A + i * k, k, x, k, k, out + i, 1);
  for (; i < m; ++i) micro_kernel<1, 1>(A + i * k, k, x, k, k, out + i, 1);
}

void accumulate_transposed_product(const double* A, const double* B, std::size_t m, std::size_t k, std::size_t n,
                                   double* C) {
  // Row i adds a_i b_i': for each of the n columns, an axpy of length k into column-major-by-row C.
  // C is k by n row-major; keep the n accumulators of one a-value together: C[p*n + c] += a_ip b_ic.
  for (std::size_t i = 0; i < m; ++i) {
    const double* a = A + i * k;
    const double* b = B + i * n;
    for (std::size_t p = 0; p < k; ++p) {
      const v128_t ap = wasm_f64x2_splat(a[p]);
      double* c = C + p * n;
      std::size_t j = 0;
      for (; j + 2 <= n; j += 2) {
        wasm_v128_store(c + j, madd_f64x2(ap, wasm_v128_load(b + j), wasm_v128_load(c + j)));
      }
      for (; j < n; ++j) c[j] += a[p] * b[j];
    }
  }
}

const char* row_products_backend() { return kFusedMultiplyAdd ? "wasm-relaxed-simd" : "wasm-simd128"; }

#else  // portable: Eigen

namespace {
using Rows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstRowsMap = Eigen::Map<const Rows>;
using Index = Eigen::Index;
}  // namespace

void multiply_transposed(const double* A, std::size_t m, const double* B, std::size_t n, std::size_t k, double* C) {
  Eigen::Map<Rows> c(C, Index(m), Index(n));
  if (k == 0) {
    c.setZero();
    return;
  }
  c.noalias() = ConstRowsMap(A, Index(m), Index(k)) * ConstRowsMap(B, Index(n), Index(k)).transpose();
}

void add_product_transposed(const double* A, std::size_t lda, const double* B, std::size_t ldb, std::size_t m,
                            std::size_t n, std::size_t k, double sign, double* C, std::size_t ldc) {
  if (m == 0 || n == 0 || k == 0) return;
  using Strided = Eigen::Map<const Rows, 0, Eigen::OuterStride<> >;
  Eigen::Map<Rows, 0, Eigen::OuterStride<> > c(C, Index(m), Index(n), Eigen::OuterStride<>(Index(ldc)));
  const Strided a(A, Index(m), Index(k), Eigen::OuterStride<>(Index(lda)));
  const Strided b(B, Index(n), Index(k), Eigen::OuterStride<>(Index(ldb)));
  if (sign < 0.0) c.noalias() -= a * b.transpose();
  else c.noalias() += a * b.transpose();
}

void rowwise_dot(const double* A, const double* B, std::size_t m, std::size_t k, double* out) {
  Eigen::Map<Eigen::VectorXd>(out, Index(m)) =
      ConstRowsMap(A, Index(m), Index(k)).cwiseProduct(ConstRowsMap(B, Index(m), Index(k))).rowwise().sum();
}

void multiply_vector(const double* A, std::size_t m, std::size_t k, const double* x, double* out) {
  Eigen::Map<Eigen::VectorXd>(out, Index(m)).noalias() =
      ConstRowsMap(A, Index(m), Index(k)) * Eigen::Map<const Eigen::VectorXd>(x, Index(k));
}

void accumulate_transposed_product(const double* A, const double* B, std::size_t m, std::size_t k, std::size_t n,
                                   double* C) {
  Eigen::Map<Rows>(C, Index(k), Index(n)).noalias() +=
      ConstRowsMap(A, Index(m), Index(k)).transpose() * ConstRowsMap(B, Index(m), Index(n));
}

const char* row_products_backend() { return "eigen"; }

#endif

bool multiply_add_fuses() {
  // (1 + 2^-30)(1 - 2^-30) - 1 = -2^-60 exactly, when fused; rounding the product first gives 1 - 1 = 0.
  volatile double e = 0x1p-30;  // not a constant: the compiler must leave the arithmetic to the engine
  const double x = e;
  const Double2 product = madd(Double2{1.0 + x, 1.0 + x}, Double2{1.0 - x, 1.0 - x}, Double2{-1.0, -1.0});
  return product[0] != 0.0;
}

void add_weighted_rows(const double* w, const double* A, std::size_t m, std::size_t k, double* out) {
  constexpr std::size_t kStrip = 4 * kLaneCount;  // 16 columns: four accumulators
  std::size_t j = 0;
  for (; j + kStrip <= k; j += kStrip) {
    Lanes c0 = load(out + j), c1 = load(out + j + 4), c2 = load(out + j + 8), c3 = load(out + j + 12);
    const double* a = A + j;
    for (std::size_t i = 0; i < m; ++i, a += k) {
      const Lanes wi = splat(w[i]);
      c0 = madd(wi, load(a), c0);
      c1 = madd(wi, load(a + 4), c1);
      c2 = madd(wi, load(a + 8), c2);
      c3 = madd(wi, load(a + 12), c3);
    }
    store(out + j, c0);
    store(out + j + 4, c1);
    store(out + j + 8, c2);
    store(out + j + 12, c3);
  }
  // The last columns (fewer than a strip): rows in pairs, each on its own accumulators (one chain a
  // row would wait on the multiply-add's latency), added together at the end.
  for (; j + 2 * kLaneCount <= k; j += 2 * kLaneCount) {
    Lanes c0 = load(out + j), c1 = load(out + j + 4), d0 = splat(0.0), d1 = splat(0.0);
    const double* a = A + j;
    std::size_t i = 0;
    for (; i + 2 <= m; i += 2, a += 2 * k) {
      const Lanes w0 = splat(w[i]), w1 = splat(w[i + 1]);
      c0 = madd(w0, load(a), c0);
      c1 = madd(w0, load(a + 4), c1);
      d0 = madd(w1, load(a + k), d0);
      d1 = madd(w1, load(a + k + 4), d1);
    }
    if (i < m) {
      const Lanes wi = splat(w[i]);
      c0 = madd(wi, load(a), c0);
      c1 = madd(wi, load(a + 4), c1);
    }
    store(out + j, c0 + d0);
    store(out + j + 4, c1 + d1);
  }
  for (; j + kLaneCount <= k; j += kLaneCount) {
    Lanes c = load(out + j), d = splat(0.0), e = splat(0.0), f = splat(0.0);
    const double* a = A + j;
    std::size_t i = 0;
    for (; i + 4 <= m; i += 4, a += 4 * k) {
      c = madd(splat(w[i]), load(a), c);
      d = madd(splat(w[i + 1]), load(a + k), d);
      e = madd(splat(w[i + 2]), load(a + 2 * k), e);
      f = madd(splat(w[i + 3]), load(a + 3 * k), f);
    }
    for (; i < m; ++i, a += k) c = madd(splat(w[i]), load(a), c);
    store(out + j, (c + d) + (e + f));
  }
  for (; j < k; ++j) {
    double c = out[j];
    for (std::size_t i = 0; i < m; ++i) c += w[i] * A[i * k + j];
    out[j] = c;
  }
}

void multiply_self_transposed(const double* A, std::size_t m, std::size_t k, double* C) {
  constexpr std::size_t kRows = 64;         // a block row of C against every row of A up to its diagonal
  constexpr double kSerialWork = 262144.0;  // multiply-adds below which the pool is not worth a round trip
  // Block rows write their own rows of C, each by the same call whichever thread takes it, so C does not
  // depend on the thread count (parallel_for.h); the largest (last) blocks are handed out first. Each
  // zeroes the part of its rows it accumulates (the rest is the mirror's), so a fresh C's pages are first
  // touched on the threads too.
  const std::size_t blocks = (m + kRows - 1) / kRows;
  const auto block_row = [&](std::size_t task) {
    const std::size_t i0 = (blocks - 1 - task) * kRows, b = std::min(kRows, m - i0);
    for (std::size_t i = i0; i < i0 + b; ++i) std::fill(C + i * m, C + i * m + i0 + b, 0.0);
    add_product_transposed(A + i0 * k, k, A, k, b, i0 + b, k, 1.0, C + i0 * m, m);
    return Status::success();
  };
  if (0.5 * double(m) * double(m) * double(k) < kSerialWork) {
    for (std::size_t task = 0; task < blocks; ++task) block_row(task);
  } else {
    parallel_tasks(blocks, block_row, [](std::size_t) { return Status::success(); });
  }
  // The upper triangle from the lower, in 64 by 64 tiles (each tile's reads stay in cache), block rows
  // (the longest first) on the pool: a copy, the same values on any thread count.
  const auto mirror_row = [&](std::size_t block) {
    const std::size_t i0 = block * kRows, i1 = std::min(m, i0 + kRows);
    for (std::size_t j0 = i0; j0 < m; j0 += kRows) {
      const std::size_t j1 = std::min(m, j0 + kRows);
      for (std::size_t i = i0; i < i1; ++i)
        for (std::size_t j = std::max(j0, i + 1); j < j1; ++j) C[i * m + j] = C[j * m + i];
    }
    return Status::success();
  };
  if (0.5 * double(m) * double(m) < kSerialWork) {
    for (std::size_t block = 0; block < blocks; ++block) mirror_row(block);
  } else {
    parallel_tasks(blocks, mirror_row, [](std::size_t) { return Status::success(); });
  }
}

}  // namespace gpprobe
