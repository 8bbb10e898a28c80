// Exact GP regression with a constant mean and Gaussian noise: the solver object owns the Cholesky
// factor and alpha, fitted once and reused for every prediction (GPflow style). Sources: Pelz, "Gaussian Process
// Inference" (lecture notes); Butler et al., "Trustworthy Prediction with Gaussian Process Knowledge Scores".
//
//   y = f(x) + e,   f ~ GP(mean, k),   e ~ N(0, noise)          (Pelz, lecture notes; Butler et al. eq. 1-8)
//   K_y = K(X, X) + noise I = L L',   alpha = K_y^-1 (y - mean)
//   at a test point x*, with k* = k(X, x*), v = L^-1 k*:
//     latent mean          m(x*) = mean + k*' alpha
//     latent variance      s2(x*) = k(x*, x*) - |v|^2                       (epistemic)
//     observation variance s2(x*) + noise                                   (epistemic + aleatoric)
//     95% bands            m -/+ 1.959964 sqrt(variance), for each of the two variances
//     knowledge score      G(x*) = 1 - s2(x*) / k(x*, x*)  in [0, 1]        (Butler et al. eq. 10-11)
//
// The mean is a fixed constant, not learned: NaN (the default) means the average of y. (scikit-learn
// with normalize_y=False fitted to y - mean gives the same numbers.)
//
//   x  n by d training inputs     y  n targets     test inputs  m by d
// Predictions run in blocks of 256 test points with a precomputed L^-1, so memory stays O(n^2 + 256 n)
// for any m; progress is reported after each block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <Eigen/Core>

#include "gpprobe/common/fields.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"

namespace gpprobe {

// z of the central 95% interval of a normal distribution.
constexpr double kBand95 = 1.959963984540054;

// Caller-owned outputs of length m; any pointer may be null to skip it.
struct PredictionColumns {
  double* mean = nullptr;
  double* latent_variance = nullptr;
  double* observation_variance = nullptr;
  double* knowledge = nullptr;
  double* latent_lower = nullptr;  // mean - 1.96 sqrt(latent_variance)
  double* latent_upper = nullptr;
  double* observation_lower = nullptr;  // mean - 1.96 sqrt(observation_variance)
  double* observation_upper = nullptr;
};

// The same eight columns, owned (for results that keep their predictions, e.g. a grid for a plot).
struct Predictions {
  std::vector<double> mean, latent_variance, observation_variance, knowledge, latent_lower, latent_upper,
      observation_lower, observation_upper;

  // m points: every column m zeros.
  static Predictions sized(std::size_t m) {
    const std::vector<double> zeros(m);
    return {zeros, zeros, zeros, zeros, zeros, zeros, zeros, zeros};
  }
  PredictionColumns columns() {
    return {mean.data(),         latent_variance.data(), observation_variance.data(), knowledge.data(),
            latent_lower.data(), latent_upper.data(),    observation_lower.data(),    observation_upper.data()};
  }
};
GPPROBE_DESCRIBE(Predictions, "PredictionValue", GPPROBE_FIELD(mean), GPPROBE_FIELD(latent_variance),
                 GPPROBE_FIELD(observation_variance), GPPROBE_FIELD(knowledge), GPPROBE_FIELD(latent_lower),
                 GPPROBE_FIELD(latent_upper), GPPROBE_FIELD(observation_lower), GPPROBE_FIELD(observation_upper));

// Rounding can make k(x*,x*) - |v|^2 a tiny negative number where the data pin f down; such values
// are set to 0 and counted here, never hidden.
struct PredictionReport {
  std::size_t clamped_variances = 0;
  double most_negative_variance = 0.0;
};

// Joint draws of f at the test points; `jitter` is what had to be added to the covariance diagonal
// for its Cholesky factor to exist (0 when none was needed).
struct PosteriorSamples {
  RowMatrix values;  // count by m
  double jitter = 0.0;
};

// At most this many test points for joint samples (their m by m covariance is factorised).
constexpr std::size_t kMaxSamplePoints = 4000;

class GpRegression {
 public:
  static Result<GpRegression> fit(const MatrixView& x, const double* y, std::size_t n, const Kernel& kernel,
                                  double noise_variance, double mean = std::numeric_limits<double>::quiet_NaN());

  Status predict(const MatrixView& test, const PredictionColumns& out, const ProgressCallback& progress = {},
                 PredictionReport* report = nullptr) const;

  // `count` joint posterior samples of the latent f at the test points, seeded (RandomStream).
  Result<PosteriorSamples> sample(const MatrixView& test, std::size_t count, std::uint64_t seed) const;

  double log_marginal_likelihood() const { return log_marginal_likelihood_; }
  const Kernel& kernel() const { return kernel_; }
  double noise_variance() const { return noise_variance_; }
  double mean() const { return mean_; }
  std::size_t size() const { return std::size_t(x_.rows()); }
  std::size_t dimension() const { return std::size_t(x_.cols()); }

 private:
  GpRegression(Kernel kernel) : kernel_(std::move(kernel)) {}

  Kernel kernel_;
  double noise_variance_ = 0.0;
  double mean_ = 0.0;
  double log_marginal_likelihood_ = 0.0;
  RowMatrix x_;            // n by d
  Eigen::VectorXd alpha_;  // n
  RowMatrix L_inverse_;    // n by n, lower: v = L^-1 k* as a row product
};

// `count` joint samples of the prior GP(mean, k) at the test points (what the user sees before fitting).
Result<PosteriorSamples> sample_prior(const Kernel& kernel, double mean, const MatrixView& test, std::size_t count,
                                      std::uint64_t seed);

// invalid_argument / dimension_mismatch / non_finite naming "training inputs", "training targets" or
// the noise variance; shared by the fit and the hyperparameter optimiser.
Status check_training_data(const MatrixView& x, const double* y, std::size_t n);

// invalid_argument / dimension_mismatch / non_finite naming "test inputs" against d training columns
// ("test inputs have 3 columns, training inputs have 2 columns"); shared with GP classification.
Status check_test_inputs(const MatrixView& test, std::size_t d);

}  // namespace gpprobe
