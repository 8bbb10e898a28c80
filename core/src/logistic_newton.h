// Newton's method for weighted L2-penalised logistic regression, the solver behind LP and LPE:
//
//   minimise F(theta) = ½ ‖u‖² + C Σ_i s_i softplus(-y_i t_i),   t_i = z_i'u + b,  y_i = 2 label_i - 1
//
// over theta = [u; b] (r + 1 values; the intercept b is not penalised, as in scikit-learn's lbfgs
// LogisticRegression). Gradient g = [u; 0] + C Z~' (s ∘ -y ∘ sigmoid(-y t)), Hessian
// H = diag(1,..,1,0) + C Z~' diag(s ∘ sigmoid(t) sigmoid(-t)) Z~ with Z~ = [Z 1], positive definite
// whenever some s_i > 0. Steps are damped by Armijo backtracking until the Newton decrement
// lambda² = g'H⁻¹g is small, then taken whole (quadratic convergence); it stops at lambda²/2 <= 1e-22.
// Each step costs O(n r² + r³) with H formed, or, when fewer rows take part than there are weights
// (n < r: bootstrap members of LPE on wide embeddings), O(n² r + n³) through the n by n Gram matrix
// and Woodbury's identity; both solve the same system.
//
//   Z        O by r design (row-major), r may be 0
//   labels   O values in {0, 1}
//   weights  O values >= 0 (rows of weight 0 are ignored), or null for all 1
//   start    r + 1 values to start from, or null for 0
#pragma once

#include <cstddef>
#include <cstdint>

#include <Eigen/Core>

#include "gpprobe/matrix_view.h"
#include "gpprobe/status.h"

namespace gpprobe {

struct NewtonSolution {
  Eigen::VectorXd theta;       // [u; b]
  std::size_t iterations = 0;  // Newton steps taken
};

Result<NewtonSolution> solve_logistic(const RowMatrix& Z, const std::uint8_t* labels, const double* weights,
                                      double C, const Eigen::VectorXd* start = nullptr,
                                      std::size_t max_iterations = 200);

// The logistic function 1 / (1 + e^-t) without overflow.
inline double sigmoid(double t) {
  if (t >= 0) return 1.0 / (1.0 + std::exp(-t));
  const double e = std::exp(t);
  return e / (1.0 + e);
}

}  // namespace gpprobe
