// Dense products of row-major matrices, the hot loops of the probe. Kernel rows k(Q, X) = Psi_Q Psi_X',
// Gram matrices Psi' Psi and quadratic forms z' S z over many queries all reduce to
//
//   C = A B'      A  m by k,  B  n by k,  C  m by n   (all row-major, rows contiguous)
//
// Natively these call Eigen (which vectorises for the host). Under WebAssembly Eigen 3.4 has no SIMD
// backend, so a register-blocked f64x2 kernel is used instead (-msimd128); define
// GPPROBE_PORTABLE_PRODUCTS to force the Eigen path there too (the benchmark compares both).
#pragma once

#include <cstddef>

namespace gpprobe {

// C = A B'.
void multiply_transposed(const double* A, std::size_t m, const double* B, std::size_t n, std::size_t k, double* C);

// C = A A' (m by m, exactly symmetric) for A m by k: the lower block triangle through
// add_product_transposed, mirrored; half the multiply-adds of multiply_transposed(A, m, A, m, k, C).
// Gram matrices (Psi Psi', and Psi_c' Psi_c through the transposed class block).
void multiply_self_transposed(const double* A, std::size_t m, std::size_t k, double* C);

// C += sign * A B' on blocks inside larger row-major matrices: row i of A starts at A + i*lda, row j of
// B at B + j*ldb, row i of C at C + i*ldc (A m by k, B n by k, C m by n; sign is +1 or -1). The trailing
// updates of the blocked factorisations (blocked_cholesky.h) and triangular products over many queries.
void add_product_transposed(const double* A, std::size_t lda, const double* B, std::size_t ldb, std::size_t m,
                            std::size_t n, std::size_t k, double sign, double* C, std::size_t ldc);

// out[i] = A_i . B_i for the m rows of A and B (both m by k).
void rowwise_dot(const double* A, const double* B, std::size_t m, std::size_t k, double* out);

// out[i] = A_i . x for the m rows of A (m by k) and one vector x of length k.
void multiply_vector(const double* A, std::size_t m, std::size_t k, const double* x, double* out);

// C += A' B      A  m by k,  B  m by n,  C  k by n   (a sum of m outer products a_i b_i')
// For Gram-like products over rows that arrive in blocks (PCA over a float32 matrix widened block by block).
void accumulate_transposed_product(const double* A, const double* B, std::size_t m, std::size_t k, std::size_t n,
                                   double* C);

// out += A' w = sum_i w_i A_i for the m rows of A (m by k) and m weights w: the gradient of a loss over
// margins A x (k = 1 of accumulate_transposed_product, without its store of out per row). One kernel on
// four lanes (core/src/linalg/lanes.h) under both backends: strips of out's columns stay in registers across all
// rows, and each out value is summed in row order.
void add_weighted_rows(const double* w, const double* A, std::size_t m, std::size_t k, double* out);

// Which implementation this build uses: "wasm-simd128", "wasm-relaxed-simd" (fused.h) or "eigen".
const char* row_products_backend();

// Whether this engine fuses the products' multiply-adds (one rounding): measured, not assumed. True in the
// relaxed wasm build where the engine maps relaxed_madd to an FMA (x86 with FMA3, ARM); false in the
// plain wasm build, and wherever the engine or the compiler rounds the product first.
bool multiply_add_fuses();

}  // namespace gpprobe
