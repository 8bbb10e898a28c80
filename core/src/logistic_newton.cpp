#include "logistic_newton.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
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
constexpr Index kHessianBlock = 16;           // rows of H per product when forming its lower triangle
constexpr double kKeptSystemRate = 1e-1;     // a kept H must cut the decrement at least this much a step

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

}  // namespace

// H at one theta, factorised once and reused while it still points the way (solve_logistic).
class NewtonSystem {
 public:
  // H = diag(1,..,1,0) + Z~' diag(curvature) Z~ formed (p by p, one row product) and factorised.
  static Result<NewtonSystem> primal(const RowMatrix& Za, const VectorXd& curvature) {
    const Index n = Za.rows(), r = Za.cols(), p = r + 1;
    RowMatrix A(p, n);  // (sqrt(curvature) ∘ Z~)', so that the data term of H is A A'
    for (Index k = 0; k < n; ++k) {
      const double scale = std::sqrt(curvature[k]);
      A.block(0, k, r, 1) = scale * Za.row(k).transpose();
      A(r, k) = scale;
    }
    // Only H's lower triangle is read (LLT): block rows of it, each against the rows up to its end.
    RowMatrix H = RowMatrix::Zero(p, p);
    for (Index first = 0; first < p; first += kHessianBlock) {
      const Index count = std::min(kHessianBlock, p - first);
      add_product_transposed(A.data() + first * n, std::size_t(n), A.data(), std::size_t(n), std::size_t(count),
                             std::size_t(first + count), std::size_t(n), 1.0, H.data() + first * p, std::size_t(p));
    }
    H.diagonal().head(r).array() += 1.0;
    NewtonSystem system;
    system.llt_.compute(H);
    if (system.llt_.info() != Eigen::Success) {
      return Status(StatusCode::numerical_failure, "logistic regression: the Hessian is not positive definite");
    }
    return system;
  }

  // The same system with n < r rows: with S = diag(sqrt(curvature)) and B = S Z, the weight block
  // A = I + B'B is inverted by Woodbury, A⁻¹v = v - B'(I + S K S)⁻¹ B v (K = Z Z', n by n), and the
  // intercept by its Schur complement e - c'A⁻¹c with c = Z' curvature, e = Σ curvature.
  static Result<NewtonSystem> woodbury(const RowMatrix& Za, const RowMatrix& K, const VectorXd& curvature) {
    NewtonSystem system;
    system.Za_ = std::make_shared<const RowMatrix>(Za);
    system.root_ = curvature.cwiseSqrt();
    Eigen::MatrixXd M = system.root_.asDiagonal() * K * system.root_.asDiagonal();
    M.diagonal().array() += 1.0;
    system.llt_.compute(M);
    if (system.llt_.info() != Eigen::Success) {
      return Status(StatusCode::numerical_failure, "logistic regression: I + S K S is not positive definite");
    }
    system.c_ = Za.transpose() * curvature;
    system.A_c_ = system.solve_weights(system.c_);
    system.schur_ = curvature.sum() - system.c_.dot(system.A_c_);
    if (!(system.schur_ > 0)) {
      return Status(StatusCode::numerical_failure, "logistic regression: the intercept's curvature vanished");
    }
    return system;
  }

  // -H⁻¹g.
  VectorXd step(const VectorXd& g) const {
    if (!Za_) return -llt_.solve(g);
    const Index r = Za_->cols();
    const VectorXd A_g = solve_weights(g.head(r));
    VectorXd step(r + 1);
    step[r] = (-g[r] + c_.dot(A_g)) / schur_;
    step.head(r) = -A_g - A_c_ * step[r];
    return step;
  }

 private:
  VectorXd solve_weights(const VectorXd& v) const {  // A⁻¹v
    const VectorXd z = llt_.solve(root_.cwiseProduct(*Za_ * v));
    return v - Za_->transpose() * root_.cwiseProduct(z);
  }

  Eigen::LLT<Eigen::MatrixXd> llt_;
  std::shared_ptr<const RowMatrix> Za_;  // the active rows, for the Woodbury form only
  VectorXd root_, c_, A_c_;
  double schur_ = 0.0;
};

namespace {

class LogisticObjective {
 public:
  LogisticObjective(const RowMatrix& Z, const ActiveRows& rows, double C) : rows_(rows), C_(C) {
    // The active rows of Z, contiguous, for one product per evaluation.
    const Index n = Index(rows.index.size()), r = Z.cols();
    Za_.resize(n, r);
    for (Index k = 0; k < n; ++k) Za_.row(k) = Z.row(rows.index[std::size_t(k)]);
    t_.resize(n);
    if (n < r) {  // fewer rows than weights: Newton systems through the n by n Gram matrix
      K_.resize(n, n);
      multiply_transposed(Za_.data(), std::size_t(n), Za_.data(), std::size_t(n), std::size_t(r), K_.data());
    }
  }

  // The margins t = Z u + b at theta, for value(), gradient() and system().
  void margins(const VectorXd& theta) {
    const Index n = Za_.rows(), r = Za_.cols();
    if (r > 0) multiply_vector(Za_.data(), std::size_t(n), std::size_t(r), theta.data(), t_.data());
    else t_.setZero();
    t_.array() += theta[r];
  }

  // F(theta) at the theta of the last margins() call.
  double value(const VectorXd& theta) const {
    const Index n = Za_.rows(), r = Za_.cols();
    double loss = 0.0;
    for (Index k = 0; k < n; ++k) loss += rows_.s[std::size_t(k)] * softplus(-rows_.y[std::size_t(k)] * t_[k]);
    return 0.5 * theta.head(r).squaredNorm() + C_ * loss;
  }

  // The gradient at the theta of the last margins() call.
  void gradient(const VectorXd& theta, VectorXd* g) const {
    const Index n = Za_.rows(), r = Za_.cols();
    VectorXd residual(n);  // dF/dt_k
    for (Index k = 0; k < n; ++k) {
      const double y = rows_.y[std::size_t(k)];
      residual[k] = -C_ * rows_.s[std::size_t(k)] * y * sigmoid(-y * t_[k]);
    }
    g->resize(r + 1);
    g->head(r) = theta.head(r);
    // Z' residual as a sum of rows (one vectorised pass over Z).
    add_weighted_rows(residual.data(), Za_.data(), std::size_t(n), std::size_t(r), g->data());
    (*g)[r] = residual.sum();
  }

  // The Newton system at the theta of the last margins() call.
  Result<NewtonSystem> system() const {
    const Index n = Za_.rows(), r = Za_.cols();
    VectorXd curvature(n);  // d²F/dt_k²
    for (Index k = 0; k < n; ++k) {
      const double q = sigmoid(-rows_.y[std::size_t(k)] * t_[k]);  // sigmoid of minus the margin
      curvature[k] = C_ * rows_.s[std::size_t(k)] * q * (1.0 - q);
    }
    return n < r ? NewtonSystem::woodbury(Za_, K_, curvature) : NewtonSystem::primal(Za_, curvature);
  }

 private:
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
                                      double C, const NewtonStart* start, std::size_t max_iterations) {
  const Index p = Z.cols() + 1;
  const ActiveRows rows = active_rows(labels, weights, Z.rows());
  LogisticObjective objective(Z, rows, C);
  NewtonSolution solution;
  solution.theta = start ? start->theta : VectorXd::Zero(p);
  solution.system = start ? start->system : nullptr;  // kept while it still converges fast
  objective.margins(solution.theta);
  double F = std::numeric_limits<double>::quiet_NaN();  // F(theta), computed when a line search needs it
  VectorXd g, step;
  double decrement = 0.0, previous = std::numeric_limits<double>::infinity();
  for (; solution.iterations < max_iterations; ++solution.iterations) {
    objective.gradient(solution.theta, &g);
    if (solution.system) {
      // A kept H still gives a descent direction; once it no longer cuts the Newton decrement by
      // kKeptSystemRate per step the iteration has turned linear: then a fresh H at this theta.
      step = solution.system->step(g);
      decrement = -g.dot(step);
      if (!(decrement >= 0 && decrement <= kKeptSystemRate * previous)) solution.system.reset();
    }
    if (!solution.system) {
      Result<NewtonSystem> made = objective.system();
      if (!made.ok()) return made.status();
      solution.system = std::make_shared<const NewtonSystem>(std::move(made.value()));
      step = solution.system->step(g);
      decrement = -g.dot(step);  // lambda² = g'H⁻¹g
    }
    if (!(decrement >= 0) || !std::isfinite(decrement)) break;
    if (decrement / 2 <= kDecrementTolerance) return solution;
    double alpha = 1.0;
    VectorXd trial = solution.theta + step;
    if (decrement / 2 > kFullStepDecrement) {  // damped by Armijo backtracking
      if (std::isnan(F)) F = objective.value(solution.theta);
      objective.margins(trial);
      double F_trial = objective.value(trial);
      while (!(F_trial <= F - kArmijo * alpha * decrement) && alpha > 1e-12) {
        alpha /= 2;
        trial = solution.theta + alpha * step;
        objective.margins(trial);
        F_trial = objective.value(trial);
      }
      F = F_trial;
    } else {  // below this F's changes drown in rounding: the whole step
      objective.margins(trial);
      F = std::numeric_limits<double>::quiet_NaN();
    }
    if (alpha < 1.0) solution.system.reset();  // far from the optimum: Newton's own steps
    previous = decrement;
    solution.theta = std::move(trial);
  }
  return Status(StatusCode::numerical_failure,
                "logistic regression did not converge in " + std::to_string(max_iterations) +
                    " Newton iterations (Newton decrement " + scientific(decrement) + ")");
}

}  // namespace gpprobe
