// Newton's method for weighted L2-penalised logistic regression, the solver behind LP and LPE:
//
//   minimise F(theta) = ½ ‖u‖² + C Σ_i s_i softplus(-y_i t_i),   t_i = z_i'u + b,  y_i = 2 label_i - 1
//
// over theta = [u; b] (r + 1 values; the intercept b is not penalised, as in scikit-learn's lbfgs
// LogisticRegression). Gradient g = [u; 0] + C Z~' (s ∘ -y ∘ sigmoid(-y t)), Hessian
// H = diag(1,..,1,0) + C Z~' diag(s ∘ sigmoid(t) sigmoid(-t)) Z~ with Z~ = [Z 1], positive definite
// whenever some s_i > 0. Steps are damped by Armijo backtracking until the Newton decrement
// lambda² = g'H⁻¹g is small, then taken whole; it stops at lambda²/2 <= 1e-22. A factorised H is kept
// for the next steps while it still cuts lambda² tenfold per step (near the optimum H hardly changes, and
// forming it is the cost of a step: the chord steps in between cost O(n r + r²)); once it does not, or a
// step was damped, H is formed afresh. Forming H costs O(n r² + r³), or, when fewer rows take part than
// there are weights (n < r: bootstrap members of LPE on wide embeddings), O(n² r + n³) through the n by n
// Gram matrix and Woodbury's identity; both solve the same system.
//
// A start may carry the H of a related problem (LPE: the fit to all observations, whose H is the
// members' expected one): its first step is then the one-step estimate -H⁻¹g, at no factorisation.
//
//   Z        O by r design (row-major), r may be 0
//   labels   O values in {0, 1}
//   weights  O values >= 0 (rows of weight 0 are ignored), or null for all 1
//   start    r + 1 values to start from, or null for 0
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include <Eigen/Core>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

// H of one problem at one theta, factorised (opaque; logistic_newton.cpp).
class NewtonSystem;

struct NewtonSolution {
  Eigen::VectorXd theta;                       // [u; b]
  std::size_t iterations = 0;                  // Newton steps taken
  std::shared_ptr<const NewtonSystem> system;  // the H the last step used
};

// Where to start: theta, and optionally an H to take the first step with.
struct NewtonStart {
  Eigen::VectorXd theta;
  std::shared_ptr<const NewtonSystem> system;
};

Result<NewtonSolution> solve_logistic(const RowMatrix& Z, const std::uint8_t* labels, const double* weights, double C,
                                      const NewtonStart* start = nullptr, std::size_t max_iterations = 200);

// The logistic function 1 / (1 + e^-t) without overflow.
inline double sigmoid(double t) {
  if (t >= 0) return 1.0 / (1.0 + std::exp(-t));
  const double e = std::exp(t);
  return e / (1.0 + e);
}

}  // namespace gpprobe
