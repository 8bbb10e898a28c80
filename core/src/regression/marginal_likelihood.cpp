#include "gpprobe/regression/marginal_likelihood.h"

#include <cmath>
#include <sstream>

#include "gpprobe/kernels/kernel_matrix.h"
#include "gpprobe/linalg/blocked_cholesky.h"

#include "common/input_checks.h"

namespace gpprobe {

namespace {
constexpr double kLogTwoPi = 1.8378770664093453;
}

Result<KernelFactor> factor_kernel(const Kernel& kernel, double noise_variance, const double* x, std::size_t n,
                                   std::size_t d, const Eigen::VectorXd& residual) {
  KernelFactor f;
  f.L = kernel_matrix(kernel, x, n, d);
  // Inputs near 1e308 overflow a kernel (the linear kernel's a'b, the periodic kernel's sin of +Inf):
  // say so, rather than let the NaN pass for a matrix that is "not positive definite".
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t i = j; i < n; ++i) {
      const double k = f.L(Eigen::Index(i), Eigen::Index(j));
      if (std::isfinite(k)) continue;
      return Status(StatusCode::numerical_failure, "training inputs: the kernel " + kernel.describe() +
                                                       " is not finite between rows " + std::to_string(j) + " and " +
                                                       std::to_string(i) + " (inputs too large for it)");
    }
  }
  f.L.diagonal().array() += noise_variance;
  std::ostringstream what;
  what << "the kernel matrix K + noise I (kernel " << kernel.describe() << ", noise " << noise_variance << ")";
  GPPROBE_RETURN_IF_ERROR(cholesky_in_place(f.L.data(), n, what.str()));
  // We want alpha = K_y^-1 r (two triangular solves), not L^-1 r.
  f.alpha = f.L.triangularView<Eigen::Lower>().solve(residual);
  const double fit = f.alpha.squaredNorm();  // r' K_y^-1 r = |L^-1 r|^2
  f.L.triangularView<Eigen::Lower>().transpose().solveInPlace(f.alpha);
  const double log_det = 2.0 * f.L.diagonal().array().log().sum();
  f.log_marginal_likelihood = -0.5 * fit - 0.5 * log_det - 0.5 * double(n) * kLogTwoPi;
  if (!std::isfinite(f.log_marginal_likelihood) || !f.alpha.allFinite()) {
    return Status(StatusCode::numerical_failure,
                  "training targets: the log marginal likelihood is not finite (r' K_y^-1 r overflows): the targets "
                  "lie too far from the mean for double precision");
  }
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

  // W = alpha alpha' - K_y^-1, its upper triangle only (all the contraction reads).
  RowMatrix W{Eigen::Index(n), Eigen::Index(n)};
  invert_lower_transposed(f.L.data(), n, W.data());
  gram_of_upper_in_place(W.data(), n, false);
  double trace = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    double* row = W.data() + i * n;
    for (std::size_t j = i; j < n; ++j) row[j] = f.alpha[Eigen::Index(i)] * f.alpha[Eigen::Index(j)] - row[j];
    trace += row[i];
  }
  out.gradient = contract_gradient(kernel, x, n, d, W.data());
  for (double& g : out.gradient) g *= 0.5;
  out.gradient.push_back(0.5 * noise_variance * trace);
  for (double g : out.gradient) {
    if (!std::isfinite(g)) {
      return Status(StatusCode::numerical_failure,
                    "the gradient of the log marginal likelihood is not finite (kernel " + kernel.describe() +
                        ", noise " + number_text(noise_variance, 6) + ")");
    }
  }
  return out;
}

}  // namespace gpprobe
