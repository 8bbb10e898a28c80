#include "gpprobe/marginal_likelihood.h"

#include <cmath>
#include <sstream>

#include "gpprobe/cholesky_update.h"
#include "gpprobe/kernel_matrix.h"

namespace gpprobe {

namespace {
constexpr double kLogTwoPi = 1.8378770664093453;
}

Result<KernelFactor> factor_kernel(const Kernel& kernel, double noise_variance, const double* x, std::size_t n,
                                   std::size_t d, const Eigen::VectorXd& residual) {
  Eigen::MatrixXd K = kernel_matrix(kernel, x, n, d);
  K.diagonal().array() += noise_variance;
  KernelFactor f;
  std::ostringstream what;
  what << "the kernel matrix K + noise I (kernel " << kernel.describe() << ", noise " << noise_variance << ")";
  GPPROBE_RETURN_IF_ERROR(cholesky_factor(K, &f.L, what.str()));
  // We want alpha = K_y^-1 r (two triangular solves), not L^-1 r.
  f.alpha = f.L.triangularView<Eigen::Lower>().solve(residual);
  const double fit = f.alpha.squaredNorm();  // r' K_y^-1 r = |L^-1 r|^2
  f.L.triangularView<Eigen::Lower>().transpose().solveInPlace(f.alpha);
  const double log_det = 2.0 * f.L.diagonal().array().log().sum();
  f.log_marginal_likelihood = -0.5 * fit - 0.5 * log_det - 0.5 * double(n) * kLogTwoPi;
  return f;
}

Result<MarginalLikelihood> log_marginal_likelihood(const Kernel& kernel, double noise_variance, const double* x,
                                                   std::size_t n, std::size_t d, const Eigen::VectorXd& residual,
                                                   bool with_gradient) {
  Result<KernelFactor> factor = factor_kernel(kernel, noise_variance, x, n, d, residual);
  if (!factor.ok()) return factor.status();
  const KernelFactor& f = factor.value();
  MarginalLikelihood out;
  out.value = f.log_marginal_likelihood;
  if (!with_gradient) return out;

  // W = alpha alpha' - K_y^-1 (symmetric, so row-major output serves as column-major).
  Eigen::MatrixXd W{Eigen::Index(n), Eigen::Index(n)};
  inverse_from_cholesky(f.L, W.data());
  W = f.alpha * f.alpha.transpose() - W;
  out.gradient = contract_gradient(kernel, x, n, d, W);
  for (double& g : out.gradient) g *= 0.5;
  out.gradient.push_back(0.5 * noise_variance * W.trace());
  return out;
}

}  // namespace gpprobe
