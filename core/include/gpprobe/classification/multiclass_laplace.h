// Multi-class GP classification: the softmax likelihood, C independent latent GPs (one SE-ARD kernel
// per class, or one shared), the Laplace approximation (Rasmussen & Williams Alg. 3.3 / 3.4, eq. 3.43 /
// 3.44, as settled in docs/design/multiclass.md):
//
//   model       p(y = c | f) = softmax_c(f),  f = (f^0 .. f^{C-1}),  f^c ~ GP(0, k_c) independent a priori
//   mode        Newton in the correction form a += (I + W K)^-1 (onehot(y) - pi - a), f = K a, from f = 0
//               (or from a warm start a0, f = K a0, or one book-form Newton step from a nearby mode f0,
//               whichever has the higher Psi),
//               with C + 1 Cholesky factors of n by n per step (never one of Cn by Cn):
//                 L_c = chol(I + D_c^1/2 K_c D_c^1/2), E_c = D_c^1/2 (I + D_c^1/2 K_c D_c^1/2)^-1 D_c^1/2,
//                 M = chol(sum_c E_c)
//               (W = blockdiag_i(diag(pi_i) - pi_i pi_i') is singular: W^-1 is never formed). A step that
//               lowers Psi = -1/2 a'f + y'f - sum_i logsumexp(f_i) is halved. Stop when
//               max|delta f| <= 1e-13 (1 + max|f|), or, once Newton has reached the rounding floor of a
//               large problem, when a step of at most 1e-10 (1 + max|f|) no longer halves the previous one.
//   weights     alpha = onehot(y) - pi^ (= K^-1 f^ at the mode; checked: |f^ - K alpha|_inf <= 1e-10 (1 + max|f^|))
//   evidence    log q(y|X) = -1/2 alpha'f^ + sum_i f^_i^{y_i} - sum_i logsumexp(f^_i)
//                            - sum_c sum_i log L_c,ii - sum_i log M_ii
//               (the last sum is missing from Alg. 3.3 line 16 as printed; it is -1/2 log|sum_c E_c|)
//   gradient    d log q / d theta_c, theta_c = [log s2_c, log l_c1 .. l_cd], the implicit dependence of f^
//               included (R_w, V_i, s and the correction t_c of docs/design/multiclass.md), one contraction
//               per class: sum_ij G_ij dK_c,ij with G = 1/2 (alpha_c alpha_c' - R_w,cc + t_c alpha_c' + alpha_c t_c')
//   prediction  mu_c(x) = k_c(x)' alpha_c,  Sigma_cc'(x) = delta_cc' (s2_c - k_c' E_c k_c) + b_c'(sum E)^-1 b_c',
//               b_c = E_c k_c: the full C by C latent covariance (cross-class terms included)
//
//   data     n training points, labels 0 .. C-1 (C >= 2). A class with no training point is allowed: its
//            latent is pushed below the others wherever there are data (its probability there is below 1/C)
//            and returns to the prior far from them (with a shared kernel, every class is 1/C there).
//   kernels  C SeArdKernels (one per class, in class order), or 1 (shared by every class); each with 1 or
//            d length-scales (expanded to d).
// Cost per Newton step about (C + 1/3) n^3 flops; the gradient adds about 5 C n^3 (then O(n^2 d) for all d + 1
// hyperparameters of a class, or once for the tied gradient alone); prediction O(C n^2) per point. Every
// n^3 and n^2 m step runs through the SIMD primitives (blocked_cholesky.h, row_products.h, the row-wise
// triangular solve of core/src/linalg/triangular_solve.h), never Eigen's scalar wasm path.
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "gpprobe/classification/common_form.h"
#include "gpprobe/classification/multiclass_probability.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

struct MulticlassTrainingData {
  RowMatrix x;                      // n by d
  std::vector<std::size_t> labels;  // n values in 0 .. classes - 1
  std::size_t classes = 0;          // C >= 2

  std::size_t size() const { return std::size_t(x.rows()); }
  std::size_t dimension() const { return std::size_t(x.cols()); }
};

// invalid_argument "the number of classes must be at least 2, got 1", "training inputs are empty (0 rows)",
// "training label 3 is 5; labels must be integers 0 to 2 (3 classes)", "training label 1 is 0.5; labels
// must be integers 0 to 2 (3 classes)"; non_finite "training inputs row 2, column 0 is NaN", "training
// label 4 is NaN"; dimension_mismatch "training labels have 3 values, training inputs have 4 rows".
Result<MulticlassTrainingData> make_multiclass_training_data(const MatrixView& x, const double* labels, std::size_t n,
                                                             std::size_t classes);

struct MulticlassOptions {
  std::size_t max_iterations = 100;  // Newton steps
  bool with_gradient = true;
  // With one kernel shared by every class: only the tied gradient (what the tied hyperparameter fit needs),
  // one contraction of sum_c G_c with dK instead of C; gradient() is then empty, tied_gradient() holds it.
  // Ignored when the classes' kernels differ.
  bool tied_gradient_only = false;
  // A warm start (n by C, e.g. the alpha of a fit at nearby hyperparameters): Newton starts from a = this,
  // f = K a when that point's Psi is finite and above Psi(f = a = 0), else from 0. Psi is strictly concave,
  // so the mode is the same either way; only the number of Newton steps changes.
  const RowMatrix* start_a = nullptr;
  // A mode f^ at nearby hyperparameters (n by C): one Newton step from it (in the form that needs f only),
  // kept when its Psi is above that of the start above. The same mode, fewer steps when f^ moves less
  // than K a0 with the hyperparameters. With start_f Newton also stops one step sooner once the last two
  // full steps (the step from f^ the first of them; each at most 1e-6 (1 + max|f|), the last below half
  // the one before) predict at their quadratic rate a next step within the tolerance: the mode to the
  // same tolerance for one factorisation less per evaluation of the hyperparameter fit.
  const RowMatrix* start_f = nullptr;
};

// The two log-determinant sums of eq. 3.44 (1/2 log|I + K W| = sum_log_L + sum_log_M).
struct MulticlassLogDet {
  double sum_log_L = 0.0;  // sum_c sum_i log L_c,ii
  double sum_log_M = 0.0;  // sum_i log M_ii (<= 0)
};

// The latent posterior at m test points: mean (m by C) and covariance (m blocks of C by C, row-major:
// entry (p, c, c') at covariance[(p * C + c) * C + c']).
struct MulticlassLatent {
  RowMatrix mean;
  std::vector<double> covariance;
  std::size_t classes = 0;

  std::size_t size() const { return std::size_t(mean.rows()); }
  // The C by C covariance of point p.
  Eigen::MatrixXd covariance_at(std::size_t p) const;
};

// Class probabilities at m points: probability (m by C, rows summing to 1) and, per point, the
// quadrature's own error estimate and rule (multiclass_probability.h).
struct MulticlassPrediction {
  MulticlassLatent latent;
  RowMatrix probability;
  std::vector<SoftmaxExpectation> quadrature;  // m, without their probabilities (they are in `probability`)
};

class MulticlassLaplace {
 public:
  // dimension_mismatch "2 kernels for 3 classes" (1 or C are accepted), kernel check errors prefixed with
  // "kernel of class 1: "; numerical_failure when Newton does not converge, a factorisation fails or a
  // result is not finite (e.g. an overflowing kernel).
  static Result<MulticlassLaplace> fit(const MulticlassTrainingData& data, const std::vector<SeArdKernel>& kernels,
                                       const MulticlassOptions& options = {});

  std::size_t classes() const { return C_; }
  std::size_t size() const { return std::size_t(x_.rows()); }
  std::size_t dimension() const { return std::size_t(x_.cols()); }
  const RowMatrix& inputs() const { return x_; }
  const std::vector<SeArdKernel>& kernels() const { return kernels_; }  // C, each with d length-scales
  bool shared_kernel() const { return shared_; }

  const RowMatrix& f_hat() const { return f_hat_; }    // n by C
  const RowMatrix& pi_hat() const { return pi_hat_; }  // n by C
  const RowMatrix& alpha() const { return alpha_; }    // n by C, onehot(y) - pi^
  double log_marginal_likelihood() const { return lml_; }
  const MulticlassLogDet& log_det() const { return log_det_; }
  // Alg. 3.3 line 16 as printed (without sum_i log M_ii): a diagnostic, not the evidence.
  double lml_as_printed() const { return lml_ + log_det_.sum_log_M; }
  // C rows of 1 + d: d log q / d[log s2_c, log l_c1..l_cd]; empty without options.with_gradient.
  const std::vector<std::vector<double>>& gradient() const { return gradient_; }
  // The gradient in the tied parameters (one kernel shared by every class): the sum of the rows, or with
  // options.tied_gradient_only the one contraction of the summed G.
  std::vector<double> tied_gradient() const;
  std::size_t iterations() const { return iterations_; }
  std::size_t step_halvings() const { return halvings_; }

  // E_c (n by n, symmetric) and the lower Cholesky factor M of sum_c E_c: what prediction and the
  // robustness bounds use.
  const std::vector<RowMatrix>& E() const { return E_; }
  const RowMatrix& M() const { return M_; }

  // Mean and covariance at the rows of `points` (m by d). Errors name "test inputs"; cancelled when
  // progress (points done, m; after each block of 256) returns false.
  Result<MulticlassLatent> latent(const MatrixView& points, const ProgressCallback& progress = {}) const;
  // The same and the class probabilities E[softmax(f)] (multiclass_probability.h, `options`).
  Result<MulticlassPrediction> predict(const MatrixView& points, const SoftmaxExpectationOptions& options = {},
                                       const ProgressCallback& progress = {}) const;
  // Probabilities at one point x (d values, finite; not checked): what the robustness searches evaluate.
  std::vector<double> probability_at(const double* x, const SoftmaxExpectationOptions& options = {}) const;

 private:
  MulticlassLaplace() = default;

  RowMatrix x_;
  std::size_t C_ = 0;
  std::vector<SeArdKernel> kernels_;
  bool shared_ = false;
  RowMatrix f_hat_, pi_hat_, alpha_;
  std::vector<RowMatrix> E_;
  RowMatrix M_;
  double lml_ = 0.0;
  MulticlassLogDet log_det_;
  std::vector<std::vector<double>> gradient_;
  std::vector<double> tied_gradient_;  // set only with options.tied_gradient_only
  std::size_t iterations_ = 0, halvings_ = 0;
};

}  // namespace gpprobe
