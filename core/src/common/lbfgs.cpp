#include "gpprobe/common/lbfgs.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <string>

namespace gpprobe {

namespace {

using Vec = std::vector<double>;

double dot(const Vec& a, const Vec& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

void project(Vec* x, const Vec& lower, const Vec& upper) {
  for (std::size_t i = 0; i < x->size(); ++i) (*x)[i] = std::min(std::max((*x)[i], lower[i]), upper[i]);
}

// Variables held at a bound: fixed ones, and those at a bound whose descent direction leaves the box.
std::vector<bool> held_variables(const Vec& x, const Vec& g, const Vec& lower, const Vec& upper) {
  std::vector<bool> held(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    held[i] = lower[i] == upper[i] || (x[i] <= lower[i] && g[i] > 0.0) || (x[i] >= upper[i] && g[i] < 0.0);
  }
  return held;
}

double projected_gradient_norm(const Vec& x, const Vec& g, const Vec& lower, const Vec& upper) {
  double norm = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double step = std::min(std::max(x[i] - g[i], lower[i]), upper[i]) - x[i];
    norm = std::max(norm, std::abs(step));
  }
  return norm;
}

struct Pair {
  Vec s, y;
  double rho;
};

// d = -H g on the free variables (two-loop recursion with H0 = s'y / y'y), 0 on the held ones.
Vec direction(const Vec& g, const std::deque<Pair>& pairs, const std::vector<bool>& held) {
  Vec q = g;
  for (std::size_t i = 0; i < q.size(); ++i)
    if (held[i]) q[i] = 0.0;
  std::vector<double> a(pairs.size());
  for (std::size_t k = pairs.size(); k-- > 0;) {
    a[k] = pairs[k].rho * dot(pairs[k].s, q);
    for (std::size_t i = 0; i < q.size(); ++i) q[i] -= a[k] * pairs[k].y[i];
  }
  if (!pairs.empty()) {
    const Pair& last = pairs.back();
    const double gamma = dot(last.s, last.y) / dot(last.y, last.y);
    for (double& v : q) v *= gamma;
  }
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const double b = pairs[k].rho * dot(pairs[k].y, q);
    for (std::size_t i = 0; i < q.size(); ++i) q[i] += (a[k] - b) * pairs[k].s[i];
  }
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = held[i] ? 0.0 : -q[i];
  return q;
}

}  // namespace

Result<LbfgsResult> minimize_lbfgs(const Objective& f, Vec x0, const Vec& lower, const Vec& upper,
                                   const LbfgsOptions& options, const ProgressCallback& progress) {
  const std::size_t n = x0.size();
  if (lower.size() != n || upper.size() != n) {
    return Status(StatusCode::invalid_argument, "bounds have " + std::to_string(lower.size()) + " and " +
                                                    std::to_string(upper.size()) + " entries for " + std::to_string(n) +
                                                    " variables");
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!(lower[i] <= upper[i])) {
      return Status(StatusCode::invalid_argument, "variable " + std::to_string(i) + " has lower bound " +
                                                      std::to_string(lower[i]) + " above upper bound " +
                                                      std::to_string(upper[i]));
    }
  }
  LbfgsResult r;
  r.x = std::move(x0);
  project(&r.x, lower, upper);
  r.gradient.assign(n, 0.0);
  r.value = f(r.x, &r.gradient);
  r.evaluations = 1;
  if (!std::isfinite(r.value)) {
    return Status(StatusCode::numerical_failure, "the objective is not finite at the starting point");
  }

  std::deque<Pair> pairs;
  Vec x_new(n), g_new(n);
  constexpr double kArmijo = 1e-4;
  while (r.iterations < options.max_iterations) {
    if (projected_gradient_norm(r.x, r.gradient, lower, upper) < options.gradient_tolerance) {
      r.converged = true;
      break;
    }
    const std::vector<bool> held = held_variables(r.x, r.gradient, lower, upper);
    Vec d = direction(r.gradient, pairs, held);
    if (!(dot(d, r.gradient) < 0.0)) {  // not a descent direction: forget the curvature pairs
      pairs.clear();
      d = direction(r.gradient, pairs, held);
    }
    // The first step of steepest descent is scaled to move no variable by more than 1.
    double t = 1.0;
    if (pairs.empty()) {
      double largest = 0.0;
      for (double v : d) largest = std::max(largest, std::abs(v));
      if (largest > 1.0) t = 1.0 / largest;
    }
    double f_new = 0.0;
    bool accepted = false;
    for (int tries = 0; tries < 60 && !accepted; ++tries, t *= 0.5) {
      for (std::size_t i = 0; i < n; ++i) x_new[i] = r.x[i] + t * d[i];
      project(&x_new, lower, upper);
      Vec step(n);
      for (std::size_t i = 0; i < n; ++i) step[i] = x_new[i] - r.x[i];
      const double decrease = dot(r.gradient, step);
      if (decrease == 0.0) break;  // the projected path no longer moves
      f_new = f(x_new, &g_new);
      ++r.evaluations;
      accepted = std::isfinite(f_new) && f_new <= r.value + kArmijo * decrease;
    }
    ++r.iterations;
    if (!accepted) {
      if (!pairs.empty()) {  // retry from steepest descent before giving up
        pairs.clear();
        continue;
      }
      break;
    }
    Pair p{Vec(n), Vec(n), 0.0};
    for (std::size_t i = 0; i < n; ++i) {
      p.s[i] = x_new[i] - r.x[i];
      p.y[i] = g_new[i] - r.gradient[i];
    }
    const double sy = dot(p.s, p.y);
    if (sy > 1e-10 * dot(p.y, p.y)) {
      p.rho = 1.0 / sy;
      pairs.push_back(std::move(p));
      if (pairs.size() > options.memory) pairs.pop_front();
    }
    const double f_old = r.value;
    r.x = x_new;
    r.gradient = g_new;
    r.value = f_new;
    if (!report_progress(progress, r.iterations, options.max_iterations)) {
      return Status(StatusCode::cancelled, "optimisation cancelled after " + count_of(r.iterations, "iteration"));
    }
    if (f_old - f_new <= options.relative_tolerance * std::max({std::abs(f_old), std::abs(f_new), 1.0})) {
      r.converged = true;
      break;
    }
  }
  return r;
}

}  // namespace gpprobe
