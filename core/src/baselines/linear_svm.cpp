#include "gpprobe/baselines/linear_svm.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include <Eigen/Cholesky>

#include "gpprobe/baselines/linear_probe.h"
#include "gpprobe/common/random_stream.h"
#include "gpprobe/linalg/row_products.h"

#include "common/input_checks.h"

namespace gpprobe {

using Eigen::Index;

namespace {

constexpr double kKktTolerance = 1e-9;    // on margins of size 1
constexpr std::size_t kNewtonEvery = 32;  // sweeps between Newton steps on the free set

enum class FreeStep { exact, improved, unchanged };

// A Newton step on the free variables F = {0 < a_i < C} (coordinate descent alone converges linearly
// and can need 10^5 sweeps on overlapping classes). With the bounded a fixed, a*_F solves
// (Q a)_F = 1, i.e. y_i w~'x~_i = 1 on F. If a*_F lies in [0, C] and every KKT condition holds
// (margin 1 on F, >= 1 where a = 0, <= 1 where a = C) it is the optimum: `exact`. Otherwise the
// projected step a_F + t (a*_F - a_F), clipped to [0, C], t = 1, 1/2, ..., 1/64, is taken when it
// lowers the dual objective ½|w~|² - Σ a: `improved`.
FreeStep free_set_newton(const std::vector<double>& X, const std::vector<double>& y, double C, std::size_t O,
                         std::size_t D, std::vector<double>* alpha, std::vector<double>* w) {
  const Eigen::Map<const RowMatrix> Xm(X.data(), Index(O), Index(D));
  std::vector<std::size_t> free;
  Eigen::VectorXd w_bound = Eigen::VectorXd::Zero(Index(D));
  double bound_sum = 0;
  for (std::size_t i = 0; i < O; ++i) {
    if ((*alpha)[i] >= C) {
      w_bound += C * y[i] * Xm.row(Index(i)).transpose();
      bound_sum += C;
    } else if ((*alpha)[i] > 0) {
      free.push_back(i);
    }
  }
  const Index n = Index(free.size());
  RowMatrix A(n, Index(D));  // rows y_i x~_i, i in F
  Eigen::VectorXd a(n);
  for (Index k = 0; k < n; ++k) {
    A.row(k) = y[free[std::size_t(k)]] * Xm.row(Index(free[std::size_t(k)]));
    a[k] = (*alpha)[free[std::size_t(k)]];
  }
  Eigen::VectorXd target = a;
  if (n > 0) {
    RowMatrix Q(n, n);
    multiply_transposed(A.data(), std::size_t(n), A.data(), std::size_t(n), D, Q.data());
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(Q);
    if (ldlt.info() != Eigen::Success) return FreeStep::unchanged;
    target = ldlt.solve(Eigen::VectorXd::Ones(n) - A * w_bound);
    if (!target.allFinite()) return FreeStep::unchanged;
  }
  auto objective = [&](const Eigen::VectorXd& a_free, Eigen::VectorXd* w_tilde) {
    *w_tilde = w_bound;
    if (n > 0) w_tilde->noalias() += A.transpose() * a_free;
    return 0.5 * w_tilde->squaredNorm() - bound_sum - a_free.sum();
  };
  auto accept = [&](const Eigen::VectorXd& a_free, const Eigen::VectorXd& w_tilde) {
    for (Index k = 0; k < n; ++k) (*alpha)[free[std::size_t(k)]] = a_free[k];
    w->assign(w_tilde.data(), w_tilde.data() + D);
  };
  Eigen::VectorXd w_tilde;
  const double f0 = objective(a, &w_tilde);
  if (n == 0 || (target.minCoeff() >= 0 && target.maxCoeff() <= C)) {
    objective(target, &w_tilde);
    bool kkt = true;
    for (std::size_t i = 0; i < O && kkt; ++i) {
      const double margin = y[i] * Xm.row(Index(i)).dot(w_tilde), ai = (*alpha)[i];
      if (ai > 0 && ai < C) kkt = std::fabs(margin - 1) <= kKktTolerance;
      else if (ai <= 0) kkt = margin >= 1 - kKktTolerance;
      else kkt = margin <= 1 + kKktTolerance;
    }
    if (kkt) {
      accept(target, w_tilde);
      return FreeStep::exact;
    }
  }
  for (double t = 1; t >= 1.0 / 64; t /= 2) {
    const Eigen::VectorXd trial = (a + t * (target - a)).cwiseMax(0.0).cwiseMin(C);
    if (objective(trial, &w_tilde) < f0 - 1e-15 * std::fabs(f0)) {
      accept(trial, w_tilde);
      return FreeStep::improved;
    }
  }
  return FreeStep::unchanged;
}

}  // namespace

Result<LinearSvm> LinearSvm::fit(const MatrixView& observations, const std::uint8_t* labels, std::size_t count,
                                 const LinearSvmOptions& options) {
  GPPROBE_RETURN_IF_ERROR(check_positive("C", options.C));
  GPPROBE_RETURN_IF_ERROR(check_observations(observations, labels, count));
  GPPROBE_RETURN_IF_ERROR(check_both_classes(labels, count, "svm needs observations of both classes"));
  const std::size_t O = observations.rows(), d = observations.cols(), D = d + 1;
  const double C = options.C;

  // x~_i = [x_i; 1], row-major O by D, and the diagonal Q_ii = |x~_i|².
  std::vector<double> X(O * D);
  for (std::size_t i = 0; i < O; ++i) {
    observations.copy_rows(i, 1, &X[i * D]);
    X[i * D + d] = 1.0;
  }
  std::vector<double> Qii(O), y(O), alpha(O, 0.0), w(D, 0.0);
  for (std::size_t i = 0; i < O; ++i) {
    const double* x = &X[i * D];
    Qii[i] = std::inner_product(x, x + D, x, 0.0);
    y[i] = labels[i] ? 1.0 : -1.0;
  }

  // Shrinking as in liblinear: a variable at a bound whose gradient points further out than the last
  // sweep's extreme projected gradients leaves the active set; convergence is always confirmed on all.
  std::vector<std::size_t> index(O);
  std::iota(index.begin(), index.end(), 0);
  std::size_t active = O;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double pg_max_old = kInf, pg_min_old = -kInf, gap = kInf;
  RandomStream random(0);  // any order converges to the same optimum; a fixed one keeps runs identical
  LinearSvm svm;
  auto finish = [&](const std::vector<double>& solution) {
    svm.w_ = Eigen::Map<const Eigen::VectorXd>(solution.data(), Index(d));
    svm.b_ = solution[d];
    ++svm.sweeps_;
    return svm;
  };
  for (; svm.sweeps_ < options.max_sweeps; ++svm.sweeps_) {
    for (std::size_t s = active; s > 1; --s) std::swap(index[s - 1], index[random.index(s)]);
    double pg_max = -kInf, pg_min = kInf;
    for (std::size_t s = 0; s < active; ++s) {
      const std::size_t i = index[s];
      const double* x = &X[i * D];
      const double G = y[i] * std::inner_product(x, x + D, w.data(), 0.0) - 1.0;
      // Projected gradient: at a bound only the direction back into the box counts.
      double PG = G;
      if (alpha[i] <= 0.0) {
        if (G > pg_max_old) {
          std::swap(index[s--], index[--active]);
          continue;
        }
        PG = std::min(G, 0.0);
      } else if (alpha[i] >= C) {
        if (G < pg_min_old) {
          std::swap(index[s--], index[--active]);
          continue;
        }
        PG = std::max(G, 0.0);
      }
      pg_max = std::max(pg_max, PG);
      pg_min = std::min(pg_min, PG);
      if (PG == 0.0) continue;
      const double updated = std::clamp(alpha[i] - G / Qii[i], 0.0, C);
      const double change = (updated - alpha[i]) * y[i];
      alpha[i] = updated;
      for (std::size_t j = 0; j < D; ++j) w[j] += change * x[j];
    }
    gap = pg_max - pg_min;
    if (svm.sweeps_ % kNewtonEvery == kNewtonEvery - 1) {  // cheap next to the sweeps in between
      if (free_set_newton(X, y, C, O, D, &alpha, &w) == FreeStep::exact) return finish(w);
    }
    if (gap <= options.tolerance) {
      if (active == O) return finish(w);
      active = O;  // confirm on every variable
      pg_max_old = kInf;
      pg_min_old = -kInf;
      continue;
    }
    pg_max_old = pg_max > 0 ? pg_max : kInf;
    pg_min_old = pg_min < 0 ? pg_min : -kInf;
  }
  return Status(StatusCode::numerical_failure, "svm: coordinate descent did not converge in " +
                                                   std::to_string(options.max_sweeps) +
                                                   " sweeps (projected-gradient span " + std::to_string(gap) + ")");
}

Status LinearSvm::decision(const MatrixView& queries, double* out) const {
  GPPROBE_RETURN_IF_ERROR(check_queries(queries, std::size_t(w_.size())));
  linear_scores(queries, w_.data(), b_, out);
  return Status::success();
}

}  // namespace gpprobe
