#include "logistic_newton.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include <Eigen/Cholesky>

#include "gpprobe/row_products.h"
#include "gpprobe/uncertainty_measures.h"

namespace gpprobe {

using Eigen::Index;
using Eigen::VectorXd;

namespace {

constexpr double kDecrementTolerance = 1e-22;  // stop at lambda²/2 below this
constexpr double kFullStepDecrement = 1e-8;    // below this, F's changes drown in rounding: full steps
constexpr double kArmijo = 1e-4;

// The rows that take part (weight > 0), their signed labels and weights.
struct ActiveRows {
  std::vector<Index> index;
  std::vector<double> y, s;
};

ActiveRows active_rows(const std::uint8_t* labels, const double* weights, Index O) {
  ActiveRows a;
  for (Index i = 0; i < O; ++i) {
    const double s = weights ? weights[i] : 1.0;
    if (s <= 0) continue;
    a.index.push_back(i);
    a.y.push_back(labels[i] ? 1.0 : -1.0);
    a.s.push_back(s);
  }
  return a;
}

class Objective {
 public:
  Objective(const RowMatrix& Z, const ActiveRows& rows, double C) : rows_(rows), C_(C) {
    // The active rows of Z, contiguous, for one product per evaluation.
    const Index n = Index(rows.index.size()), r = Z.cols();
    Za_.resize(n, r);
    for (Index k = 0; k < n; ++k) Za_.row(k) = Z.row(rows.index[std::size_t(k)]);
    t_.resize(n);
    if (n < r) {  // fewer rows than weights: Newton systems through the n by n Gram matrix (woodbury_step)
      K_.resize(n, n);
      multiply_transposed(Za_.data(), std::size_t(n), Za_.data(), std::size_t(n), std::size_t(r), K_.data());
    }
  }

  // F(theta); also leaves the margins t = Z u + b for newton_step().
  double value(const VectorXd& theta) {
    const Index n = Za_.rows(), r = Za_.cols();
    if (r > 0) multiply_vector(Za_.data(), std::size_t(n), std::size_t(r), theta.data(), t_.data());
    else t_.setZero();
    t_.array() += theta[r];
    double loss = 0.0;
    for (Index k = 0; k < n; ++k) loss += rows_.s[std::size_t(k)] * softplus(-rows_.y[std::size_t(k)] * t_[k]);
    return 0.5 * theta.head(r).squaredNorm() + C_ * loss;
  }

  // The gradient g and the Newton step -H⁻¹g at the theta of the last value() call.
  Status newton_step(const VectorXd& theta, VectorXd* g, VectorXd* step) const {
    const Index n = Za_.rows(), r = Za_.cols();
    VectorXd residual(n), curvature(n);  // dF/dt_k and d²F/dt_k²
    for (Index k = 0; k < n; ++k) {
      const double y = rows_.y[std::size_t(k)], s = rows_.s[std::size_t(k)];
      const double q = sigmoid(-y * t_[k]);  // sigmoid of minus the margin
      residual[k] = -C_ * s * y * q;
      curvature[k] = C_ * s * q * (1.0 - q);
    }
    g->resize(r + 1);
    g->head(r) = theta.head(r);
    if (r > 0) g->head(r).noalias() += Za_.transpose() * residual;
    (*g)[r] = residual.sum();
    return n < r ? woodbury_step(curvature, *g, step) : primal_step(curvature, *g, step);
  }

 private:
  // H = diag(1,..,1,0) + Z~' diag(curvature) Z~ formed (p by p, one row product) and factorised.
  Status primal_step(const VectorXd& curvature, const VectorXd& g, VectorXd* step) const {
    const Index n = Za_.rows(), r = Za_.cols(), p = r + 1;
    RowMatrix A(p, n);  // (sqrt(curvature) ∘ Z~)', so that the data term of H is A A'
    for (Index k = 0; k < n; ++k) {
      const double scale = std::sqrt(curvature[k]);
      A.block(0, k, r, 1) = scale * Za_.row(k).transpose();
      A(r, k) = scale;
    }
    RowMatrix H(p, p);
    multiply_transposed(A.data(), std::size_t(p), A.data(), std::size_t(p), std::size_t(n), H.data());
    H.diagonal().head(r).array() += 1.0;
    const Eigen::LLT<Eigen::MatrixXd> llt(H);
    if (llt.info() != Eigen::Success) {
      return Status(StatusCode::numerical_failure, "logistic regression: the Hessian is not positive definite");
    }
    *step = -llt.solve(g);
    return Status::success();
  }

  // The same step with n < r rows: with S = diag(sqrt(curvature)) and B = S Z, the weight block
  // A = I + B'B is inverted by Woodbury, A⁻¹v = v - B'(I + S K S)⁻¹ B v (K = Z Z', n by n), and the
  // intercept by its Schur complement e - c'A⁻¹c with c = Z' curvature, e = Σ curvature.
  Status woodbury_step(const VectorXd& curvature, const VectorXd& g, VectorXd* step) const {
    const Index r = Za_.cols();
    const VectorXd root = curvature.cwiseSqrt();
    Eigen::MatrixXd M = root.asDiagonal() * K_ * root.asDiagonal();
    M.diagonal().array() += 1.0;
    const Eigen::LLT<Eigen::MatrixXd> llt(M);
    if (llt.info() != Eigen::Success) {
      return Status(StatusCode::numerical_failure, "logistic regression: I + S K S is not positive definite");
    }
    auto solve_A = [&](const VectorXd& v) -> VectorXd {
      const VectorXd z = llt.solve(root.cwiseProduct(Za_ * v));
      return v - Za_.transpose() * root.cwiseProduct(z);
    };
    const VectorXd c = Za_.transpose() * curvature;
    const VectorXd A_g = solve_A(g.head(r)), A_c = solve_A(c);
    const double schur = curvature.sum() - c.dot(A_c);
    if (!(schur > 0)) {
      return Status(StatusCode::numerical_failure, "logistic regression: the intercept's curvature vanished");
    }
    step->resize(r + 1);
    (*step)[r] = (-g[r] + c.dot(A_g)) / schur;
    step->head(r) = -A_g - A_c * (*step)[r];
    return Status::success();
  }

  const ActiveRows& rows_;
  const double C_;
  RowMatrix Za_;
  RowMatrix K_;  // Za Za' when n < r
  VectorXd t_;
};

std::string scientific(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1e", v);
  return buffer;
}

}  // namespace

Result<NewtonSolution> solve_logistic(const RowMatrix& Z, const std::uint8_t* labels, const double* weights,
                                      double C, const VectorXd* start, std::size_t max_iterations) {
  const Index p = Z.cols() + 1;
  const ActiveRows rows = active_rows(labels, weights, Z.rows());
  Objective objective(Z, rows, C);
  NewtonSolution solution;
  solution.theta = start ? *start : VectorXd::Zero(p);
  double F = objective.value(solution.theta);
  VectorXd g, step;
  double decrement = 0.0;
  for (; solution.iterations < max_iterations; ++solution.iterations) {
    GPPROBE_RETURN_IF_ERROR(objective.newton_step(solution.theta, &g, &step));
    decrement = -g.dot(step);  // lambda² = g'H⁻¹g
    if (!(decrement >= 0) || !std::isfinite(decrement)) break;
    if (decrement / 2 <= kDecrementTolerance) return solution;
    double alpha = 1.0;
    VectorXd trial = solution.theta + step;
    double F_trial = objective.value(trial);
    if (decrement / 2 > kFullStepDecrement) {
      while (!(F_trial <= F - kArmijo * alpha * decrement) && alpha > 1e-12) {
        alpha /= 2;
        trial = solution.theta + alpha * step;
        F_trial = objective.value(trial);
      }
    }
    solution.theta = trial;
    F = F_trial;
  }
  return Status(StatusCode::numerical_failure,
                "logistic regression did not converge in " + std::to_string(max_iterations) +
                    " Newton iterations (Newton decrement " + scientific(decrement) + ")");
}

}  // namespace gpprobe
