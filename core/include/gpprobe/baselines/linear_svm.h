// The SVM probe baseline: a linear support vector machine with hinge loss, the same problem as
// scikit-learn's LinearSVC(loss="hinge", C=1) (liblinear; intercept_scaling = 1, so the intercept is a
// weight on a constant feature 1 and is penalised like the others):
//
//   minimise  ½ (‖w‖² + b²) + C Σ_i max(0, 1 - y_i (w'x_i + b)),   y_i = 2 label_i - 1
//
// This objective is strictly convex, so [w; b] is unique and any exact solver agrees. We solve its
// dual, min ½ a'Qa - 1'a over 0 <= a_i <= C with Q_ij = y_i y_j (x_i'x_j + 1), keeping
// w~ = Σ a_i y_i [x_i; 1]: coordinate descent (Hsieh et al. 2008, liblinear's algorithm with its
// shrinking, in seeded random order) finds which a_i sit at 0 or C, and every 32 sweeps a Newton step
// on the free a_i solves (Qa)_F = 1 exactly; it ends as soon as that step satisfies every KKT
// condition to 1e-9 (or the projected gradients span less than `tolerance`). Descent alone converges
// linearly (10^5 sweeps on overlapping classes); with the Newton steps a fit at O = 512 takes ms.
// scikit-learn's LinearSVC stops at tol = 1e-4; against the exact QP optimum our decision values
// agree to 1e-9 (tests/core/baselines/baselines_test.cpp).
//
//   observations  O by d, O >= 1, both labels present
//   labels        O values in {0, 1}
//   queries       n by d  ->  decision w'q + b  (n values; the SVM has no probability)
#pragma once

#include <cstddef>
#include <cstdint>

#include <Eigen/Core>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

struct LinearSvmOptions {
  double C = 1.0;                    // > 0
  double tolerance = 1e-10;          // span of the projected gradients at which to stop
  std::size_t max_sweeps = 1000000;  // passes over the active variables before numerical_failure
};

class LinearSvm {
 public:
  static Result<LinearSvm> fit(const MatrixView& observations, const std::uint8_t* labels, std::size_t count,
                               const LinearSvmOptions& options = {});

  // w'q + b for each query row (out: n values).
  Status decision(const MatrixView& queries, double* out) const;

  const Eigen::VectorXd& weights() const { return w_; }  // d values
  double intercept() const { return b_; }
  std::size_t sweeps() const { return sweeps_; }

 private:
  Eigen::VectorXd w_;
  double b_ = 0.0;
  std::size_t sweeps_ = 0;
};

}  // namespace gpprobe
