#include "baselines/logistic_newton.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "gpprobe/linalg/row_products.h"

#include "linalg/float32_products.h"
#include "linalg/lanes_cholesky.h"
#include "linalg/lanes_math.h"

namespace gpprobe {

using Eigen::Index;
using Eigen::VectorXd;

namespace {

constexpr double kDecrementTolerance = 1e-22;  // stop at lambda²/2 below this
constexpr double kFullStepDecrement = 1e-8;    // below this, F's changes drown in rounding: full steps
constexpr double kArmijo = 1e-4;
constexpr Index kHessianBlock = 4;          // rows of H per product when forming its lower triangle
constexpr double kKeptSystemRate = 1e-1;    // a kept H must cut the decrement at least this much a step
constexpr double kFloat32LeastStep = 1e-3;  // a shorter damped step: H in float64 from then on

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

// n rounded up to whole lanes: the per-row arrays of LogisticObjective carry rows of weight 0 after
// the last one, which add exactly 0 to every sum.
std::size_t whole_lanes(std::size_t n) { return (n + kLaneCount - 1) / kLaneCount * kLaneCount; }

}  // namespace

// H at one theta, factorised once and reused while it still points the way (solve_logistic).
class NewtonSystem {
 public:
  // H = diag(1,..,1,0) + Z~' diag(curvature) Z~ formed (p by p, one row product) and factorised.
  // `scaled` is room for p by n values. With `float32`, the weight block Z' diag(curvature) Z comes
  // from float32 products (float32_products.h: each entry within 66 u sum_k c_k |z_kj z_kl|, u = 2^-24,
  // about 4e-6 of the entries on H's diagonal), at twice the lanes; the intercept's row in float64.
  // H only preconditions the steps (the solution is where the float64 gradient vanishes, and the
  // stopping rule's decrement is a norm within that much of the exact one), so the solution is the same.
  static Result<NewtonSystem> primal(const RowMatrix& Za, const double* curvature, std::vector<double>* scaled,
                                     std::vector<float>* scaled32, bool float32) {
    const Index n = Za.rows(), r = Za.cols(), p = r + 1;
    if (float32) return primal_float32(Za, curvature, scaled32);
    scaled->resize(std::size_t(p * n));
    double* A = scaled->data();  // (sqrt(curvature) ∘ Z~)', p by n, so that the data term of H is A A'
    for (Index k = 0; k < n; ++k) {
      const double scale = std::sqrt(curvature[k]);
      const double* z = Za.data() + k * r;
      for (Index j = 0; j < r; ++j) A[j * n + k] = scale * z[j];
      A[r * n + k] = scale;
    }
    NewtonSystem system;
    system.p_ = std::size_t(p);
    system.factor_.assign(std::size_t(p * p), 0.0);
    add_lower_gram(A, n, p, system.factor_.data(), p);
    return factorised(std::move(system), r);
  }

  static Result<NewtonSystem> primal_float32(const RowMatrix& Za, const double* curvature, std::vector<float>* scaled) {
    const Index n = Za.rows(), r = Za.cols(), p = r + 1;
    scaled->resize(std::size_t(r * n));
    float* A = scaled->data();  // (sqrt(curvature) ∘ Z)', r by n, in float32
    for (Index k = 0; k < n; ++k) {
      const double scale = std::sqrt(curvature[k]);
      const double* z = Za.data() + k * r;
      for (Index j = 0; j < r; ++j) A[j * n + k] = float(scale * z[j]);
    }
    NewtonSystem system;
    system.p_ = std::size_t(p);
    system.factor_.assign(std::size_t(p * p), 0.0);
    double* H = system.factor_.data();
    add_lower_gram(A, n, r, H, p);
    // The intercept's row in float64: Z' curvature and the sum of the curvatures.
    add_weighted_rows(curvature, Za.data(), std::size_t(n), std::size_t(r), H + r * p);
    double e = 0.0;
    for (Index k = 0; k < n; ++k) e += curvature[k];
    H[r * p + r] = e;
    return factorised(std::move(system), r);
  }

  // H's lower triangle (row-major, p by p) += A A' over the first `rows` rows of A (n values each):
  // block rows of it, each against the rows up to its end (only the lower triangle is read).
  template <class Value>
  static void add_lower_gram(const Value* A, Index n, Index rows, double* H, Index p) {
    for (Index first = 0; first < rows; first += kHessianBlock) {
      const Index count = std::min(kHessianBlock, rows - first);
      const std::size_t m = std::size_t(count), columns = std::size_t(first + count), k = std::size_t(n);
      if constexpr (std::is_same_v<Value, float>) {
        add_product_transposed(A + first * n, k, A, k, m, columns, k, H + first * p, std::size_t(p));
      } else {
        add_product_transposed(A + first * n, k, A, k, m, columns, k, 1.0, H + first * p, std::size_t(p));
      }
    }
  }

  // The penalty's identity on the r weights added to H, then H factorised.
  static Result<NewtonSystem> factorised(NewtonSystem system, Index r) {
    double* H = system.factor_.data();
    for (Index j = 0; j < r; ++j) H[std::size_t(j) * system.p_ + std::size_t(j)] += 1.0;
    system.inverse_.resize(system.p_);
    if (!lanes_cholesky_rows(H, system.p_, system.p_, system.inverse_.data())) {
      return Status(StatusCode::numerical_failure, "logistic regression: the Hessian is not positive definite");
    }
    return system;
  }

  // The same system with n < r rows: with S = diag(sqrt(curvature)) and B = S Z, the weight block
  // A = I + B'B is inverted by Woodbury, A⁻¹v = v - B'(I + S K S)⁻¹ B v (K = Z Z', n by n), and the
  // intercept by its Schur complement e - c'A⁻¹c with c = Z' curvature, e = Σ curvature.
  static Result<NewtonSystem> woodbury(const std::shared_ptr<const RowMatrix>& Za, const RowMatrix& K,
                                       const double* curvature) {
    const Index n = Za->rows(), r = Za->cols();
    NewtonSystem system;
    system.Za_ = Za;
    system.p_ = std::size_t(n);
    system.root_.resize(std::size_t(n));
    for (Index k = 0; k < n; ++k) system.root_[std::size_t(k)] = std::sqrt(curvature[k]);
    system.factor_.assign(std::size_t(n * n), 0.0);  // I + S K S, lower triangle
    for (Index i = 0; i < n; ++i) {
      for (Index j = 0; j <= i; ++j) {
        system.factor_[std::size_t(i * n + j)] = system.root_[std::size_t(i)] * K(i, j) * system.root_[std::size_t(j)];
      }
      system.factor_[std::size_t(i * n + i)] += 1.0;
    }
    system.inverse_.resize(system.p_);
    if (!lanes_cholesky_rows(system.factor_.data(), system.p_, system.p_, system.inverse_.data())) {
      return Status(StatusCode::numerical_failure, "logistic regression: I + S K S is not positive definite");
    }
    system.c_ = VectorXd::Zero(r);
    add_weighted_rows(curvature, Za->data(), std::size_t(n), std::size_t(r), system.c_.data());
    system.A_c_.resize(r);
    system.solve_weights(system.c_.data(), system.A_c_.data());
    double e = 0.0;
    for (Index k = 0; k < n; ++k) e += curvature[k];
    system.schur_ = e - system.c_.dot(system.A_c_);
    if (!(system.schur_ > 0)) {
      return Status(StatusCode::numerical_failure, "logistic regression: the intercept's curvature vanished");
    }
    return system;
  }

  // step = -H⁻¹g.
  void step(const VectorXd& g, VectorXd* step) const {
    step->resize(g.size());
    if (!Za_) {
      *step = g;
      lanes_cholesky_solve(factor_.data(), p_, p_, inverse_.data(), step->data());
      *step = -*step;
      return;
    }
    const Index r = Za_->cols();
    VectorXd A_g(r);
    solve_weights(g.data(), A_g.data());
    const double b = (-g[r] + c_.dot(A_g)) / schur_;
    (*step)[r] = b;
    step->head(r) = -A_g - A_c_ * b;
  }

 private:
  // out = A⁻¹v for the r values at v.
  void solve_weights(const double* v, double* out) const {
    const std::size_t n = p_, r = std::size_t(Za_->cols());
    std::vector<double> z(n);
    multiply_vector(Za_->data(), n, r, v, z.data());
    for (std::size_t k = 0; k < n; ++k) z[k] *= root_[k];
    lanes_cholesky_solve(factor_.data(), n, n, inverse_.data(), z.data());
    for (std::size_t k = 0; k < n; ++k) z[k] *= -root_[k];
    std::copy(v, v + r, out);
    add_weighted_rows(z.data(), Za_->data(), n, r, out);
  }

  std::size_t p_ = 0;                    // the order of the factorised matrix: r + 1 (primal) or n (Woodbury)
  std::vector<double> factor_;           // its Cholesky factor L, row-major, lower triangle
  std::vector<double> inverse_;          // 1 / L_jj
  std::shared_ptr<const RowMatrix> Za_;  // the active rows, for the Woodbury form only
  std::vector<double> root_;
  VectorXd c_, A_c_;
  double schur_ = 0.0;
};

namespace {

// F, its gradient and Newton system over the active rows. Each margins() evaluation computes one
// e = exp(-|t|) per row, four rows at a time (lanes_math.h), that value, gradient and curvature share:
//   softplus(-y t) = max(-y t, 0) + log1p(e)
//   sigmoid(-y t)  = 1/(1+e) where -y t >= 0, else e/(1+e)
//   sigmoid(t) sigmoid(-t) = e/(1+e)²
class LogisticObjective {
 public:
  LogisticObjective(const RowMatrix& Z, const ActiveRows& rows, double C) : C_(C) {
    // The active rows of Z, contiguous, for one product per evaluation.
    const Index n = Index(rows.index.size()), r = Z.cols();
    auto Za = std::make_shared<RowMatrix>(n, r);
    for (Index k = 0; k < n; ++k) Za->row(k) = Z.row(rows.index[std::size_t(k)]);
    Za_ = std::move(Za);
    const std::size_t padded = whole_lanes(std::size_t(n));
    flip_.assign(padded, 0.0);
    s_.assign(padded, 0.0);
    slope_.assign(padded, 0.0);
    for (std::size_t k = 0; k < std::size_t(n); ++k) {
      flip_[k] = -rows.y[k];
      s_[k] = rows.s[k];
      slope_[k] = -C * rows.s[k] * rows.y[k];
    }
    t_.assign(padded, 0.0);
    e_.assign(padded, 1.0);
    residual_.assign(padded, 0.0);
    curvature_.assign(padded, 0.0);
    if (n < r) {  // fewer rows than weights: Newton systems through the n by n Gram matrix
      // Only K's lower triangle is read (NewtonSystem::woodbury): block rows against the rows up to their end.
      K_ = RowMatrix::Zero(n, n);
      for (Index first = 0; first < n; first += kHessianBlock) {
        const Index count = std::min(kHessianBlock, n - first);
        add_product_transposed(Za_->data() + first * r, std::size_t(r), Za_->data(), std::size_t(r), std::size_t(count),
                               std::size_t(first + count), std::size_t(r), 1.0, K_.data() + first * n, std::size_t(n));
      }
    }
  }

  // The margins t = Z u + b at theta and e = exp(-|t|), for value(), gradient() and system().
  void margins(const VectorXd& theta) {
    const Index n = Za_->rows(), r = Za_->cols();
    if (r > 0) multiply_vector(Za_->data(), std::size_t(n), std::size_t(r), theta.data(), t_.data());
    else std::fill(t_.begin(), t_.begin() + n, 0.0);
    for (Index k = 0; k < n; ++k) t_[std::size_t(k)] += theta[r];
    const Lanes sign_bit = splat(-0.0);
    Lanes finite = splat(0.0);  // 0 while every t is finite, else NaN
    for (std::size_t k = 0; k < t_.size(); k += kLaneCount) {
      const Lanes t = load(&t_[k]);
      finite += t * splat(0.0);
      store(&e_[k], exp_nonpositive((Lanes)((LaneMask)t | (LaneMask)sign_bit)));  // -|t|
    }
    finite_ = sum(finite) == 0.0;
  }

  // F(theta) at the theta of the last margins() call (NaN if some margin is not finite).
  double value(const VectorXd& theta) const {
    if (!finite_) return std::numeric_limits<double>::quiet_NaN();
    const Index r = Za_->cols();
    Lanes loss = splat(0.0);
    for (std::size_t k = 0; k < t_.size(); k += kLaneCount) {
      const Lanes softplus = positive_part(load(&flip_[k]) * load(&t_[k])) + log1p_unit(load(&e_[k]));
      loss += load(&s_[k]) * softplus;
    }
    return 0.5 * theta.head(r).squaredNorm() + C_ * sum(loss);
  }

  // The gradient at the theta of the last margins() call.
  void gradient(const VectorXd& theta, VectorXd* g) {
    const Index n = Za_->rows(), r = Za_->cols();
    Lanes total = splat(0.0);
    for (std::size_t k = 0; k < t_.size(); k += kLaneCount) {
      const Lanes e = load(&e_[k]);
      const Lanes big = splat(1.0) / (splat(1.0) + e);  // sigmoid(|t|)
      const LaneMask minus_margin_positive = load(&flip_[k]) * load(&t_[k]) >= splat(0.0);
      const Lanes q = keep(minus_margin_positive, big) + keep(~minus_margin_positive, e * big);  // sigmoid(-y t)
      const Lanes residual = load(&slope_[k]) * q;                                               // dF/dt_k
      store(&residual_[k], residual);
      total += residual;
    }
    g->resize(r + 1);
    g->head(r) = theta.head(r);
    // Z' residual as a sum of rows (one vectorised pass over Z).
    add_weighted_rows(residual_.data(), Za_->data(), std::size_t(n), std::size_t(r), g->data());
    (*g)[r] = finite_ ? sum(total) : std::numeric_limits<double>::quiet_NaN();
  }

  // The Newton system at the theta of the last margins() call (`float32`: NewtonSystem::primal's).
  Result<NewtonSystem> system(bool float32) {
    const Index n = Za_->rows(), r = Za_->cols();
    for (std::size_t k = 0; k < t_.size(); k += kLaneCount) {  // d²F/dt_k² = C s_k e/(1+e)²
      const Lanes e = load(&e_[k]);
      const Lanes big = splat(1.0) / (splat(1.0) + e);
      store(&curvature_[k], splat(C_) * load(&s_[k]) * (e * big * big));
    }
    return n < r ? NewtonSystem::woodbury(Za_, K_, curvature_.data())
                 : NewtonSystem::primal(*Za_, curvature_.data(), &scaled_, &scaled32_, float32);
  }

 private:
  const double C_;
  std::shared_ptr<const RowMatrix> Za_;
  RowMatrix K_;  // Za Za' when n < r (lower triangle)
  // Per row, lane-padded: -y, s, -C s y (dF/dt = slope sigmoid(-y t)), t, e = exp(-|t|), dF/dt, d²F/dt².
  std::vector<double> flip_, s_, slope_, t_, e_, residual_, curvature_;
  std::vector<double> scaled_;  // room for NewtonSystem::primal
  std::vector<float> scaled32_;
  bool finite_ = true;
};

std::string scientific(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1e", v);
  return buffer;
}

}  // namespace

Result<NewtonSolution> solve_logistic(const RowMatrix& Z, const std::uint8_t* labels, const double* weights, double C,
                                      const NewtonStart* start, std::size_t max_iterations) {
  const Index p = Z.cols() + 1;
  const ActiveRows rows = active_rows(labels, weights, Z.rows());
  LogisticObjective objective(Z, rows, C);
  NewtonSolution solution;
  solution.theta = start ? start->theta : VectorXd::Zero(p);
  solution.system = start ? start->system : nullptr;  // kept while it still converges fast
  objective.margins(solution.theta);
  double F = std::numeric_limits<double>::quiet_NaN();  // F(theta), computed when a line search needs it
  VectorXd g, step, trial;
  double decrement = 0.0, previous = std::numeric_limits<double>::infinity();
  // H from float32 products (NewtonSystem::primal) until one falls short of what an exact H does: it
  // does not factorise, or, made where Newton's steps are whole (decrement/2 <= kFullStepDecrement,
  // where an exact H cuts the decrement by orders of magnitude), it does not cut it tenfold at its
  // first reuse, or its step needs a line search below alpha = kFloat32LeastStep. Then float64 H for
  // the rest of this solve.
  bool float32 = true, fresh_where_whole = false;
  for (; solution.iterations < max_iterations; ++solution.iterations) {
    objective.gradient(solution.theta, &g);
    if (solution.system) {
      // A kept H still gives a descent direction; once it no longer cuts the Newton decrement by
      // kKeptSystemRate per step the iteration has turned linear: then a fresh H at this theta.
      solution.system->step(g, &step);
      decrement = -g.dot(step);
      if (!(decrement >= 0 && decrement <= kKeptSystemRate * previous)) {
        if (fresh_where_whole) float32 = false;
        solution.system.reset();
      }
    }
    fresh_where_whole = false;
    if (!solution.system) {
      Result<NewtonSystem> made = objective.system(float32);
      if (!made.ok() && float32) {
        float32 = false;
        made = objective.system(false);
      }
      if (!made.ok()) return made.status();
      solution.system = std::make_shared<const NewtonSystem>(std::move(made.value()));
      solution.system->step(g, &step);
      decrement = -g.dot(step);  // lambda² = g'H⁻¹g
      fresh_where_whole = float32 && decrement / 2 <= kFullStepDecrement;
    }
    if (!(decrement >= 0) || !std::isfinite(decrement)) break;
    if (decrement / 2 <= kDecrementTolerance) return solution;
    double alpha = 1.0;
    trial = solution.theta + step;
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
    if (alpha < kFloat32LeastStep) float32 = false;
    if (alpha < 1.0) solution.system.reset();  // far from the optimum: Newton's own steps
    previous = decrement;
    solution.theta.swap(trial);
  }
  return Status(StatusCode::numerical_failure,
                "logistic regression did not converge in " + std::to_string(max_iterations) +
                    " Newton iterations (Newton decrement " + scientific(decrement) + ")");
}

}  // namespace gpprobe
