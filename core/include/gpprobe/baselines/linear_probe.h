// The linear probe (LP) baseline: L2-penalised logistic regression with an intercept, the same problem
// as scikit-learn's LogisticRegression() with its defaults (penalty "l2", C = 1, lbfgs, whose intercept
// is not penalised):
//
//   minimise  ½ ‖w‖² + C Σ_i log(1 + exp(-y_i (w'x_i + b))),   y_i = 2 label_i - 1
//
// solved by Newton's method to a Newton decrement below 1e-22. Our probabilities equal scikit-learn's
// optimum (solver="newton-cholesky", tol=1e-14) to 1e-9 and the default lbfgs fit, which stops at
// tol = 1e-4, to 1e-4 (tests/core/baselines/baselines_test.cpp). With fewer observations than dimensions it is
// solved in the span of the observations, which is exact (linear_probe_design.h).
//
//   observations  O by d, O >= 1, both labels present
//   labels        O values in {0, 1}
//   queries       n by d  ->  decision w'q + b, probability sigmoid(w'q + b)   (n values each)
#pragma once

#include <cstddef>
#include <cstdint>

#include <Eigen/Core>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

struct LinearProbeOptions {
  double C = 1.0;  // inverse regularisation strength, > 0
};

class LinearProbe {
 public:
  static Result<LinearProbe> fit(const MatrixView& observations, const std::uint8_t* labels, std::size_t count,
                                 const LinearProbeOptions& options = {});

  // w'q + b for each query row (out: n values).
  Status decision(const MatrixView& queries, double* out) const;
  // sigmoid(w'q + b) (out: n values).
  Status probability(const MatrixView& queries, double* out) const;

  const Eigen::VectorXd& weights() const { return w_; }  // d values
  double intercept() const { return b_; }
  std::size_t iterations() const { return iterations_; }  // Newton steps the fit took

  // Checks C: invalid_argument "C must be a finite number > 0, got 0".
  static Status check_options(const LinearProbeOptions& options);

 private:
  Eigen::VectorXd w_;
  double b_ = 0.0;
  std::size_t iterations_ = 0;
};

// out[i] = A_i' w + b for the rows of `queries` (blocks of 256 widened to float64): the scoring loop
// shared by the linear baselines. `w` has queries.cols() values.
void linear_scores(const MatrixView& queries, const double* w, double b, double* out);

}  // namespace gpprobe
