// Forward substitution with many right-hand sides stored as rows, the triangular solves of the
// multi-class Laplace gradient and prediction (Eigen's triangularView<Lower>().solve runs its scalar path
// under WebAssembly; this runs nearly all of its n^2 k flops through add_product_transposed, the f64x2
// kernel of row_products.h, natively Eigen's own product on the thread pool). Private to core/src.
//
//   solve_lower_rows(L, n, B, k)   B <- B L^-T: each of the k rows b of B (k by n, row-major) becomes the
//                                  x with L x = b; equivalently X' = L^-1 B' (the k columns of B' solved)
//
// In panels of 64 columns, left-looking: panel p of every row is first reduced by the panels before it
// (B[:, p] -= B[:, <p] L[p, <p]', one add_product_transposed of inner dimension p * 64), then substituted
// against L's 64 by 64 diagonal block row by row (about k n 32 flops of the n^2 k / 2 in all).
#pragma once

#include <cstddef>

namespace gpprobe {

// L: n by n row-major, lower triangular with a nonzero diagonal (only its lower triangle is read).
// B: k by n row-major, overwritten in place. Non-finite inputs propagate; nothing is checked.
void solve_lower_rows(const double* L, std::size_t n, double* B, std::size_t k);

}  // namespace gpprobe
