// Kernel matrices and the gradient contraction of the log marginal likelihood, from a Kernel value
// evaluated pair by pair. Points are rows of row-major arrays (n by d).
//
//   kernel_matrix        K_ij = k(x_i, x_j)                         n by n (symmetric: one triangle evaluated)
//   cross_kernel_matrix  K_ij = k(a_i, x_j)                         m by n, row-major
//   contract_gradient    out_p = sum_ij W_ij dK_ij/dtheta_p          W n by n symmetric, out P = parameter_count
//
// contract_gradient is what the marginal likelihood needs: with W = alpha alpha' - K^-1,
// dlog p/dtheta_p = 1/2 sum_ij W_ij dK_ij/dtheta_p, without ever storing the P derivative matrices.
#pragma once

#include <cstddef>
#include <vector>

#include "gpprobe/kernel.h"
#include "gpprobe/matrix_view.h"

namespace gpprobe {

// Symmetric, so row-major storage is also column-major storage.
RowMatrix kernel_matrix(const Kernel& kernel, const double* x, std::size_t n, std::size_t d);

void cross_kernel_matrix(const Kernel& kernel, const double* a, std::size_t m, const double* x, std::size_t n,
                         std::size_t d, double* out);

// k(a_i, a_i) for the m rows of a.
void kernel_diagonal(const Kernel& kernel, const double* a, std::size_t m, std::size_t d, double* out);

// W is n by n row-major; only its upper triangle (W[i * n + j], j >= i) is read, so a symmetric W
// need not be complete.
std::vector<double> contract_gradient(const Kernel& kernel, const double* x, std::size_t n, std::size_t d,
                                      const double* W);

}  // namespace gpprobe
