#include "gpprobe/linalg/blocked_cholesky.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gpprobe/linalg/parallel_for.h"
#include "gpprobe/linalg/row_products.h"

#include "linalg/lanes_cholesky.h"

namespace gpprobe {

namespace {

// 64 rows: a 64 by 64 diagonal block (32 KB) stays in L1/L2 while its panel streams past it. The diagonal
// blocks and the panels below them are solved row by row with the four-lane kernels of lanes_cholesky.h
// (n * 64^2 / 2 multiply-adds in all, a tenth of the n^3/3 at n = 769: scalar, they took half the time).
constexpr std::size_t kBlock = 64;

// Below this many multiply-adds a loop runs on the calling thread (a pool round trip costs microseconds).
constexpr double kParallelWork = 262144.0;

// Rows [0, rows) in chunks of kBlock rows: body(first, count) for each chunk, on the thread pool
// (parallel_for.h) when the work, `work_per_row` multiply-adds a row, repays it. Every chunk is computed
// by the same call whichever thread runs it, on its own rows, so the result does not depend on the thread
// count.
template <class Body>
void for_row_chunks(std::size_t rows, double work_per_row, Body&& body) {
  const std::size_t chunks = (rows + kBlock - 1) / kBlock;
  const auto run = [&](std::size_t c0, std::size_t c1) {
    for (std::size_t c = c0; c < c1; ++c) body(c * kBlock, std::min(kBlock, rows - c * kBlock));
  };
  if (chunks < 2 || double(rows) * work_per_row < kParallelWork) run(0, chunks);
  else parallel_for(chunks, run);
}

// As for_row_chunks, for chunks of unequal work that shrinks with the chunk's first row (the products
// of the triangular inverse): the chunks are claimed one at a time as threads become free, first row
// first (parallel_tasks), so one thread is not left with the long ones. Same bits on any thread count.
template <class Body>
void for_shrinking_row_chunks(std::size_t rows, double work_per_row, Body&& body) {
  const std::size_t chunks = (rows + kBlock - 1) / kBlock;
  const auto chunk = [&](std::size_t c) {
    body(c * kBlock, std::min(kBlock, rows - c * kBlock));
    return Status::success();
  };
  if (chunks < 2 || double(rows) * work_per_row < kParallelWork) {
    for (std::size_t c = 0; c < chunks; ++c) chunk(c);
  } else {
    parallel_tasks(chunks, chunk, [](std::size_t) { return Status::success(); });
  }
}

// X <- X L_JJ^-T for the `rows` rows of X (row stride ld, b columns), by forward substitution per row:
// each row of X is solved against the factored diagonal block D as lanes_cholesky_rows solves a row of
// its own matrix (four entries at a time, dot products on four lanes, 1 / L_jj from `inverse`).
void solve_panel(double* X, std::size_t rows, std::size_t ld, const double* D, std::size_t b, const double* inverse) {
  for (std::size_t i = 0; i < rows; ++i) {
    double* x = X + i * ld;
    std::size_t j = 0;
    for (; j + 4 <= b; j += 4) forward_four(D + j * ld, ld, inverse, j, x);
    for (; j < b; ++j) x[j] = (x[j] - lanes_dot(x, D + j * ld, j)) * inverse[j];
  }
}

// M = D^-1 for the b by b lower triangular block at D (row stride ld); M is b by b, row-major, with
// zeros above the diagonal.
void invert_diagonal_block(const double* D, std::size_t b, std::size_t ld, double* M) {
  std::fill(M, M + b * b, 0.0);
  for (std::size_t c = 0; c < b; ++c) {  // column c of M solves D m = e_c
    M[c * b + c] = 1.0 / D[c * ld + c];
    for (std::size_t r = c + 1; r < b; ++r) {
      double s = 0.0;
      for (std::size_t q = c; q < r; ++q) s += D[r * ld + q] * M[q * b + c];
      M[r * b + c] = -s / D[r * ld + r];
    }
  }
}

}  // namespace

Status cholesky_in_place(double* A, std::size_t n, const std::string& what) {
  double inverse[kBlock];  // 1 / L_jj of the current diagonal block
  for (std::size_t j0 = 0; j0 < n; j0 += kBlock) {
    const std::size_t b = std::min(kBlock, n - j0);
    double* column = A + j0 * n + j0;  // the block column J from its diagonal block down
    // A[j0:n, J] -= L[j0:n, 0:j0] L[J, 0:j0]': everything left of J is final. Rows in chunks: each chunk
    // reads its own rows and J's left of the diagonal, and writes its own rows of the block column.
    for_row_chunks(n - j0, double(b) * double(j0), [&](std::size_t first, std::size_t count) {
      add_product_transposed(A + (j0 + first) * n, n, A + j0 * n, n, count, b, j0, -1.0, column + first * n, n);
    });
    if (!lanes_cholesky_rows(column, b, n, inverse)) {
      return Status(StatusCode::numerical_failure, what + " is not positive definite");
    }
    // The panel below the diagonal block, row by row against the factored block.
    double* panel = column + b * n;
    for_row_chunks(n - j0 - b, 0.5 * double(b) * double(b), [&](std::size_t first, std::size_t count) {
      solve_panel(panel + first * n, count, n, column, b, inverse);
    });
  }
  for (std::size_t i = 0; i < n; ++i) std::fill(A + i * n + i + 1, A + (i + 1) * n, 0.0);
  return Status::success();
}

void invert_lower_transposed(const double* L, std::size_t n, double* U) {
  // U L' = I column block by column block: with U_II = L_II^-T,
  //   U_JI = -(sum_{J <= K < I} U_JK L_IK') U_II   for every row block J < I,
  // where U's rows left of I are final. U's zeros below the diagonal let each product start at j0.
  std::fill(U, U + n * n, 0.0);
  std::vector<double> M(kBlock * kBlock), S;
  for (std::size_t i0 = 0; i0 < n; i0 += kBlock) {
    const std::size_t b = std::min(kBlock, n - i0);
    invert_diagonal_block(L + i0 * n + i0, b, n, M.data());
    for (std::size_t r = 0; r < b; ++r)
      for (std::size_t c = r; c < b; ++c) U[(i0 + r) * n + i0 + c] = M[c * b + r];
    if (i0 == 0) continue;
    S.assign(i0 * b, 0.0);
    // Row block J of S from U's rows J (final) and L's block row I; blocks write their own rows of S.
    for_shrinking_row_chunks(i0, 0.5 * double(b) * double(i0), [&](std::size_t j0, std::size_t rows) {
      add_product_transposed(U + j0 * n + j0, n, L + i0 * n + j0, n, rows, b, i0 - j0, 1.0, S.data() + j0 * b, b);
    });
    // U[0:i0, I] = -S U_II, and U_II = M' so its columns are the rows of M.
    for_row_chunks(i0, double(b) * double(b), [&](std::size_t first, std::size_t count) {
      add_product_transposed(S.data() + first * b, b, M.data(), b, count, b, b, -1.0, U + first * n + i0, n);
    });
  }
}

void gram_of_upper_in_place(double* U, std::size_t n, bool mirror) {
  // Block column J of U U' above and on the diagonal: W[0:j1, J] = U[0:j1, j0:n] U[J, j0:n]', exact
  // from column j0 on because U is zero left of its diagonal. It reads only columns >= j0 of U, so the
  // finished columns of W can replace those of U.
  std::vector<double> T;
  for (std::size_t j0 = 0; j0 < n; j0 += kBlock) {
    const std::size_t b = std::min(kBlock, n - j0), j1 = j0 + b;
    T.assign(j1 * b, 0.0);
    for_row_chunks(j1, double(b) * double(n - j0), [&](std::size_t first, std::size_t count) {
      add_product_transposed(U + first * n + j0, n, U + j0 * n + j0, n, count, b, n - j0, 1.0, T.data() + first * b, b);
    });
    for (std::size_t r = 0; r < j1; ++r) std::copy(T.data() + r * b, T.data() + (r + 1) * b, U + r * n + j0);
  }
  if (!mirror) return;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) U[j * n + i] = U[i * n + j];
}

void multiply_lower_transposed(const double* B, std::size_t m, const double* L, std::size_t n, double* C) {
  // Column block P of C: C[:, P] = B[:, 0:p0] L[P, 0:p0]' + B[:, P] L_PP', the diagonal block from a
  // copy with zeros above its diagonal (L's upper triangle is never read).
  std::fill(C, C + m * n, 0.0);
  std::vector<double> D(kBlock * kBlock);
  for (std::size_t p0 = 0; p0 < n; p0 += kBlock) {
    const std::size_t b = std::min(kBlock, n - p0);
    add_product_transposed(B, n, L + p0 * n, n, m, b, p0, 1.0, C + p0, n);
    std::fill(D.begin(), D.end(), 0.0);
    for (std::size_t r = 0; r < b; ++r)
      std::copy(L + (p0 + r) * n + p0, L + (p0 + r) * n + p0 + r + 1, D.data() + r * b);
    add_product_transposed(B + p0, n, D.data(), b, m, b, b, 1.0, C + p0, n);
  }
}

}  // namespace gpprobe
