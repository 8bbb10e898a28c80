// The log marginal likelihood of exact GP regression and its gradient in log-parameters
// (Rasmussen & Williams eq. 2.30 and 5.9; docs/design/regression.md, "Hyperparameters"):
//
//   K_y = K + noise I = L L',   alpha = K_y^-1 r,   r = y - mean
//   log p(y | X, theta) = -1/2 r' alpha - sum_i log L_ii - n/2 log 2 pi
//   d log p / d theta_p = 1/2 tr((alpha alpha' - K_y^-1) dK_y/dtheta_p)
//
// theta = [kernel log-parameters (Kernel order)..., log noise]; dK_y/dlog noise = noise I.
// Equal to scikit-learn's GaussianProcessRegressor(kernel + WhiteKernel(noise), alpha=0,
// normalize_y=False).log_marginal_likelihood(theta, eval_gradient=True) on y - mean.
//
//   x         n by d, row-major          residual  n values, y - mean
//   returns   value and (when asked) gradient of size parameter_count + 1
//
// Cost: n^3/3 flops for L and, with the gradient, 2n^3/3 more for K_y^-1 (blocked_cholesky.h), plus
// one pass over the pairs for the contraction with dK/dtheta (kernel_matrix.h); no dK matrix is stored.
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"

namespace gpprobe {

// The Cholesky factor of K + noise I, alpha and the log marginal likelihood: what both the
// likelihood and a fitted regression need. numerical_failure when K + noise I is not positive definite
// (no jitter is added: the noise variance is the only diagonal term, and it is reported).
struct KernelFactor {
  RowMatrix L;            // n by n, lower (zeros above the diagonal)
  Eigen::VectorXd alpha;  // n
  double log_marginal_likelihood = 0.0;
};

Result<KernelFactor> factor_kernel(const Kernel& kernel, double noise_variance, const double* x, std::size_t n,
                                   std::size_t d, const Eigen::VectorXd& residual);

struct MarginalLikelihood {
  double value = 0.0;
  std::vector<double> gradient;  // empty unless asked for
};

Result<MarginalLikelihood> log_marginal_likelihood(const Kernel& kernel, double noise_variance, const double* x,
                                                   std::size_t n, std::size_t d, const Eigen::VectorXd& residual,
                                                   bool with_gradient);

}  // namespace gpprobe
