#include "gpprobe/certify/query_neighbourhood.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpprobe {

using Eigen::Index;
using Eigen::VectorXd;

QueryNeighbourhood::QueryNeighbourhood(const MovingCoordinates& moving, const double* centre, double augment)
    : moving_(&moving) {
  const LatentWeights& w = moving.weights();
  const std::size_t d = w.dimension();
  centre_.assign(centre, centre + d);
  VectorXd c(Index(d + 1));
  for (std::size_t i = 0; i < d; ++i) c[Index(i)] = centre[i];
  c[Index(d)] = augment;
  const VectorXd Mc = w.M * c;
  numerator_ = c.dot(w.u);
  quadratic_ = c.dot(Mc);
  const Index k = Index(moving.size());
  centre_J_.resize(k);
  g_.resize(k);
  std::vector<bool> moves(d, false);
  for (Index a = 0; a < k; ++a) {
    const std::size_t j = moving.dims()[std::size_t(a)];
    centre_J_[a] = centre[j];
    g_[a] = Mc[Index(j)];
    moves[j] = true;
  }
  rest_ = augment * augment;
  for (std::size_t i = 0; i < d; ++i)
    if (!moves[i]) rest_ += centre[i] * centre[i];
}

LatentValue QueryNeighbourhood::at(const double* offset) const {
  const Eigen::Map<const VectorXd> D(offset, Index(size()));
  const LatentWeights& w = moving_->weights();
  const double numerator = numerator_ + D.dot(moving_->u_J());
  const double norm2 = rest_ + (centre_J_ + D).squaredNorm();
  const double quadratic = quadratic_ + 2.0 * D.dot(g_) + D.dot(moving_->M_JJ() * D);
  return {std::sqrt(w.variance) * numerator / std::sqrt(norm2), w.variance * (2.0 - quadratic / norm2)};
}

void QueryNeighbourhood::slopes(const double* offset, double* mean_slope, double* variance_slope) const {
  const Index k = Index(size());
  const Eigen::Map<const VectorXd> D(offset, k);
  const LatentWeights& w = moving_->weights();
  const VectorXd a = centre_J_ + D;
  const double numerator = numerator_ + D.dot(moving_->u_J());
  const double norm2 = rest_ + a.squaredNorm();
  const VectorXd Ma = g_ + moving_->M_JJ() * D;  // (Mã)_J
  const double rho = (quadratic_ + 2.0 * D.dot(g_) + D.dot(moving_->M_JJ() * D)) / norm2;
  const double root = std::sqrt(norm2), sqrt_v = std::sqrt(w.variance);
  for (Index j = 0; j < k; ++j) {
    mean_slope[j] = sqrt_v * (moving_->u_J()[j] / root - numerator * a[j] / (norm2 * root));
    variance_slope[j] = -w.variance * 2.0 * (Ma[j] - rho * a[j]) / norm2;
  }
}

std::vector<double> QueryNeighbourhood::query(const double* offset) const {
  std::vector<double> a = centre_;
  for (std::size_t j = 0; j < size(); ++j) a[moving_->dims()[j]] += offset[j];
  return a;
}

LatentBounds QueryNeighbourhood::over_box(const double* lower, const double* upper, double ball_radius) const {
  const Index k = Index(size());
  Interval numerator{numerator_, numerator_}, norm2{rest_, rest_};
  VectorXd e(k), h(k);
  for (Index j = 0; j < k; ++j) {
    const double u = moving_->u_J()[j];
    numerator.lower += std::min(lower[j] * u, upper[j] * u);
    numerator.upper += std::max(lower[j] * u, upper[j] * u);
    const Interval s = square(centre_J_[j] + lower[j], centre_J_[j] + upper[j]);
    norm2.lower += s.lower;
    norm2.upper += s.upper;
    e[j] = lower[j] + 0.5 * (upper[j] - lower[j]);
    h[j] = 0.5 * (upper[j] - lower[j]);
  }
  const VectorXd Me = moving_->M_JJ() * e;
  const VectorXd Mh = moving_->abs_M_JJ() * h;
  const VectorXd Ma = g_ + Me;  // (Mã)_J at the box's centre
  const double q_e = quadratic_ + 2.0 * e.dot(g_) + e.dot(Me);
  const double linear = 2.0 * h.dot(Ma.cwiseAbs());
  const double spread = std::min(h.dot(Mh), moving_->lambda() * h.squaredNorm());
  const Interval quadratic{std::max(0.0, q_e - linear), q_e + linear + spread};
  Interval mean = mean_range(numerator, norm2), rho = rayleigh_range(quadratic, norm2);

  // Mean-value forms around the centre p: f(a) = f(p) + G'(a - p) with G_j in the range of df/da_j over
  // the box (from the intervals above), G_j = mid_j + r_j, |r_j| <= radius_j, so
  //   G'(a - p) in mid'(a - p) +- sum_j radius_j h_j,  mid'(a - p) in +- sum_j |mid_j| h_j,
  // and, inside the ball |a - a*| <= ball_radius as well, mid'(a - p) in -mid'e +- ball_radius |mid|.
  // The excess shrinks like width^2 (the quotients' above only like width), which is what lets
  // branch and bound close; the ball term keeps boxes that straddle the ball's sphere tight.
  const double sqrt_v = std::sqrt(moving_->weights().variance);
  const double numerator_e = numerator_ + e.dot(moving_->u_J());
  const double norm2_e = rest_ + (centre_J_ + e).squaredNorm();
  const Interval root{std::sqrt(norm2.lower), std::sqrt(norm2.upper)};
  VectorXd mean_mid(k), rho_mid(k);
  double mean_spread = 0.0, rho_spread = 0.0;
  for (Index j = 0; j < k; ++j) {
    const Interval a{centre_J_[j] + lower[j], centre_J_[j] + upper[j]};
    const double u = moving_->u_J()[j];
    // dm/da_j = sqrt(v) (u_j - N a_j / |ã|^2) / |ã|;  drho/da_j = 2 ((Mã)_j - rho a_j) / |ã|^2
    const Interval Na = over(times(numerator, a), norm2);
    const Interval dm = over({sqrt_v * (u - Na.upper), sqrt_v * (u - Na.lower)}, root);
    const Interval rho_a = times(rho, a);
    const Interval drho = over({2.0 * (Ma[j] - Mh[j] - rho_a.upper), 2.0 * (Ma[j] + Mh[j] - rho_a.lower)}, norm2);
    mean_mid[j] = 0.5 * (dm.lower + dm.upper);
    rho_mid[j] = 0.5 * (drho.lower + drho.upper);
    mean_spread += h[j] * 0.5 * dm.width();
    rho_spread += h[j] * 0.5 * drho.width();
  }
  auto linear_range = [&](const VectorXd& mid) {
    const double box = h.dot(mid.cwiseAbs());
    Interval r{-box, box};
    if (ball_radius >= 0.0) {
      const double shift = -mid.dot(e), reach = ball_radius * mid.norm();
      r = intersect(r, {shift - reach, shift + reach});
    }
    return r;
  };
  const Interval mean_linear = linear_range(mean_mid), rho_linear = linear_range(rho_mid);
  const double mean_e = sqrt_v * numerator_e / std::sqrt(norm2_e), rho_e = q_e / norm2_e;
  mean = intersect(mean, {mean_e + mean_linear.lower - mean_spread, mean_e + mean_linear.upper + mean_spread});
  rho = intersect(rho, {rho_e + rho_linear.lower - rho_spread, rho_e + rho_linear.upper + rho_spread});
  return widen(mean, rho);
}

LatentBounds QueryNeighbourhood::over_ball(double gamma) const {
  const double r = centre_J_.norm();
  const double reach = gamma * moving_->u_J().norm();
  const double lo = std::max(0.0, r - gamma), hi = r + gamma;
  const double linear = 2.0 * gamma * g_.norm();
  const Interval numerator{numerator_ - reach, numerator_ + reach};
  const Interval norm2{rest_ + lo * lo, rest_ + hi * hi};
  const Interval quadratic{std::max(0.0, quadratic_ - linear), quadratic_ + linear + moving_->lambda() * gamma * gamma};
  Interval mean = mean_range(numerator, norm2), rho = rayleigh_range(quadratic, norm2);

  // Mean-value forms: |f(a) - f(a*)| <= gamma max_ball |grad_J f|, with, at a = a* + D (a_J = c_J + D),
  //   grad m   = sqrt(v) (u_J - t a_J) / |ã|,  t = ã'u/|ã|^2:
  //              |u_J - t a_J| <= |u_J - t* c_J| + |t*| gamma + max|t - t*| (r + gamma)
  //   grad rho = 2 ((Mã)_J - rho a_J) / |ã|^2,  (Mã)_J = g + M_JJ D:
  //              |..| <= |g - rho* c_J| + max(lambda - rho*, rho*) gamma + max|rho - rho*| (r + gamma)
  // (|M_JJ - rho* I| <= max(lambda - rho*, rho*) as M_JJ's eigenvalues lie in [0, lambda]).
  const double norm2_c = rest_ + r * r;
  const double t_c = numerator_ / norm2_c, rho_c = quadratic_ / norm2_c;
  const Interval t = over(numerator, norm2);
  const double t_spread = std::max(std::fabs(t.lower - t_c), std::fabs(t.upper - t_c));
  const double rho_spread = std::max(std::fabs(rho.lower - rho_c), std::fabs(rho.upper - rho_c));
  const double mean_slope = (moving_->u_J() - t_c * centre_J_).norm() + std::fabs(t_c) * gamma + t_spread * (r + gamma);
  const double rho_slope = (g_ - rho_c * centre_J_).norm() + std::max(moving_->lambda() - rho_c, rho_c) * gamma +
                           rho_spread * (r + gamma);
  const double sqrt_v = std::sqrt(moving_->weights().variance);
  const double mean_c = sqrt_v * numerator_ / std::sqrt(norm2_c);
  const double mean_reach = gamma * sqrt_v * mean_slope / std::sqrt(norm2.lower);
  const double rho_reach = gamma * 2.0 * rho_slope / norm2.lower;
  mean = intersect(mean, {mean_c - mean_reach, mean_c + mean_reach});
  rho = intersect(rho, {rho_c - rho_reach, rho_c + rho_reach});
  return widen(mean, rho);
}

Interval QueryNeighbourhood::mean_range(Interval numerator, Interval norm2) const {
  const double sqrt_v = std::sqrt(moving_->weights().variance);
  const double cap = sqrt_v * moving_->weights().u.norm();  // |ã'u| / |ã| <= |u|
  const Interval m = over(numerator, {std::sqrt(norm2.lower), std::sqrt(norm2.upper)});
  return {std::max(sqrt_v * m.lower, -cap), std::min(sqrt_v * m.upper, cap)};
}

Interval QueryNeighbourhood::rayleigh_range(Interval quadratic, Interval norm2) const {
  return {std::max(0.0, quadratic.lower / norm2.upper), std::min(moving_->weights().rayleigh_max, quadratic.upper / norm2.lower)};
}

LatentBounds QueryNeighbourhood::widen(Interval mean, Interval rho) const {
  const LatentWeights& w = moving_->weights();
  // Rounding of this O(k) arithmetic, relative to each end's magnitude, on top of the weights' allowance.
  const double relative = 64.0 * std::numeric_limits<double>::epsilon() * double(size() + 8);
  auto out = [relative](double x, double absolute, double direction) {
    return x + direction * (absolute + relative * std::fabs(x));
  };
  rho = {std::max(0.0, rho.lower), std::min(w.rayleigh_max, rho.upper)};
  LatentBounds b;
  b.mean = {out(mean.lower, w.mean_rounding, -1.0), out(mean.upper, w.mean_rounding, +1.0)};
  b.variance.lower = std::max(0.0, out(w.variance * (2.0 - rho.upper), w.variance_rounding, -1.0));
  b.variance.upper = out(w.variance * (2.0 - rho.lower), w.variance_rounding, +1.0);
  return b;
}

}  // namespace gpprobe
