#include "gpprobe/explain/lime.h"

#include <cmath>
#include <string>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "gpprobe/common/random_stream.h"

#include "common/input_checks.h"

namespace gpprobe {

std::vector<std::uint8_t> lime_samples(std::size_t samples, std::size_t k, std::uint64_t seed) {
  std::vector<std::uint8_t> z(samples * k, 1);
  RandomStream stream(seed);
  for (std::size_t s = 1; s < samples; ++s)
    for (std::size_t j = 0; j < k; ++j) z[s * k + j] = std::uint8_t(stream.index(2));
  return z;
}

Result<LimeExplanation> lime_fit(const std::vector<std::uint8_t>& samples, std::size_t k,
                                 const std::vector<double>& outputs, double kernel_width, double ridge) {
  const std::size_t n = outputs.size();
  if (k == 0) return Status(StatusCode::invalid_argument, "LIME needs at least one feature to switch");
  if (n < 2) return Status(StatusCode::invalid_argument, "LIME needs at least 2 samples, got " + std::to_string(n));
  if (samples.size() != n * k) {
    return Status(StatusCode::dimension_mismatch, "LIME's samples hold " + count_of(samples.size(), "value") + "; " +
                                                      std::to_string(n) + " outputs of " + count_of(k, "feature") +
                                                      " need " + std::to_string(n * k));
  }
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (samples[i] > 1) {
      return Status(StatusCode::invalid_argument, "LIME's sample " + std::to_string(i / k) + ", feature " +
                                                      std::to_string(i % k) + " is " + std::to_string(samples[i]) +
                                                      "; samples are 0 or 1");
    }
  }
  GPPROBE_RETURN_IF_ERROR(check_finite_values(outputs.data(), n, "the model's outputs"));
  if (!std::isfinite(kernel_width) || !(kernel_width > 0.0)) {
    return Status(StatusCode::invalid_argument,
                  "the kernel width must be a finite number > 0, got " + number_text(kernel_width));
  }
  if (!std::isfinite(ridge) || !(ridge > 0.0)) {
    return Status(StatusCode::invalid_argument,
                  "the ridge penalty must be a finite number > 0, got " + number_text(ridge));
  }
  using Eigen::Index;
  const Index N = Index(n), K = Index(k);
  Eigen::MatrixXd Z(N, K);
  Eigen::VectorXd y(N), w(N);
  for (Index s = 0; s < N; ++s) {
    double off = 0.0;
    for (Index j = 0; j < K; ++j) {
      Z(s, j) = double(samples[std::size_t(s * K + j)]);
      off += 1.0 - Z(s, j);
    }
    // sqrt(exp(-D^2 / sigma^2)), D^2 = the number of features switched off.
    w[s] = std::sqrt(std::exp(-off / (kernel_width * kernel_width)));
    y[s] = outputs[std::size_t(s)];
  }
  const double total = w.sum();
  const Eigen::RowVectorXd z_mean = (w.transpose() * Z) / total;
  const double y_mean = w.dot(y) / total;
  const Eigen::MatrixXd Zc = Z.rowwise() - z_mean;
  const Eigen::VectorXd yc = y.array() - y_mean;
  Eigen::MatrixXd A = Zc.transpose() * w.asDiagonal() * Zc;
  A.diagonal().array() += ridge;
  const Eigen::VectorXd b = Zc.transpose() * (w.array() * yc.array()).matrix();
  const Eigen::LLT<Eigen::MatrixXd> llt(A);
  if (llt.info() != Eigen::Success) {
    return Status(StatusCode::numerical_failure, "LIME's ridge system did not factorise");
  }
  const Eigen::VectorXd beta = llt.solve(b);

  LimeExplanation out;
  out.coefficients.assign(beta.data(), beta.data() + K);
  out.intercept = y_mean - z_mean.dot(beta);
  out.kernel_width = kernel_width;
  out.local_prediction = out.intercept + beta.sum();
  const Eigen::VectorXd residual = y - ((Z * beta).array() + out.intercept).matrix();
  const double unexplained = w.dot(residual.cwiseProduct(residual)), spread = w.dot(yc.cwiseProduct(yc));
  // R^2 as scikit-learn scores it: 1 for a perfect fit, and 0 (not NaN) for constant outputs fitted exactly.
  out.score = spread > 0.0 ? 1.0 - unexplained / spread : (unexplained == 0.0 ? 1.0 : 0.0);
  return out;
}

Result<LimeExplanation> lime_explain(const ScalarOutput& output, const std::vector<double>& point,
                                     const LimeOptions& options) {
  const std::size_t d = output.dimension();
  if (point.size() != d) {
    return Status(StatusCode::dimension_mismatch, "the point has " + count_of(point.size(), "coordinate") +
                                                      ", the model's inputs have " + count_of(d, "column"));
  }
  GPPROBE_RETURN_IF_ERROR(check_finite_values(point.data(), d, "the point"));
  if (options.baseline.size() != d) {
    return Status(StatusCode::dimension_mismatch, "the baseline has " + count_of(options.baseline.size(), "value") +
                                                      ", the point has " + count_of(d, "coordinate"));
  }
  GPPROBE_RETURN_IF_ERROR(check_finite_values(options.baseline.data(), d, "the baseline"));
  if (options.samples < 2) {
    return Status(StatusCode::invalid_argument,
                  "LIME needs at least 2 samples, got " + std::to_string(options.samples));
  }
  std::vector<std::size_t> dims = options.dims;
  GPPROBE_RETURN_IF_ERROR(check_coordinates(
      &dims, d, "the point has " + count_of(d, "coordinate") + " (0 to " + std::to_string(d == 0 ? 0 : d - 1) + ")"));
  const std::size_t k = dims.size(), n = options.samples;
  const double width = options.kernel_width == 0.0 ? 0.75 * std::sqrt(double(k)) : options.kernel_width;
  const std::vector<std::uint8_t> z = lime_samples(n, k, options.seed);
  std::vector<double> inputs(n * d);
  for (std::size_t s = 0; s < n; ++s) {
    double* x = inputs.data() + s * d;
    std::copy(point.begin(), point.end(), x);
    for (std::size_t j = 0; j < k; ++j)
      if (z[s * k + j] == 0) x[dims[j]] = options.baseline[dims[j]];
  }
  std::vector<double> y(n);
  GPPROBE_RETURN_IF_ERROR(output.values(MatrixView(inputs.data(), n, d), y.data()));
  Result<LimeExplanation> fit = lime_fit(z, k, y, width, options.ridge);
  if (!fit.ok()) return fit.status();
  fit.value().features = dims;
  return fit;
}

std::vector<double> lime_slopes(const LimeExplanation& lime, const std::vector<double>& point,
                                const std::vector<double>& baseline) {
  std::vector<double> slopes(lime.features.size(), 0.0);
  for (std::size_t j = 0; j < slopes.size(); ++j) {
    const std::size_t f = lime.features[j];
    const double step = point[f] - baseline[f];
    if (step != 0.0) slopes[j] = lime.coefficients[j] / step;
  }
  return slopes;
}

}  // namespace gpprobe
