#include "gpprobe/regression/gp_regression.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <vector>

#include <Eigen/Cholesky>

#include "gpprobe/common/random_stream.h"
#include "gpprobe/kernels/kernel_matrix.h"
#include "gpprobe/linalg/blocked_cholesky.h"
#include "gpprobe/linalg/row_products.h"
#include "gpprobe/regression/marginal_likelihood.h"

namespace gpprobe {

namespace {

constexpr std::size_t kGpRegressionBlockRows = 256;

std::string number(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// Joint normal draws mean + C z with C C' = cov + jitter I; the jitter climbs from 0 by decades
// (relative to the mean variance) until the factor exists, and is reported.
Result<PosteriorSamples> draw_joint(const Eigen::VectorXd& mean, const Eigen::MatrixXd& cov, std::size_t count,
                                    std::uint64_t seed, const char* what) {
  const Eigen::Index m = mean.size();
  if (!mean.allFinite() || !cov.allFinite()) {
    return Status(StatusCode::numerical_failure,
                  std::string("test inputs: the ") + what +
                      " mean or covariance is not finite (inputs too large for the kernel)");
  }
  const double scale = std::max(cov.diagonal().mean(), 1e-300);
  PosteriorSamples out;
  Eigen::LLT<Eigen::MatrixXd> llt;
  bool factored = false;
  for (double relative = 0.0; relative <= 1e-6 * 1.001; relative = relative == 0.0 ? 1e-12 : relative * 10.0) {
    out.jitter = relative * scale;
    Eigen::MatrixXd shifted = cov;
    shifted.diagonal().array() += out.jitter;
    llt.compute(shifted);
    // Eigen only refuses pivots <= 0; a tiny positive one (a covariance that cancelled to rounding noise)
    // can leave +Inf below it, which is no factor either.
    if (llt.info() == Eigen::Success && llt.matrixLLT().allFinite()) {
      factored = true;
      break;
    }
  }
  if (!factored) {
    return Status(StatusCode::numerical_failure,
                  std::string("the ") + what + " covariance of " + count_of(std::size_t(m), "test point") +
                      " is not positive definite even with jitter 1e-6 times its mean variance");
  }
  RandomStream rng(seed);
  RowMatrix z(Eigen::Index(count), m);
  for (Eigen::Index i = 0; i < z.size(); ++i) z.data()[i] = rng.normal();
  out.values = z * llt.matrixL().transpose();
  out.values.rowwise() += mean.transpose();
  if (!out.values.allFinite()) {
    return Status(StatusCode::numerical_failure, std::string("the ") + what + " samples overflow (covariance up to " +
                                                     number(cov.diagonal().maxCoeff()) + ")");
  }
  return out;
}

// numerical_failure for test point `row` when its kernel values overflowed (inputs near 1e308).
Status check_prediction(std::size_t row, double prior, double mean, double explained) {
  if (std::isfinite(prior) && std::isfinite(mean) && std::isfinite(explained)) return Status::success();
  return Status(StatusCode::numerical_failure,
                "test inputs row " + std::to_string(row) +
                    ": the prediction is not finite (the kernel overflows at inputs this large)");
}

Status check_sample_request(const MatrixView& test, std::size_t count) {
  if (count == 0) return Status(StatusCode::invalid_argument, "the number of samples must be at least 1");
  if (test.rows() > kMaxSamplePoints) {
    return Status(StatusCode::invalid_argument, "joint samples factorise an m by m covariance: at most " +
                                                    std::to_string(kMaxSamplePoints) + " test points, got " +
                                                    std::to_string(test.rows()));
  }
  return Status::success();
}

}  // namespace

Status check_test_inputs(const MatrixView& test, std::size_t d) {
  if (test.rows() == 0) return Status(StatusCode::invalid_argument, "test inputs are empty (0 rows)");
  if (test.cols() != d) {
    return Status(StatusCode::dimension_mismatch, "test inputs have " + count_of(test.cols(), "column") +
                                                      ", training inputs have " + count_of(d, "column"));
  }
  return check_finite(test, "test inputs");
}

Status check_training_data(const MatrixView& x, const double* y, std::size_t n) {
  if (x.rows() == 0) return Status(StatusCode::invalid_argument, "training inputs are empty (0 rows)");
  if (x.cols() == 0) return Status(StatusCode::invalid_argument, "training inputs have 0 columns");
  if (n != x.rows()) {
    return Status(StatusCode::dimension_mismatch, "training targets have " + count_of(n, "value") +
                                                      ", training inputs have " + count_of(x.rows(), "row"));
  }
  GPPROBE_RETURN_IF_ERROR(check_finite(x, "training inputs"));
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(y[i])) {
      return Status(StatusCode::non_finite, "training target " + std::to_string(i) + " is " +
                                                (std::isnan(y[i]) ? "NaN"
                                                 : y[i] > 0       ? "+Inf"
                                                                  : "-Inf"));
    }
  }
  return Status::success();
}

Result<GpRegression> GpRegression::fit(const MatrixView& x, const double* y, std::size_t n, const Kernel& kernel,
                                       double noise_variance, double mean) {
  GPPROBE_RETURN_IF_ERROR(check_training_data(x, y, n));
  GPPROBE_RETURN_IF_ERROR(kernel.check(x.cols()));
  if (!(std::isfinite(noise_variance) && noise_variance >= 0.0)) {
    return Status(StatusCode::invalid_argument,
                  "noise variance must be a finite number >= 0, got " + number(noise_variance));
  }
  if (std::isinf(mean))
    return Status(StatusCode::invalid_argument, "mean must be finite (or NaN for the average of y)");

  GpRegression gp(kernel);
  gp.noise_variance_ = noise_variance;
  const Eigen::Map<const Eigen::VectorXd> targets(y, Eigen::Index(n));
  // A plain left-to-right sum: Eigen's vectorised mean depends on the buffer's alignment, so the same
  // targets at another address could round differently in the last bit.
  gp.mean_ = std::isnan(mean) ? std::accumulate(y, y + n, 0.0) / double(n) : mean;
  gp.x_.resize(Eigen::Index(n), Eigen::Index(x.cols()));
  x.copy_rows(0, n, gp.x_.data());
  const Eigen::VectorXd residual = targets.array() - gp.mean_;
  Result<KernelFactor> factor = factor_kernel(kernel, noise_variance, gp.x_.data(), n, x.cols(), residual);
  if (!factor.ok()) return factor.status();
  gp.alpha_ = std::move(factor.value().alpha);
  gp.log_marginal_likelihood_ = factor.value().log_marginal_likelihood;
  // L^-1 once, so each block of test points is row products (SIMD under wasm) instead of a
  // triangular solve per block. The factor's storage is reused for it: L is not needed any more.
  RowMatrix U{Eigen::Index(n), Eigen::Index(n)};
  invert_lower_transposed(factor.value().L.data(), n, U.data());
  gp.L_inverse_ = std::move(factor.value().L);
  gp.L_inverse_.noalias() = U.transpose();
  return gp;
}

Status GpRegression::predict(const MatrixView& test, const PredictionColumns& out, const ProgressCallback& progress,
                             PredictionReport* report) const {
  const std::size_t n = size(), d = dimension();
  GPPROBE_RETURN_IF_ERROR(check_test_inputs(test, d));
  const std::size_t m = test.rows();
  PredictionReport local;
  std::vector<double> a(kGpRegressionBlockRows * d), Ks(kGpRegressionBlockRows * n), V(kGpRegressionBlockRows * n);
  std::vector<double> mean(kGpRegressionBlockRows), prior(kGpRegressionBlockRows), explained(kGpRegressionBlockRows);
  for (std::size_t first = 0; first < m; first += kGpRegressionBlockRows) {
    const std::size_t count = std::min(kGpRegressionBlockRows, m - first);
    test.copy_rows(first, count, a.data());
    cross_kernel_matrix(kernel_, a.data(), count, x_.data(), n, d, Ks.data());
    kernel_diagonal(kernel_, a.data(), count, d, prior.data());
    multiply_vector(Ks.data(), count, n, alpha_.data(), mean.data());
    multiply_lower_transposed(Ks.data(), count, L_inverse_.data(), n, V.data());  // rows v' = (L^-1 k*)'
    rowwise_dot(V.data(), V.data(), count, n, explained.data());
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t q = first + i;
      const double mu = mean_ + mean[i];
      GPPROBE_RETURN_IF_ERROR(check_prediction(q, prior[i], mu, explained[i]));
      double s2 = prior[i] - explained[i];
      if (s2 < 0.0) {
        ++local.clamped_variances;
        local.most_negative_variance = std::min(local.most_negative_variance, s2);
        s2 = 0.0;
      }
      const double total = s2 + noise_variance_;
      if (out.mean) out.mean[q] = mu;
      if (out.latent_variance) out.latent_variance[q] = s2;
      if (out.observation_variance) out.observation_variance[q] = total;
      // With k(x*, x*) = 0 the prior already knows f(x*) exactly: nothing was left to learn.
      if (out.knowledge) out.knowledge[q] = prior[i] > 0.0 ? 1.0 - s2 / prior[i] : 1.0;
      if (out.latent_lower) out.latent_lower[q] = mu - kBand95 * std::sqrt(s2);
      if (out.latent_upper) out.latent_upper[q] = mu + kBand95 * std::sqrt(s2);
      if (out.observation_lower) out.observation_lower[q] = mu - kBand95 * std::sqrt(total);
      if (out.observation_upper) out.observation_upper[q] = mu + kBand95 * std::sqrt(total);
    }
    if (!report_progress(progress, first + count, m)) {
      return Status(StatusCode::cancelled,
                    "prediction cancelled after " + count_of(first + count, "test point") + " of " + std::to_string(m));
    }
  }
  if (report) *report = local;
  return Status::success();
}

Result<PosteriorSamples> GpRegression::sample(const MatrixView& test, std::size_t count, std::uint64_t seed) const {
  const std::size_t n = size(), d = dimension();
  GPPROBE_RETURN_IF_ERROR(check_test_inputs(test, d));
  GPPROBE_RETURN_IF_ERROR(check_sample_request(test, count));
  const std::size_t m = test.rows();
  const Eigen::Index rows = Eigen::Index(m);
  RowMatrix a(rows, Eigen::Index(d)), Ks(rows, Eigen::Index(n)), V(rows, Eigen::Index(n));
  test.copy_rows(0, m, a.data());
  cross_kernel_matrix(kernel_, a.data(), m, x_.data(), n, d, Ks.data());
  multiply_lower_transposed(Ks.data(), m, L_inverse_.data(), n, V.data());
  Eigen::MatrixXd cov = kernel_matrix(kernel_, a.data(), m, d);
  Eigen::MatrixXd VVt(rows, rows);
  multiply_transposed(V.data(), m, V.data(), m, n, VVt.data());  // symmetric: storage order is moot
  cov -= VVt;
  Eigen::VectorXd mean = Ks * alpha_;
  mean.array() += mean_;
  return draw_joint(mean, cov, count, seed, "posterior");
}

Result<PosteriorSamples> sample_prior(const Kernel& kernel, double mean, const MatrixView& test, std::size_t count,
                                      std::uint64_t seed) {
  GPPROBE_RETURN_IF_ERROR(kernel.check(test.cols()));
  GPPROBE_RETURN_IF_ERROR(check_test_inputs(test, test.cols()));
  GPPROBE_RETURN_IF_ERROR(check_sample_request(test, count));
  if (!std::isfinite(mean)) return Status(StatusCode::invalid_argument, "mean must be finite");
  RowMatrix a(Eigen::Index(test.rows()), Eigen::Index(test.cols()));
  test.copy_rows(0, test.rows(), a.data());
  const Eigen::MatrixXd cov = kernel_matrix(kernel, a.data(), test.rows(), test.cols());
  return draw_joint(Eigen::VectorXd::Constant(cov.rows(), mean), cov, count, seed, "prior");
}

}  // namespace gpprobe
