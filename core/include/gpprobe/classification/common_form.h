// The common form of every fitted binary GP classifier (docs/design/classification.md, "Model"): Laplace and EP both reduce to
//
//   latent mean      mu(x)    = sum_i alpha_i k(x, x_i)                 = k(x)' alpha
//   latent variance  Sigma(x) = s2 - k(x)' Q k(x)
//   probability      pi(x)    = p(y = +1 | x) = E[p(+1 | f)], f ~ N(mu(x), Sigma(x))   (probability.h)
//
// with the squared-exponential ARD kernel
//
//   k(x, x') = s2 exp(-sum_j (x_j - x'_j)^2 / (2 l_j^2)) = s2 exp(-z(x, x')),  k(x, x) = s2
//
// and Q = (K + W^-1)^-1 = W^1/2 B^-1 W^1/2 (B = I + W^1/2 K W^1/2; for EP, W = the site precisions).
// This is exactly what the robustness bounds of docs/design/certify.md work on: everything is here, nothing refers back
// to the fitter.
//
//   inputs           n by d   the training inputs x_i (row-major)
//   signal_variance  s2 > 0
//   length_scales    d values l_j > 0
//   likelihood       probit or logistic (decides pi from mu and Sigma)
//   alpha            n        the mean weights
//   Q                n by n   symmetric positive semi-definite (both triangles stored)
//   variance_factor  n by n   lower triangular M = L^-1 diag(W^1/2) with Q = M'M, so that
//                             Sigma(x) = s2 - |M k(x)|^2 costs n^2/2 per point instead of n^2
//
// Evaluation runs in blocks of 256 points (memory O(n^2 + 256 n) for any number of points), with
// progress after each block. Rounding can make Sigma a tiny negative number where the data pin f down;
// such values are set to 0 and counted in the PredictionReport, never hidden.
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "gpprobe/classification/likelihood.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"
#include "gpprobe/regression/gp_regression.h"

namespace gpprobe {

// The SE-ARD kernel's hyperparameters; theta = [log s2, log l_1, ..., log l_d] is scikit-learn's
// order for ConstantKernel(s2) * RBF(l), which is also kernel() here.
struct SeArdKernel {
  double signal_variance = 1.0;
  std::vector<double> length_scales;  // d values (one value means the same for every dimension)

  // Kernel::constant(s2) * Kernel::rbf(length_scales), for the pair-wise machinery of kernel.h.
  Kernel kernel() const;
  // A copy with d length-scales (a single value repeated).
  SeArdKernel expanded(std::size_t d) const;
  // invalid_argument "signal variance must be a finite number > 0, got -1", "length-scale 2 must be a
  // finite number > 0, got 0"; dimension_mismatch "3 length-scales for 2 input columns".
  Status check(std::size_t d) const;
};

// Caller-owned outputs of length m; any pointer may be null to skip that column.
struct ClassifierColumns {
  double* latent_mean = nullptr;
  double* latent_variance = nullptr;
  double* probability = nullptr;
};

class ClassifierCommonForm {
 public:
  // Q is computed as M'M (n^3/3 flops). invalid_argument / dimension_mismatch when the sizes do not fit
  // or the kernel does not check for d = inputs.cols().
  static Result<ClassifierCommonForm> from_factor(RowMatrix inputs, SeArdKernel kernel, ClassifierLikelihood likelihood,
                                                  Eigen::VectorXd alpha, RowMatrix variance_factor);

  const RowMatrix& inputs() const { return inputs_; }
  double signal_variance() const { return kernel_.signal_variance; }
  const std::vector<double>& length_scales() const { return kernel_.length_scales; }
  const SeArdKernel& kernel() const { return kernel_; }
  ClassifierLikelihood likelihood() const { return likelihood_; }
  const Eigen::VectorXd& alpha() const { return alpha_; }
  const RowMatrix& Q() const { return Q_; }
  const RowMatrix& variance_factor() const { return factor_; }
  std::size_t size() const { return std::size_t(inputs_.rows()); }
  std::size_t dimension() const { return std::size_t(inputs_.cols()); }

  // mu, Sigma and pi at the m rows of `points` (m by d). Errors name "test inputs"; cancelled when
  // progress returns false.
  Status evaluate(const MatrixView& points, const ClassifierColumns& out, const ProgressCallback& progress = {},
                  PredictionReport* report = nullptr) const;

  // The same at one point x (d values), e.g. a candidate of a robustness search; no checks.
  struct Latent {
    double mean = 0.0;
    double variance = 0.0;  // clamped at 0
  };
  Latent latent(const double* x) const;
  double probability(const double* x) const;

 private:
  ClassifierCommonForm() = default;

  RowMatrix inputs_;
  SeArdKernel kernel_;
  Kernel pairwise_ = Kernel::constant(1.0);
  ClassifierLikelihood likelihood_ = ClassifierLikelihood::probit;
  Eigen::VectorXd alpha_;
  RowMatrix Q_;
  RowMatrix factor_;
};

}  // namespace gpprobe
