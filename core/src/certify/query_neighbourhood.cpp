#include "gpprobe/certify/query_neighbourhood.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpprobe {

using Eigen::Index;
using Eigen::VectorXd;

namespace {

// A set whose largest |ã|^2 is within this factor of its smallest also takes the mean-value forms: their
// intermediate terms are then of the size of the values they bound, which the relative and the weights'
// allowances cover. A wider set (one reaching far towards the origin from far out) is bounded by the
// interval forms alone, with their sums' cancellation allowed for explicitly (sums_rounding).
constexpr double kNarrow = 4.0;

// |v| as norm() computes it, or without squaring (stableNorm) where the squares would underflow or
// overflow (weights near 1e-243 squared to 0).
double safe_norm(const VectorXd& v) {
  const double n = v.norm();
  return n > 1e-150 && n < 1e150 ? n : v.stableNorm();
}

}  // namespace

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

  // The same terms without the moving coordinates (c_off: c with c_J = 0), so that a point a_J of the set
  // is evaluated from its own coordinates and not as c + D (c'u + D'u_J cancels when D is as large as c),
  // and the sizes of every term (|c|'|u|, |M||c|, |c|'|M||c|) for the sums' rounding allowances.
  VectorXd c_off = c, abs_c_off(c.size());
  for (Index a = 0; a < k; ++a) c_off[Index(moving.dims()[std::size_t(a)])] = 0.0;
  const VectorXd M_c_off = w.M * c_off;
  abs_c_off = c_off.cwiseAbs();
  const VectorXd abs_c = c.cwiseAbs();
  VectorXd abs_M_c = VectorXd::Zero(c.size()), abs_M_c_off = VectorXd::Zero(c.size());
  for (Index j = 0; j < c.size(); ++j) {
    for (Index i = 0; i < c.size(); ++i) {
      const double m = std::fabs(w.M(i, j));
      abs_M_c[i] += m * abs_c[j];
      abs_M_c_off[i] += m * abs_c_off[j];
    }
  }
  numerator_off_ = c_off.dot(w.u);
  quadratic_off_ = c_off.dot(M_c_off);
  numerator_size_ = abs_c.dot(w.u.cwiseAbs());
  numerator_off_size_ = abs_c_off.dot(w.u.cwiseAbs());
  quadratic_size_ = abs_c.dot(abs_M_c);
  quadratic_off_size_ = abs_c_off.dot(abs_M_c_off);
  g_off_.resize(k);
  abs_g_.resize(k);
  abs_g_off_.resize(k);
  for (Index a = 0; a < k; ++a) {
    const Index j = Index(moving.dims()[std::size_t(a)]);
    g_off_[a] = M_c_off[j];
    abs_g_[a] = abs_M_c[j];
    abs_g_off_[a] = abs_M_c_off[j];
  }
  sums_rounding_ = 2.0 * std::numeric_limits<double>::epsilon() * double(c.size() + size() + 8);
}

void QueryNeighbourhood::allow_for_sums(Interval* numerator, Interval* norm2, Interval* quadratic,
                                        double numerator_size, double quadratic_size) const {
  // A sum of n terms rounds by at most ~n eps times the sum of their sizes, whatever its value; norm2's
  // terms are all >= 0, so its rounding is relative.
  numerator->lower -= sums_rounding_ * numerator_size;
  numerator->upper += sums_rounding_ * numerator_size;
  norm2->lower *= 1.0 - sums_rounding_;
  norm2->upper *= 1.0 + sums_rounding_;
  quadratic->lower = std::max(0.0, quadratic->lower - sums_rounding_ * quadratic_size);
  quadratic->upper += sums_rounding_ * quadratic_size;
}

bool QueryNeighbourhood::far(const VectorXd& D, double norm2) const {
  // c + D is evaluated from the point's own coordinates a_J once D could cancel against c by more than
  // the point's own size: |D|^2 beyond kNarrow |ã|^2 (near points keep the offset form, as before).
  return D.squaredNorm() > kNarrow * norm2;
}

LatentValue QueryNeighbourhood::at(const double* offset) const {
  const Eigen::Map<const VectorXd> D(offset, Index(size()));
  const LatentWeights& w = moving_->weights();
  const VectorXd a = centre_J_ + D;  // the point's own coordinates on J
  const double norm2 = rest_ + a.squaredNorm();
  if (!(a.cwiseAbs().maxCoeff() < 1e150) || !std::isfinite(norm2)) {
    // |ã|^2 or ã'Mã overflows (coordinates past ~1e150, e.g. a set of radius 1e154 around a small query, the limit
    // over_box takes too): m and s2 depend on
    // ã only through its direction, so the point's own forms are taken at ã t for a power of two t (exact scaling)
    // that brings its largest coordinate near 1.
    const int exponent = std::ilogb(std::max(a.cwiseAbs().maxCoeff(), std::sqrt(rest_)));
    const double t = std::ldexp(1.0, -exponent - 1);
    const VectorXd ta = t * a;
    const double scaled_norm2 = t * t * rest_ + ta.squaredNorm();
    const double numerator = t * numerator_off_ + ta.dot(moving_->u_J());
    const double quadratic = t * t * quadratic_off_ + 2.0 * ta.dot(t * g_off_) + ta.dot(moving_->M_JJ() * ta);
    return {std::sqrt(w.variance) * numerator / std::sqrt(scaled_norm2), w.variance * (2.0 - quadratic / scaled_norm2)};
  }
  double numerator, quadratic;
  if (far(D, norm2)) {
    numerator = numerator_off_ + a.dot(moving_->u_J());
    quadratic = quadratic_off_ + 2.0 * a.dot(g_off_) + a.dot(moving_->M_JJ() * a);
  } else {
    numerator = numerator_ + D.dot(moving_->u_J());
    quadratic = quadratic_ + 2.0 * D.dot(g_) + D.dot(moving_->M_JJ() * D);
  }
  return {std::sqrt(w.variance) * numerator / std::sqrt(norm2), w.variance * (2.0 - quadratic / norm2)};
}

void QueryNeighbourhood::slopes(const double* offset, double* mean_slope, double* variance_slope) const {
  const Index k = Index(size());
  const Eigen::Map<const VectorXd> D(offset, k);
  const LatentWeights& w = moving_->weights();
  const VectorXd a = centre_J_ + D;
  const double norm2 = rest_ + a.squaredNorm();
  const bool from_a = far(D, norm2);
  const double numerator = from_a ? numerator_off_ + a.dot(moving_->u_J()) : numerator_ + D.dot(moving_->u_J());
  const VectorXd Ma = from_a ? VectorXd(g_off_ + moving_->M_JJ() * a) : VectorXd(g_ + moving_->M_JJ() * D);  // (Mã)_J
  const double rho = (from_a ? quadratic_off_ + 2.0 * a.dot(g_off_) + a.dot(moving_->M_JJ() * a)
                             : quadratic_ + 2.0 * D.dot(g_) + D.dot(moving_->M_JJ() * D)) /
                     norm2;
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

LatentBounds QueryNeighbourhood::trivial() const {
  const LatentWeights& w = moving_->weights();
  const double cap = std::sqrt(w.variance) * safe_norm(w.u);  // |ã'u| / |ã| <= |u|
  return widen({-cap, cap}, {0.0, w.rayleigh_max});
}

LatentBounds QueryNeighbourhood::over_box(const double* lower, const double* upper, double ball_radius) const {
  const Index k = Index(size());
  // A box whose squares overflow (coordinates past ~1e154, reached by a set of radius 1e154 around a small query;
  // the certificate rescales its queries before that, other callers need not): |m| <= sqrt(v)|u| and
  // rho in [0, rayleigh_max] hold everywhere.
  for (Index j = 0; j < k; ++j) {
    if (!(std::fabs(centre_J_[j]) + std::max(std::fabs(lower[j]), std::fabs(upper[j])) < 1e150)) return trivial();
  }
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
  if (!(norm2.upper <= kNarrow * norm2.lower)) return over_wide_box(lower, upper, norm2);
  // A narrow box far from a* (its offsets larger than its own points, as far() decides for one point): the offset
  // forms c'u + D'u_J and c'Mc + 2 D'g + D'M_JJ D would cancel two numbers of |c| (~|D|) down to the box's own size,
  // losing their digits (a box near the origin of a set around 1e10 e_0: c'Mc ~ 1e20 against a value ~1), so every
  // form is taken from the box's own coordinates a_J = c_J + D instead (c_off'u + a_J'u_J, ...), as at() takes its
  // point, with the sums' rounding allowed for from their terms' sizes.
  double largest_offset2 = 0.0;
  for (Index j = 0; j < k; ++j) largest_offset2 += std::max(lower[j] * lower[j], upper[j] * upper[j]);
  const bool from_a = !(largest_offset2 <= kNarrow * norm2.lower);
  VectorXd a_e(k), largest(k);
  for (Index j = 0; j < k; ++j) {
    a_e[j] = centre_J_[j] + e[j];
    largest[j] = std::max(std::fabs(centre_J_[j] + lower[j]), std::fabs(centre_J_[j] + upper[j]));
  }
  if (from_a) {
    numerator = {numerator_off_, numerator_off_};
    for (Index j = 0; j < k; ++j) {
      const double u = moving_->u_J()[j];
      const double lo = centre_J_[j] + lower[j], hi = centre_J_[j] + upper[j];
      numerator.lower += std::min(lo * u, hi * u);
      numerator.upper += std::max(lo * u, hi * u);
    }
  }
  const VectorXd Me = moving_->M_JJ() * (from_a ? a_e : e);
  const VectorXd Mh = moving_->abs_M_JJ() * h;
  const VectorXd Ma = (from_a ? g_off_ : g_) + Me;  // (Mã)_J at the box's centre
  const double q_e =
      from_a ? quadratic_off_ + 2.0 * a_e.dot(g_off_) + a_e.dot(Me) : quadratic_ + 2.0 * e.dot(g_) + e.dot(Me);
  const double linear = 2.0 * h.dot(Ma.cwiseAbs());
  const double spread = std::min(h.dot(Mh), moving_->lambda() * h.squaredNorm());
  Interval quadratic{std::max(0.0, q_e - linear), q_e + linear + spread};
  if (from_a) {
    allow_for_sums(&numerator, &norm2, &quadratic, numerator_off_size_ + largest.dot(moving_->u_J().cwiseAbs()),
                   quadratic_off_size_ + 2.0 * largest.dot(abs_g_off_) + largest.dot(moving_->abs_M_JJ() * largest) +
                       linear + spread);
  }
  Interval mean = mean_range(numerator, norm2), rho = rayleigh_range(quadratic, norm2);

  // Mean-value forms around the centre p: f(a) = f(p) + G'(a - p) with G_j in the range of df/da_j over
  // the box (from the intervals above), G_j = mid_j + r_j, |r_j| <= radius_j, so
  //   G'(a - p) in mid'(a - p) +- sum_j radius_j h_j,  mid'(a - p) in +- sum_j |mid_j| h_j,
  // and, inside the ball |a - a*| <= ball_radius as well, mid'(a - p) in -mid'e +- ball_radius |mid|.
  // The excess shrinks like width^2 (the quotients' above only like width), which is what lets
  // branch and bound close; the ball term keeps boxes that straddle the ball's sphere tight.
  const double sqrt_v = std::sqrt(moving_->weights().variance);
  const double numerator_e = from_a ? numerator_off_ + a_e.dot(moving_->u_J()) : numerator_ + e.dot(moving_->u_J());
  const double norm2_e = rest_ + a_e.squaredNorm();
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
      // shift and reach can be large numbers (offsets ~|a*|) whose difference is the box's own: their rounding.
      const double shift = -mid.dot(e), reach = ball_radius * safe_norm(mid);
      const double slack = sums_rounding_ * (mid.cwiseAbs().dot(e.cwiseAbs()) + reach);
      r = intersect(r, {shift - reach - slack, shift + reach + slack});
    }
    return r;
  };
  const Interval mean_linear = linear_range(mean_mid), rho_linear = linear_range(rho_mid);
  const double mean_e = sqrt_v * numerator_e / std::sqrt(norm2_e), rho_e = q_e / norm2_e;
  mean = intersect(mean, {mean_e + mean_linear.lower - mean_spread, mean_e + mean_linear.upper + mean_spread});
  rho = intersect(rho, {rho_e + rho_linear.lower - rho_spread, rho_e + rho_linear.upper + rho_spread});
  return widen(mean, rho);
}

LatentBounds QueryNeighbourhood::over_wide_box(const double* lower, const double* upper, Interval norm2) const {
  // Every sum from the points' own coordinates a_J (c_off'u + a_J'u_J, ...), widened by its rounding.
  const Index k = Index(size());
  Interval numerator{numerator_off_, numerator_off_};
  VectorXd a_e(k), h(k), largest(k);
  for (Index j = 0; j < k; ++j) {
    const double u = moving_->u_J()[j];
    const double lo = centre_J_[j] + lower[j], hi = centre_J_[j] + upper[j];  // a_j's range
    numerator.lower += std::min(lo * u, hi * u);
    numerator.upper += std::max(lo * u, hi * u);
    a_e[j] = centre_J_[j] + (lower[j] + 0.5 * (upper[j] - lower[j]));
    h[j] = 0.5 * (upper[j] - lower[j]);
    largest[j] = std::max(std::fabs(lo), std::fabs(hi));
  }
  const VectorXd M_a_e = moving_->M_JJ() * a_e;
  const VectorXd Ma = g_off_ + M_a_e;  // (Mã)_J at the box's centre
  const double q_e = quadratic_off_ + 2.0 * a_e.dot(g_off_) + a_e.dot(M_a_e);
  const double linear = 2.0 * h.dot(Ma.cwiseAbs());
  const double spread = std::min(h.dot(moving_->abs_M_JJ() * h), moving_->lambda() * h.squaredNorm());
  Interval quadratic{std::max(0.0, q_e - linear), q_e + linear + spread};
  allow_for_sums(&numerator, &norm2, &quadratic, numerator_off_size_ + largest.dot(moving_->u_J().cwiseAbs()),
                 quadratic_off_size_ + 2.0 * largest.dot(abs_g_off_) + largest.dot(moving_->abs_M_JJ() * largest) +
                     linear + spread);
  return widen(mean_range(numerator, norm2), rayleigh_range(quadratic, norm2));
}

LatentBounds QueryNeighbourhood::over_ball(double gamma) const {
  const double r = safe_norm(centre_J_);
  const double reach = gamma * safe_norm(moving_->u_J());
  const double lo = std::max(0.0, r - gamma), hi = r + gamma;
  const double linear = 2.0 * gamma * safe_norm(g_);
  Interval numerator{numerator_ - reach, numerator_ + reach};
  Interval norm2{rest_ + lo * lo, rest_ + hi * hi};
  Interval quadratic{std::max(0.0, quadratic_ - linear), quadratic_ + linear + moving_->lambda() * gamma * gamma};
  if (!(norm2.upper <= kNarrow * norm2.lower)) {
    // A wide ball: the interval forms alone, widened by their sums' rounding (offsets D with
    // |D| <= gamma: |D|'|u_J| <= gamma |u_J|, |D|'|M_JJ||D| <= gamma^2 |M_JJ|_F).
    allow_for_sums(
        &numerator, &norm2, &quadratic, numerator_size_ + reach,
        quadratic_size_ + 2.0 * gamma * safe_norm(abs_g_) + gamma * gamma * moving_->M_JJ().stableNorm() + linear);
    return widen(mean_range(numerator, norm2), rayleigh_range(quadratic, norm2));
  }
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
  const double mean_slope =
      safe_norm(moving_->u_J() - t_c * centre_J_) + std::fabs(t_c) * gamma + t_spread * (r + gamma);
  const double rho_slope =
      safe_norm(g_ - rho_c * centre_J_) + std::max(moving_->lambda() - rho_c, rho_c) * gamma + rho_spread * (r + gamma);
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
  const double cap = sqrt_v * safe_norm(moving_->weights().u);  // |ã'u| / |ã| <= |u|
  const Interval m = over(numerator, {std::sqrt(norm2.lower), std::sqrt(norm2.upper)});
  return {std::max(sqrt_v * m.lower, -cap), std::min(sqrt_v * m.upper, cap)};
}

Interval QueryNeighbourhood::rayleigh_range(Interval quadratic, Interval norm2) const {
  return {std::max(0.0, quadratic.lower / norm2.upper),
          std::min(moving_->weights().rayleigh_max, quadratic.upper / norm2.lower)};
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
