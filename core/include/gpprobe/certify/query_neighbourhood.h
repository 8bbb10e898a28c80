// Sound bounds of the probe's latent mean and variance over a set of queries around a query a*: a box
// of offsets on chosen coordinates J (the others stay at a*), or the L2 ball |a - a*| <= gamma within J
// (docs/design/certify.md, "The probe's certificate"). With ã = [a; 1], c = ã*, offsets D = a - a*
// on J and the weights u, M of latent_weights.h:
//
//   ã'u   = c'u + D'u_J                       exact range: box coordinate-wise, ball c'u +- gamma |u_J|
//   |ã|^2 = rest + |a*_J + D|^2               exact range (rest = 1 + sum of a*_i^2 off J)
//   ã'Mã  = c'Mc + 2 D'g + D'M_JJ D,  g = (Mc)_J        centred form:
//     box centred at offset e, half-widths h:  q_e +- 2 sum_j h_j |g_e,j| + [0, min(h'|M_JJ|h, lambda |h|^2)]
//                                              q_e = c'Mc + 2 e'g + e'M_JJ e,  g_e = g + M_JJ e
//     ball of radius gamma:                    c'Mc +- 2 gamma |g| + [0, lambda gamma^2]
//   (lambda an upper bound of the largest eigenvalue of M_JJ)
//
// then m = sqrt(v) ã'u/|ã| by interval division (and |m| <= sqrt(v)|u|), rho = ã'Mã/|ã|^2 in
// [Q_L / Dn_U, Q_U / Dn_L] ∩ [0, rayleigh_max], s2 = v (2 - rho). Both are intersected with their
// mean-value forms around the centre p of the set, with the derivatives
//   dm/da_j = sqrt(v) (u_j - ã'u a_j / |ã|^2) / |ã|,   drho/da_j = 2 ((Mã)_j - rho a_j) / |ã|^2
// bounded over the set from the ranges above: on a box f(p) +- sum_j h_j max|df/da_j| (interval
// arithmetic per coordinate; on a box's part inside a ball also the ball's limit on the linear term),
// on a ball f(a*) +- gamma max|grad_J f| (triangle inequalities, see the source). Their excess shrinks like width^2 (the quotients' like width: the Rayleigh quotient is
// scale-invariant, its interval quotient is not), which is also what lets branch and bound close.
// Every end is finally widened by the weights' rounding allowances, and the interval forms' sums by their
// own rounding from the sizes of their terms (a set reaching from far out towards the origin makes them
// small differences of large numbers); such a wide set (largest |ã|^2 over 4 times its smallest) is
// bounded by the interval forms alone, from its points' own coordinates a_J (not as c + D), and so is a
// point far from a* (|D|^2 > 4 |ã|^2); narrow sets and near points keep the offset forms.
// Euclidean norms fall back to stableNorm where squaring would underflow (weights near 1e-244) or overflow.
// A box costs O(k^2) for k = |J| moving coordinates; a query costs O(D^2) once.
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "gpprobe/certify/interval.h"
#include "gpprobe/certify/moving_coordinates.h"
#include "gpprobe/common/enum_names.h"
#include "gpprobe/probe/latent_weights.h"

namespace gpprobe {

// The two shapes of set around a*: the L-inf box and the L2 ball (of radius gamma, on J).
enum class QueryNorm { inf, two };
inline constexpr EnumNames<QueryNorm, 2> kQueryNormNames = {{{QueryNorm::inf, "inf"}, {QueryNorm::two, "2"}}};

// "inf" / "2".
inline const char* norm_name(QueryNorm norm) { return name_of(kQueryNormNames, norm); }
// invalid_argument "norm must be inf or 2, got 'x'".
inline Result<QueryNorm> parse_norm(const std::string& name) { return parse_name(kQueryNormNames, name, "norm"); }

struct LatentBounds {
  Interval mean;
  Interval variance;
};

// The latent around one query a*; offsets are k-vectors on the moving coordinates, in their order.
class QueryNeighbourhood {
 public:
  // centre: a* (d values, finite). `moving` must outlive this object. `augment` is the last entry of
  // ã = [a; augment]: 1 for the probe's queries, or t for a query rescaled by t (a power of two) so
  // that its squares cannot overflow: m and s2 depend on ã only through its direction, so the set
  // t (a* + D) with [t a; t] has the same latent as a* + D with [a; 1] (offsets then in units of t).
  QueryNeighbourhood(const MovingCoordinates& moving, const double* centre, double augment = 1.0);

  std::size_t size() const { return moving_->size(); }

  // Exact latent mean and variance at a* + offset, O(k^2).
  LatentValue at(const double* offset) const;
  // The gradients of the latent mean and variance with respect to the offset, at a* + offset.
  void slopes(const double* offset, double* mean_slope, double* variance_slope) const;
  // a* + offset as a full query (d values).
  std::vector<double> query(const double* offset) const;

  // Over the box of offsets [lower, upper] (k each), or over its part inside the ball
  // |offset| <= ball_radius when ball_radius >= 0 (the box must meet that ball).
  LatentBounds over_box(const double* lower, const double* upper, double ball_radius = -1.0) const;
  // Over the ball |offset| <= gamma.
  LatentBounds over_ball(double gamma) const;

 private:
  // m from ã'u and |ã|^2 by interval division, capped by sqrt(v)|u|; rho = ã'Mã/|ã|^2 in [0, rayleigh_max].
  Interval mean_range(Interval numerator, Interval norm2) const;
  Interval rayleigh_range(Interval quadratic, Interval norm2) const;
  // The latent bounds from m and rho ranges, every end widened by the rounding allowances.
  LatentBounds widen(Interval mean, Interval rho) const;
  // Bounds that hold for every query: |m| <= sqrt(v)|u|, rho in [0, rayleigh_max].
  LatentBounds trivial() const;
  // A box whose largest |ã|^2 exceeds kNarrow times its smallest (norm2: that range): interval forms
  // from the points' own coordinates, widened by their sums' rounding.
  LatentBounds over_wide_box(const double* lower, const double* upper, Interval norm2) const;
  // Whether the point c + D is evaluated from a_J = c_J + D rather than from the offset D.
  bool far(const Eigen::VectorXd& D, double norm2) const;
  // Widens the ranges of ã'u, |ã|^2 and ã'Mã by their sums' rounding, from the sizes of their terms.
  void allow_for_sums(Interval* numerator, Interval* norm2, Interval* quadratic, double numerator_size,
                      double quadratic_size) const;

  const MovingCoordinates* moving_;
  std::vector<double> centre_;  // a*, d
  Eigen::VectorXd centre_J_;    // a*_J, k
  double rest_ = 1.0;           // augment^2 + sum of a*_i^2 off J
  double numerator_ = 0.0;      // c'u
  double quadratic_ = 0.0;      // c'Mc
  Eigen::VectorXd g_;           // (Mc)_J, k
  // The same without the moving coordinates (c_off = c with c_J = 0): a point is a_J on top of these.
  double numerator_off_ = 0.0;  // c_off'u
  double quadratic_off_ = 0.0;  // c_off'M c_off
  Eigen::VectorXd g_off_;       // (M c_off)_J, k
  // Sizes of the terms: |c|'|u|, |c|'|M||c|, (|M||c|)_J, and the same of c_off.
  double numerator_size_ = 0.0, numerator_off_size_ = 0.0, quadratic_size_ = 0.0, quadratic_off_size_ = 0.0;
  Eigen::VectorXd abs_g_, abs_g_off_;
  double sums_rounding_ = 0.0;  // 2 eps (D + k + 8)
};

}  // namespace gpprobe
