// Kernel matrices and the gradient contraction of the log marginal likelihood, from a Kernel value
// evaluated pair by pair. Points are rows of row-major arrays (n by d).
//
//   kernel_matrix        K_ij = k(x_i, x_j)                         n by n (symmetric: one triangle evaluated)
//   cross_kernel_matrix  K_ij = k(a_i, x_j)                         m by n, row-major
//   contract_gradient    out_p = sum_ij W_ij dK_ij/dtheta_p          W n by n symmetric, out P = parameter_count
//
// contract_gradient is what the marginal likelihood needs: with W = alpha alpha' - K^-1,
// dlog p/dtheta_p = 1/2 sum_ij W_ij dK_ij/dtheta_p, without ever storing the P derivative matrices.
//
// With the points' squared distances D2_ij = |x_i - x_j|^2 at hand (squared_distances: once per data
// set), the isotropic constant(c) * rbf(l) needs no O(n^2 d) work at each (c, l): K_ij =
// c exp(-D2_ij / (2 l^2)) with the exponentials four at a time, and its gradient contraction reads K and
// D2 (dK/dlog c = K, dK/dlog l = K D2 / l^2). The shared length-scale fit of the GPC probes evaluates
// the evidence at many (c, l) on one data set. The values equal the pair-by-pair ones to a few ulps
// (D2 / l^2 is not rounded as sum_j ((x_ij - x_kj) / l)^2 is).
#pragma once

#include <cstddef>
#include <vector>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/kernels/kernel.h"

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

// D2_ij = sum_k (x_ik - x_jk)^2, n by n, both triangles.
RowMatrix squared_distances(const double* x, std::size_t n, std::size_t d);

// The isotropic constant(c) * rbf(l) kernel's K from D2 (n by n, symmetric).
RowMatrix isotropic_rbf_matrix(double c, double l, const RowMatrix& D2);

// [sum_ij W_ij dK_ij/dlog c, sum_ij W_ij dK_ij/dlog l] for K = isotropic_rbf_matrix(c, l, D2); W's upper
// triangle is read, as contract_gradient reads it.
std::vector<double> contract_isotropic_rbf_gradient(double l, const RowMatrix& K, const RowMatrix& D2, const double* W);

}  // namespace gpprobe
