#include "gpprobe/certify/multiclass_box_bounds.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <Eigen/Dense>

#include "certify/exponential_sum_bounds.h"
#include "certify/row_quadratic_range.h"
#include "certify/separable_quadratic.h"
#include "common/numeric_constants.h"
#include "linalg/signed_lower_products.h"

namespace gpprobe {

namespace multiclass_box_detail {

// The box's view of one class's exponentials e_i = e^{-z_i}.
struct ClassView {
  MovingInputs inputs;
  const std::vector<double>* fixed_z;
  ExponentFactors e;
  std::vector<double> centre;    // e_i at the box centre
  std::vector<double> centre_z;  // z_i at the box centre
  double largest_zU = 0.0;
};

// An upper bound of |M delta(x)|^2 over the box, delta_i(x) = e_i(x) - e_i(c) (c the box centre), for a
// lower-triangular M (n by n) with residual bound `residual` (|delta' (P - M'M) delta| <= residual |delta|^2
// for the matrix P that M factors): every row (M delta)_r is an exponential sum, bounded by the lines of
// e_i (tangent below, chord above, exchanged where M_ri < 0) minimised exactly over the box in the
// coordinates u = x - c (separable), and intersected with interval arithmetic on delta's ranges; the bound
// is sum_r max(lo_r^2, hi_r^2). O(n^2 k).
double factor_remainder(const RowMatrix& M, double residual, const ClassView& v, const Box& box, double rounding) {
  const std::size_t n = v.inputs.n, k = v.inputs.k;
  const std::vector<double> centre = box.centre();
  std::vector<double> half(k);
  for (std::size_t a = 0; a < k; ++a) half[a] = 0.5 * (box.upper[a] - box.lower[a]);
  const std::size_t block = 2 + k, chords = block, delta_low = 2 * block, delta_high = delta_low + 1,
                    mass = delta_low + 2, ec = delta_low + 3, m = delta_low + 4;
  std::vector<double> V(n * m);
  double delta_squared = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    double* row = V.data() + i * m;
    const ExponentFactors::Line lines[2] = {v.e.tangent(1.0, i), v.e.chord(1.0, i)};
    for (std::size_t which = 0; which < 2; ++which) {
      double* line = row + which * block;
      line[0] = lines[which].a + lines[which].b * v.centre_z[i];
      line[1] = lines[which].b;
      for (std::size_t a = 0; a < k; ++a) line[2 + a] = lines[which].b * (v.inputs.column(a)[i] - centre[a]);
    }
    row[delta_low] = v.e.high[i] - v.centre[i];
    row[delta_high] = v.e.low[i] - v.centre[i];
    row[mass] = v.e.low[i] * (1.0 + v.e.zU[i]);
    row[ec] = v.centre[i];
    const double d = std::max(std::abs(row[delta_low]), std::abs(row[delta_high]));
    delta_squared += d * d;
  }
  std::vector<double> plus(n * m), minus(n * m);
  signed_lower_products(M.data(), n, V.data(), m, plus.data(), minus.data());
  double remainder = 0.0;
  for (std::size_t r = 0; r < n; ++r) {
    const double* P = plus.data() + r * m;
    const double* N = minus.data() + r * m;
    double lower, upper;
    row_quadratic_range(P, N, chords, k, v.inputs.theta, half.data(), &lower, &upper);
    const double allowance = rounding * (P[mass] - N[mass]);
    const double at_centre = P[ec] + N[ec];
    const double lo = std::max(lower - at_centre, P[delta_low] + N[delta_high]) - allowance;
    const double hi = std::min(upper - at_centre, P[delta_high] + N[delta_low]) + allowance;
    remainder += std::max(lo * lo, hi * hi);
  }
  return remainder * (1.0 + rounding) + residual * delta_squared;
}

// Bounds of S = sum_il R_il e_i e_l over the box for one class's exponentials and a matrix R whose
// symmetric part's quadratic remainder delta' R delta is known to lie in `quadratic`: term by term, and
// the centred form S(c) + w'delta + [quadratic], w = (R + R') e(c) one exponential sum; intersected.
Interval same_view_sum(const RowMatrix& R, const ClassView& v, const Box& box, double rounding, Interval quadratic) {
  const Eigen::Index n = R.rows();
  double lo = 0.0, hi = 0.0, mass = 0.0;
  const Eigen::Map<const Eigen::VectorXd> c(v.centre.data(), n);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const std::size_t ii = std::size_t(i);
    double pos_high = 0.0, pos_low = 0.0, neg_high = 0.0, neg_low = 0.0, row_c = 0.0;
    const double* row = R.data() + i * n;
    for (Eigen::Index l = 0; l < n; ++l) {
      const double r = row[l];
      const std::size_t ll = std::size_t(l);
      // Without a branch on r's sign (unpredictable: R has both), the same sums: the other side adds an exact 0.
      const double rp = r >= 0.0 ? r : 0.0, rn = r >= 0.0 ? 0.0 : r;
      pos_high += rp * v.e.high[ll];
      pos_low += rp * v.e.low[ll];
      neg_high += rn * v.e.high[ll];
      neg_low += rn * v.e.low[ll];
      row_c += r * c[l];
      w[l] += r * c[i];
    }
    lo += v.e.high[ii] * pos_high + v.e.low[ii] * neg_low;
    hi += v.e.low[ii] * pos_low + v.e.high[ii] * neg_high;
    mass += v.e.low[ii] * (pos_low - neg_low);
    w[i] += row_c;
  }
  const double at_centre = 0.5 * c.dot(w);
  const ExponentialSumBounds linear = exponential_sum_bounds(w.data(), v.e, v.inputs, *v.fixed_z, box, rounding);
  const double wc = w.dot(c);
  const Interval centred{at_centre + (linear.value.lower - wc) + quadratic.lower,
                         at_centre + (linear.value.upper - wc) + quadratic.upper};
  const double size = std::max(std::abs(quadratic.lower), std::abs(quadratic.upper));
  const double allowance = rounding * mass * (1.0 + 2.0 * v.largest_zU) + rounding * (mass + size);
  return {std::max(lo, centred.lower) - allowance, std::min(hi, centred.upper) + allowance};
}

// Bounds of S = sum_il R_il e_i^p e_l^q over the box: term by term, and the centred form; intersected.
Interval pairwise_sum(const RowMatrix& R, const ClassView& p, const ClassView& q, const Box& box, double rounding) {
  const Eigen::Index n = R.rows();
  double lo = 0.0, hi = 0.0, mass = 0.0, quad = 0.0;
  Eigen::VectorXd g = Eigen::VectorXd::Zero(n), h(n);
  const Eigen::Map<const Eigen::VectorXd> cp(p.centre.data(), n), cq(q.centre.data(), n);
  std::vector<double> dq(std::size_t(n), 0.0);
  for (Eigen::Index l = 0; l < n; ++l) {
    dq[std::size_t(l)] =
        std::max(std::abs(q.e.low[std::size_t(l)] - cq[l]), std::abs(q.e.high[std::size_t(l)] - cq[l]));
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    const std::size_t ii = std::size_t(i);
    double pos_high = 0.0, pos_low = 0.0, neg_high = 0.0, neg_low = 0.0, row_h = 0.0, row_abs = 0.0;
    const double* row = R.data() + i * n;
    for (Eigen::Index l = 0; l < n; ++l) {
      const double r = row[l];
      const std::size_t ll = std::size_t(l);
      // Without a branch on r's sign (unpredictable: R has both), the same sums: the other side adds an exact 0.
      const double rp = r >= 0.0 ? r : 0.0, rn = r >= 0.0 ? 0.0 : r;
      pos_high += rp * q.e.high[ll];
      pos_low += rp * q.e.low[ll];
      neg_high += rn * q.e.high[ll];
      neg_low += rn * q.e.low[ll];
      row_h += r * cq[l];
      row_abs += std::abs(r) * dq[ll];
      g[l] += r * cp[i];
    }
    lo += p.e.high[ii] * pos_high + p.e.low[ii] * neg_low;
    hi += p.e.low[ii] * pos_low + p.e.high[ii] * neg_high;
    mass += p.e.low[ii] * (pos_low - neg_low);
    h[i] = row_h;
    const double dp = std::max(std::abs(p.e.low[ii] - cp[i]), std::abs(p.e.high[ii] - cp[i]));
    quad += dp * row_abs;
  }
  const double at_centre = cp.dot(h);
  const ExponentialSumBounds lin_q = exponential_sum_bounds(g.data(), q.e, q.inputs, *q.fixed_z, box, rounding);
  const ExponentialSumBounds lin_p = exponential_sum_bounds(h.data(), p.e, p.inputs, *p.fixed_z, box, rounding);
  const double gq = g.dot(cq), hp = h.dot(cp);
  const Interval centred{at_centre + (lin_q.value.lower - gq) + (lin_p.value.lower - hp) - quad,
                         at_centre + (lin_q.value.upper - gq) + (lin_p.value.upper - hp) + quad};
  const double allowance = rounding * mass * (1.0 + p.largest_zU + q.largest_zU) + rounding * (mass + quad);
  return {std::max(lo, centred.lower) - allowance, std::min(hi, centred.upper) + allowance};
}

Interval minus(Interval a, Interval b) { return {a.lower - b.upper, a.upper - b.lower}; }

constexpr double kStandardNormalDensityAtOne = 0.24197072451914337;  // phi(1) = e^{-1/2} / sqrt(2 pi)

// F_c(m, Gamma) = E[softmax_c(g)], g ~ N(m, Gamma) over the D differences, with its quadrature's error
// allowance (10 times the estimate plus 1e-12); nullopt when the quadrature fails.
struct Expectation {
  double value, error;
};
std::optional<Expectation> expectation(const Eigen::VectorXd& m, const Eigen::MatrixXd& gamma, std::size_t c,
                                       const std::function<bool()>& stop) {
  const Eigen::Index D = m.size();
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(D + 1);
  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(D + 1, D + 1);
  mean.head(D) = m;
  cov.topLeftCorner(D, D) = gamma;
  SoftmaxExpectationOptions quadrature;
  quadrature.tolerance = 1e-9;  // far below any gap here; the allowance takes 10 times its estimate
  quadrature.stop = stop;       // a stopped quadrature is not converged: no value
  Result<SoftmaxExpectation> e = softmax_expectation(mean, cov, quadrature);
  if (!e.ok() || !e.value().converged || !std::isfinite(e.value().probabilities[c])) return std::nullopt;
  return Expectation{e.value().probabilities[c], 10.0 * e.value().error_estimate + 1e-12};
}

// F_c with its Hessian in m in one node sweep (softmax_difference_moments), the Hessian's entries with their error
// allowances (10 times the carried estimates plus 1e-12 per sum carried the same way); nullopt when that quadrature
// fails or does not converge (the caller then takes second differences of F).
struct ExpectationCurvature {
  Expectation value;
  Eigen::MatrixXd hessian, hessian_error;
};
std::optional<ExpectationCurvature> expectation_curvature(const Eigen::VectorXd& m, const Eigen::MatrixXd& gamma,
                                                          std::size_t c, const std::function<bool()>& stop) {
  const Eigen::Index D = m.size();
  SoftmaxExpectationOptions quadrature;
  quadrature.tolerance = 1e-9;  // as expectation()
  quadrature.stop = stop;
  Result<SoftmaxMoments> e = softmax_difference_moments(m, gamma, quadrature);
  if (!e.ok() || !e.value().converged || !std::isfinite(e.value().probabilities[c])) return std::nullopt;
  const SoftmaxMoments& moments = e.value();
  // hessian_error = 2 e r r' + rounding with e the estimate: 10 times it, plus 2 (1e-12) r r' for the 1e-12 per sum.
  const Eigen::LLT<Eigen::MatrixXd> llt(0.5 * (gamma + gamma.transpose()));
  const Eigen::MatrixXd Linv = llt.matrixL().solve(Eigen::MatrixXd::Identity(D, D));
  const Eigen::VectorXd r = Linv.cwiseAbs().colwise().sum().transpose() * (1.0 + 1e-12);
  ExpectationCurvature out{
      {moments.probabilities[c], 10.0 * moments.error_estimate + 1e-12}, Eigen::MatrixXd(D, D), Eigen::MatrixXd(D, D)};
  for (Eigen::Index a = 0; a < D; ++a)
    for (Eigen::Index b = 0; b < D; ++b) {
      const std::size_t at = (c * std::size_t(D) + std::size_t(a)) * std::size_t(D) + std::size_t(b);
      out.hessian(a, b) = moments.hessian[at];
      out.hessian_error(a, b) = 10.0 * moments.hessian_error[at] + 2e-12 * r[a] * r[b];
    }
  return out;
}

// The vertex bound's covariance geometry over a box: Gamma_0, the intervals of Gamma - Gamma_0, their sum of
// largest magnitudes and squared Frobenius bound, a lower bound lambda of the smallest eigenvalue on every
// segment Gamma_0 -> Gamma (<= 0: unknown), and the whitened norms.
struct VertexGeometry {
  Eigen::MatrixXd centre, centre_inverse;
  std::vector<Interval> delta;
  double sum_abs = 0.0, frobenius_squared = 0.0, lambda = 0.0;
  // Bounds of |Gamma_0^-1/2 dGamma Gamma_0^-1/2|_F and _*, and 1 - (bounds of its spectral norm and of the
  // square root's rounding); > 0 means every Gamma(t) is positive definite.
  double whitened_frobenius = 0.0, whitened_nuclear = 0.0, whitened_shrink = 0.0;
};

VertexGeometry vertex_geometry(const std::vector<Interval>& covariance, const std::vector<double>& centre) {
  const std::size_t D = std::size_t(std::llround(std::sqrt(double(centre.size()))));
  VertexGeometry g;
  g.centre = Eigen::MatrixXd(D, D);
  Eigen::MatrixXd mid(D, D);
  double radius_row = 0.0;
  for (std::size_t j = 0; j < D; ++j) {
    double row = 0.0;
    for (std::size_t k = 0; k < D; ++k) {
      const Interval& b = covariance[j * D + k];
      const double g0 = centre[j * D + k];
      g.centre(Eigen::Index(j), Eigen::Index(k)) = g0;
      // Gamma - Gamma_0 over the box, widened by the rounding of these differences.
      const double slack = 4.0 * kUnitRoundoff * std::max({std::abs(b.lower), std::abs(b.upper), std::abs(g0)});
      g.delta.push_back({b.lower - g0 - slack, b.upper - g0 + slack});
      const double most = std::max(std::abs(g.delta.back().lower), std::abs(g.delta.back().upper));
      g.sum_abs += most;
      g.frobenius_squared += most * most;
      mid(Eigen::Index(j), Eigen::Index(k)) = 0.5 * (b.lower + b.upper);
      row += 0.5 * (b.upper - b.lower) + slack;
    }
    radius_row = std::max(radius_row, row);
  }
  // lambda_min over the segments Gamma_0 -> Gamma: lambda_min is concave, so it is at least the smaller of
  // lambda_min(Gamma_0) and a lower bound over the interval matrix: lambda_min(mid) - rho(radius) (Weyl, with
  // |Gamma - mid| <= radius entrywise so |Gamma - mid|_2 <= rho(radius) <= its largest row sum), each eigenvalue
  // less a rounding allowance.
  const double scale = 16.0 * kUnitRoundoff * double(D + 1) * (mid.cwiseAbs().sum() + g.centre.cwiseAbs().sum());
  const double at_centre =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(g.centre, Eigen::EigenvaluesOnly).eigenvalues()(0);
  const double at_mid = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(mid, Eigen::EigenvaluesOnly).eigenvalues()(0);
  g.lambda = std::min(at_centre, at_mid - radius_row) - scale;
  if (!(at_centre > scale)) return g;
  g.centre_inverse = g.centre.inverse();
  // Whitened: with W = Gamma_0^{-1/2} (computed), Gamma(t) = W^-1 (I + E + t B0) W^-1, B0 = W dGamma W, E = W Gamma_0 W - I
  // (rounding). |B0| <= |W| |dGamma| |W| entrywise (|dGamma| the largest magnitudes), so |B0|_F <= whitened_frobenius
  // and |B0|_2 <= rho(|W| |dGamma| |W|) <= its largest row sum; |E|_2 <= |E|_F.
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(g.centre);
  const Eigen::MatrixXd W = eigen.eigenvectors() * eigen.eigenvalues().cwiseSqrt().cwiseInverse().asDiagonal() *
                            eigen.eigenvectors().transpose();
  Eigen::MatrixXd magnitude(D, D);
  for (std::size_t j = 0; j < D; ++j)
    for (std::size_t k = 0; k < D; ++k) {
      const Interval& d = g.delta[j * D + k];
      magnitude(Eigen::Index(j), Eigen::Index(k)) = std::max(std::abs(d.lower), std::abs(d.upper));
    }
  const Eigen::MatrixXd whitened = W.cwiseAbs() * magnitude * W.cwiseAbs();
  const double E = (W * g.centre * W - Eigen::MatrixXd::Identity(D, D)).norm() + scale / at_centre;
  double frobenius = whitened.norm(), spectral = whitened.rowwise().sum().maxCoeff(),
         nuclear = std::sqrt(double(D)) * frobenius;
  // The three norms of W dGamma W are convex in dGamma's D (D + 1) / 2 free entries, so over the box of their
  // intervals they are largest at a vertex: exact maxima by enumeration while there are at most 2^10 vertices.
  const std::size_t free = D * (D + 1) / 2;
  if (free <= 10) {
    double most_f = 0.0, most_2 = 0.0, most_n = 0.0;
    Eigen::MatrixXd delta(D, D);
    for (std::size_t mask = 0; mask < (std::size_t(1) << free); ++mask) {
      std::size_t bit = 0;
      for (std::size_t j = 0; j < D; ++j)
        for (std::size_t k = j; k < D; ++k, ++bit) {
          const Interval& d = g.delta[j * D + k];
          delta(Eigen::Index(j), Eigen::Index(k)) = delta(Eigen::Index(k), Eigen::Index(j)) =
              (mask >> bit) & 1 ? d.upper : d.lower;
        }
      const Eigen::MatrixXd b = W * delta * W;
      const Eigen::VectorXd eigenvalues =
          Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(b, Eigen::EigenvaluesOnly).eigenvalues();
      most_f = std::max(most_f, b.norm());
      most_2 = std::max(most_2, eigenvalues.cwiseAbs().maxCoeff());
      most_n = std::max(most_n, eigenvalues.cwiseAbs().sum());
    }
    // Rounding of these small products and eigenvalues: relative 1e-12 plus an absolute term.
    const double slack = 64.0 * kUnitRoundoff * double(D + 1) * (W.cwiseAbs() * magnitude * W.cwiseAbs()).sum();
    frobenius = std::min(frobenius, most_f * (1.0 + 1e-12) + slack);
    spectral = std::min(spectral, most_2 * (1.0 + 1e-12) + slack);
    nuclear = std::min(nuclear, most_n * (1.0 + 1e-12) + double(D) * slack);
  }
  g.whitened_frobenius = frobenius * (1.0 + 1e-12);
  g.whitened_nuclear = nuclear * (1.0 + 1e-12);
  g.whitened_shrink = 1.0 - E - spectral * (1.0 + 1e-12);
  return g;
}

std::optional<double> vertex_end(const std::vector<Interval>& mean, const VertexGeometry& g, std::size_t c,
                                 bool minimum, double target_gap, const std::function<bool()>& stop) {
  const std::size_t D = mean.size();
  const double sign = minimum ? -1.0 : 1.0;  // the end moves by sign * (allowance)
  const Eigen::Index Dn = Eigen::Index(D);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(Dn);
  for (std::size_t j = 0; j < D; ++j) {
    const Interval& m = mean[j];
    v[Eigen::Index(j)] = ((j == c) == minimum) ? m.lower : m.upper;
  }
  // Zeroth order: |F(v, Gamma) - F(v, Gamma_0)| <= 4/27 sum |dGamma_jk|, and <= phi(1) |dGamma|_* / lambda.
  // |F(v, Gamma) - F(v, Gamma_0)| <= sup_t 1/2 |A(t)|_2 |B(t)|_* with |A|_2 <= 2 phi(1), B(t) = L(t)^-1 dGamma L(t)^-T,
  // |B(t)|_* <= |dGamma|_* / lambda and, whitened, <= sqrt(D) |B0|_F / (1 - |E|_2 - |B0|_2).
  double zeroth = 4.0 / 27.0 * g.sum_abs;
  if (g.lambda > 0.0) {
    const double nuclear = std::min(g.sum_abs, std::sqrt(double(D) * g.frobenius_squared));
    zeroth = std::min(zeroth, kStandardNormalDensityAtOne * nuclear / g.lambda);
  }
  if (g.whitened_shrink > 0.0) {
    zeroth = std::min(zeroth, kStandardNormalDensityAtOne * g.whitened_nuclear / g.whitened_shrink);
  }
  const bool first_order =
      (g.lambda > 0.0 || g.whitened_shrink > 0.0) && g.centre_inverse.size() != 0 && zeroth > 0.5 * target_gap;
  // First order: F(v, Gamma) = F(v, Gamma_0) + 1/2 tr(dGamma H) + R2 with H = grad_m^2 F(v, Gamma_0),
  // |R2| <= sqrt(6)/8 |dGamma|_F^2 / lambda^2. H comes with F from one node sweep (the tensor rules, C <= 4), or where
  // that does not converge, from second differences of F in m.
  std::optional<ExpectationCurvature> curvature;
  if (first_order && D <= 3) curvature = expectation_curvature(v, g.centre, c, stop);
  const std::optional<Expectation> f0 = curvature ? curvature->value : expectation(v, g.centre, c, stop);
  if (!f0) return std::nullopt;
  double best = f0->value + sign * (zeroth + f0->error);
  // The second differences below are planned for a quadrature allowance of 1e-8: a larger one (quasi-Monte Carlo's
  // ~1e-3, C > 4) enters H's error as 4 eps / h^2 ~ 1, so the first order could not beat the zeroth; its 2 D (D + 1)
  // quadratures are skipped (either end is sound: this only chooses the work).
  const double planned = 10.0 * 1e-9 + 1e-12;
  if (!first_order || (!curvature && f0->error > planned)) return best;
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(Dn, Dn), H_error = Eigen::MatrixXd::Zero(Dn, Dn);
  if (curvature) {
    H = curvature->hessian;
    H_error = curvature->hessian_error;
  } else {
    const std::size_t pairs = D * (D + 1) / 2;
    std::vector<Eigen::VectorXd> directions;
    for (std::size_t j = 0; j < D; ++j) directions.push_back(Eigen::VectorXd::Unit(Eigen::Index(D), Eigen::Index(j)));
    for (std::size_t j = 0; j < D; ++j)
      for (std::size_t k = j + 1; k < D; ++k)
        directions.push_back(Eigen::VectorXd::Unit(Eigen::Index(D), Eigen::Index(j)) +
                             Eigen::VectorXd::Unit(Eigen::Index(D), Eigen::Index(k)));
    std::vector<double> second(pairs), error(pairs);
    for (std::size_t u = 0; u < pairs; ++u) {
      const Eigen::VectorXd& dir = directions[u];
      // |d^4 F / du^4| <= (u' Gamma_0^-1 u)^2 E[He_4^+] <= (u' Gamma_0^-1 u)^2 sqrt(24) / 2; the second difference's
      // truncation is h^2 / 12 of it and its rounding 4 eps / h^2: h^4 = 48 eps / (sqrt(24)/2 q^2) balances them.
      const double q = dir.dot(g.centre_inverse * dir) * (1.0 + 1e-10);
      const double fourth = 0.5 * std::sqrt(24.0) * q * q;
      const double h = std::pow(48.0 * planned / fourth, 0.25);
      const std::optional<Expectation> plus = expectation(v + h * dir, g.centre, c, stop);
      const std::optional<Expectation> minus = expectation(v - h * dir, g.centre, c, stop);
      if (!plus || !minus) return best;
      const double eps = std::max({f0->error, plus->error, minus->error});
      second[u] = (plus->value - 2.0 * f0->value + minus->value) / (h * h);
      error[u] = h * h / 12.0 * fourth + 4.0 * eps / (h * h) + 8.0 * kUnitRoundoff * std::abs(second[u]);
    }
    for (std::size_t j = 0; j < D; ++j) {
      H(Eigen::Index(j), Eigen::Index(j)) = second[j];
      H_error(Eigen::Index(j), Eigen::Index(j)) = error[j];
    }
    for (std::size_t j = 0, u = D; j < D; ++j)
      for (std::size_t k = j + 1; k < D; ++k, ++u) {
        const double h = 0.5 * (second[u] - second[j] - second[k]);
        const double e = 0.5 * (error[u] + error[j] + error[k]) + 4.0 * kUnitRoundoff * std::abs(second[u]);
        H(Eigen::Index(j), Eigen::Index(k)) = H(Eigen::Index(k), Eigen::Index(j)) = h;
        H_error(Eigen::Index(j), Eigen::Index(k)) = H_error(Eigen::Index(k), Eigen::Index(j)) = e;
      }
  }
  double linear = 0.0, linear_error = 0.0;
  for (std::size_t j = 0; j < D; ++j)
    for (std::size_t k = 0; k < D; ++k) {
      const Interval& d = g.delta[j * D + k];
      const double h = H(Eigen::Index(j), Eigen::Index(k));
      linear += minimum ? std::min(h * d.lower, h * d.upper) : std::max(h * d.lower, h * d.upper);
      linear_error += H_error(Eigen::Index(j), Eigen::Index(k)) * std::max(std::abs(d.lower), std::abs(d.upper));
    }
  // |B(t)|_F^2 <= |dGamma|_F^2 / lambda^2, and <= |B0|_F^2 / (1 - |E|_2 - |B0|_2)^2.
  double b_squared = kInfinity;
  if (g.lambda > 0.0) b_squared = g.frobenius_squared / (g.lambda * g.lambda);
  if (g.whitened_shrink > 0.0) {
    b_squared = std::min(b_squared, std::pow(g.whitened_frobenius / g.whitened_shrink, 2));
  }
  const double remainder = std::sqrt(6.0) / 8.0 * b_squared;
  const double first = f0->value + 0.5 * linear + sign * (0.5 * linear_error + remainder + f0->error) +
                       sign * 8.0 * kUnitRoundoff * (std::abs(f0->value) + std::abs(linear));
  return minimum ? std::max(best, first) : std::min(best, first);
}
Interval add(Interval a, Interval b) { return {a.lower + b.lower, a.upper + b.upper}; }

}  // namespace multiclass_box_detail

Interval softmax_vertex_bounds(const std::vector<Interval>& mean, const std::vector<Interval>& covariance,
                               const std::vector<double>& reference, std::size_t c, double target_gap,
                               LatentPartitionOptions::Ends ends, const std::function<bool()>& stop) {
  using namespace multiclass_box_detail;
  const std::size_t D = mean.size();
  if (D == 0 || c > D || covariance.size() != D * D || reference.size() != D * D) return {0.0, 1.0};
  const VertexGeometry geometry = vertex_geometry(covariance, reference);
  // The end not asked for gets the zeroth-order bound only (target_gap 1: no first-order step).
  const bool lower_first = ends != LatentPartitionOptions::Ends::upper,
             upper_first = ends != LatentPartitionOptions::Ends::lower;
  const std::optional<double> lower = vertex_end(mean, geometry, c, true, lower_first ? target_gap : 1.0, stop);
  const std::optional<double> upper = vertex_end(mean, geometry, c, false, upper_first ? target_gap : 1.0, stop);
  Interval out{0.0, 1.0};
  if (lower) out.lower = std::clamp(*lower, 0.0, 1.0);
  if (upper) out.upper = std::clamp(*upper, 0.0, 1.0);
  return out;
}

std::size_t MulticlassBoundTerms::pair_index(std::size_t p, std::size_t q) const {
  if (p > q) std::swap(p, q);
  return p * classes - p * (p + 1) / 2 + q;  // row p of the upper triangle
}

std::size_t MulticlassBoundTerms::bytes(std::size_t classes, std::size_t size, bool shared_scales) {
  const double C = double(classes), D = C - 1.0, n = double(size);
  const double minus = D <= double(kMaxMinusFactorDifferences) ? D * (D - 1.0) / 2.0 : 0.0;
  const double matrices = C * (C + 1.0) / 2.0 + (shared_scales ? D * (D + 1.0) + minus : 0.0);
  const double total = matrices * n * n * double(sizeof(double));
  return total >= double(SIZE_MAX) ? SIZE_MAX : std::size_t(total);
}

std::shared_ptr<const MulticlassBoundTerms> MulticlassBoundTerms::make(const MulticlassLaplace& model,
                                                                       const std::function<bool()>& stop) {
  const auto stopped = [&] { return stop && stop(); };
  auto terms = std::make_shared<MulticlassBoundTerms>();
  MulticlassBoundTerms& t = *terms;
  t.model = &model;
  t.classes = model.classes();
  t.size = model.size();
  const std::size_t C = t.classes, n = t.size, r = C - 1;
  for (std::size_t c = 0; c < C; ++c) {
    const SeArdKernel& kernel = model.kernels()[c];
    std::vector<double> w(n);
    for (std::size_t i = 0; i < n; ++i) w[i] = kernel.signal_variance * model.alpha()(Eigen::Index(i), Eigen::Index(c));
    t.weights.push_back(std::move(w));
    t.same_scales.push_back(kernel.length_scales == model.kernels()[r].length_scales);
  }
  // R^pq = s2_p s2_q (delta_pq E_p - N_p' N_q), N = M^-1 E.
  const auto lower = model.M().triangularView<Eigen::Lower>();
  std::vector<RowMatrix> N;
  for (std::size_t c = 0; c < C; ++c) N.push_back(lower.solve(model.E()[c]));
  t.R.resize(C * (C + 1) / 2);
  for (std::size_t p = 0; p < C; ++p)
    for (std::size_t q = p; q < C; ++q) {
      if (stopped()) return nullptr;
      RowMatrix Rpq = -(N[p].transpose() * N[q]);
      if (p == q) Rpq += model.E()[p];
      t.R[t.pair_index(p, q)] = model.kernels()[p].signal_variance * model.kernels()[q].signal_variance * Rpq;
    }
  bool all_same = true;
  for (bool s : t.same_scales) all_same = all_same && s;
  if (all_same) {
    const std::size_t D = C - 1;
    for (std::size_t j = 0; j < D; ++j)
      for (std::size_t k = j; k < D; ++k) {
        if (stopped()) return nullptr;
        t.difference_R.push_back(t.R[t.pair_index(j, k)] - t.R[t.pair_index(j, r)] -
                                 t.R[t.pair_index(k, r)].transpose() + t.R[t.pair_index(r, r)]);
      }
    // The positive semi-definite matrices of the variances of g_j (j < D) and of g_j + g_k (j < k < D), and
    // their lower-triangular factors P = M'M (multiclass_box_detail::factor_remainder).
    auto combined = [&](std::size_t j, std::size_t k) -> const RowMatrix& {
      std::size_t index = 0;
      for (std::size_t a = 0; a < j; ++a) index += D - a;
      return t.difference_R[index + (k - j)];
    };
    bool ok = true;
    for (std::size_t j = 0; j < D; ++j) {
      if (stopped()) return nullptr;
      ok = ok && add_factor(combined(j, j), t.factors, t.factor_residuals);
    }
    for (std::size_t j = 0; j < D; ++j)
      for (std::size_t k = j + 1; k < D; ++k) {
        if (stopped()) return nullptr;
        const RowMatrix& jk = combined(j, k);
        ok = ok && add_factor(combined(j, j) + combined(k, k) + jk + RowMatrix(jk.transpose()), t.factors,
                              t.factor_residuals);
      }
    if (!ok) {  // not positive semi-definite: no factor (the bounds stay the pairwise ones)
      t.factors.clear();
      t.factor_residuals.clear();
      t.factors_failed = true;
    }
    bool minus_ok = ok && D <= kMaxMinusFactorDifferences;
    for (std::size_t j = 0; j < D && minus_ok; ++j)
      for (std::size_t k = j + 1; k < D && minus_ok; ++k) {
        if (stopped()) return nullptr;
        const RowMatrix& jk = combined(j, k);
        minus_ok = add_factor(combined(j, j) + combined(k, k) - jk - RowMatrix(jk.transpose()), t.minus_factors,
                              t.minus_factor_residuals);
      }
    if (!minus_ok) {
      t.minus_factors.clear();
      t.minus_factor_residuals.clear();
    }
  }
  return terms;
}

MulticlassBoxBounds::MulticlassBoxBounds(const MulticlassLaplace& model, const RobustnessRegion& region,
                                         std::shared_ptr<const MulticlassBoundTerms> terms)
    : model_(&model), region_(&region) {
  n_ = model.size();
  C_ = model.classes();
  k_ = region.size();
  // Terms made for another model are never used: the bounds would be another model's.
  if (!terms || terms->model != &model || terms->classes != C_ || terms->size != n_)
    terms = MulticlassBoundTerms::make(model);
  terms_ = std::move(terms);
  const std::size_t d = model.dimension();
  const RowMatrix& X = model.inputs();
  std::vector<bool> moving(d, false);
  for (std::size_t j : region.dims()) moving[j] = true;
  moving_columns_.resize(k_ * n_);
  for (std::size_t a = 0; a < k_; ++a)
    for (std::size_t i = 0; i < n_; ++i)
      moving_columns_[a * n_ + i] = X(Eigen::Index(i), Eigen::Index(region.dims()[a]));
  for (std::size_t c = 0; c < C_; ++c) {
    const SeArdKernel& kernel = model.kernels()[c];
    std::vector<double> theta(d);
    for (std::size_t j = 0; j < d; ++j) theta[j] = 0.5 / (kernel.length_scales[j] * kernel.length_scales[j]);
    std::vector<double> moving_theta(k_), fixed(n_, 0.0);
    for (std::size_t a = 0; a < k_; ++a) moving_theta[a] = theta[region.dims()[a]];
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t j = 0; j < d; ++j) {
        if (moving[j]) continue;
        const double v = region.point()[j] - X(Eigen::Index(i), Eigen::Index(j));
        fixed[i] += theta[j] * v * v;
      }
    theta_.push_back(std::move(moving_theta));
    fixed_z_.push_back(std::move(fixed));
  }
}

bool MulticlassBoundTerms::add_factor(const RowMatrix& matrix, std::vector<RowMatrix>& out,
                                      std::vector<double>& residuals) {
  // P = (matrix + matrix') / 2 + tau I, factored in reversed order so that M is lower triangular: with J the
  // reversal, J P J = L L' gives P = M'M for M = J L' J. tau keeps the rounding from making a positive
  // semi-definite P indefinite; it only adds tau |delta|^2 >= 0 to |M delta|^2, which stays an upper bound.
  const Eigen::Index n = matrix.rows();
  const RowMatrix P = 0.5 * (matrix + RowMatrix(matrix.transpose()));
  double largest = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) largest = std::max(largest, std::abs(P(i, i)));
  for (double tau = 1e-13 * std::max(largest, 1e-300);; tau *= 100.0) {
    Eigen::MatrixXd reversed(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index l = 0; l < n; ++l) reversed(i, l) = P(n - 1 - i, n - 1 - l) + (i == l ? tau : 0.0);
    Eigen::LLT<Eigen::MatrixXd> llt(reversed);
    if (llt.info() != Eigen::Success) {
      if (tau > largest) return false;  // not positive semi-definite
      continue;
    }
    const Eigen::MatrixXd L = llt.matrixL();
    RowMatrix M = RowMatrix::Zero(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index l = 0; l <= i; ++l) M(i, l) = L(n - 1 - l, n - 1 - i);
    // |delta' (P - M'M) delta| <= rho(|P - M'M|) |delta|^2 <= (largest row sum of |P - M'M|) |delta|^2,
    // doubled for the rounding of this very check.
    const Eigen::MatrixXd residual = (Eigen::MatrixXd(P) - Eigen::MatrixXd(M.transpose() * M)).cwiseAbs();
    out.push_back(std::move(M));
    residuals.push_back(2.0 * residual.rowwise().sum().maxCoeff());
    return true;
  }
}

MulticlassLatentBounds MulticlassBoxBounds::latent(const Box& box) const {
  using namespace multiclass_box_detail;
  const std::size_t C = C_, D = C - 1, r = C - 1, n = n_;
  const double rounding = 8.0 * kUnitRoundoff * double(2 * n + k_ + 16);
  const std::vector<double> centre = box.centre();
  std::vector<ClassView> views;
  views.reserve(C);
  for (std::size_t c = 0; c < C; ++c) {
    const MovingInputs inputs{n, k_, moving_columns_.data(), theta_[c].data()};
    ClassView v{
        inputs, &fixed_z_[c], ExponentFactors(inputs, fixed_z_[c], box), std::vector<double>(n), std::vector<double>(n),
        0.0};
    for (std::size_t i = 0; i < n; ++i) {
      double z = fixed_z_[c][i];
      for (std::size_t a = 0; a < k_; ++a) {
        const double t = centre[a] - moving_columns_[a * n + i];
        z += theta_[c][a] * t * t;
      }
      v.centre[i] = std::exp(-z);
      v.centre_z[i] = z;
      v.largest_zU = std::max(v.largest_zU, v.e.zU[i]);
    }
    views.push_back(std::move(v));
  }
  MulticlassLatentBounds out;
  for (std::size_t c = 0; c < C; ++c) {
    ExponentialSumBounds m =
        exponential_sum_bounds(terms_->weights[c].data(), views[c].e, views[c].inputs, fixed_z_[c], box, rounding);
    out.mean.push_back(m.value);
    out.mean_lower_point.push_back(std::move(m.lower_point));
    out.mean_upper_point.push_back(std::move(m.upper_point));
  }
  out.covariance.assign(C * C, Interval{});
  for (std::size_t p = 0; p < C; ++p)
    for (std::size_t q = p; q < C; ++q) {
      const Interval S = pairwise_sum(terms_->R[terms_->pair_index(p, q)], views[p], views[q], box, rounding);
      const double s2p = model_->kernels()[p].signal_variance, s2q = model_->kernels()[q].signal_variance;
      Interval v{(p == q ? s2p : 0.0) - S.upper, (p == q ? s2p : 0.0) - S.lower};
      if (p == q) {
        v = {std::clamp(v.lower, 0.0, s2p), std::clamp(v.upper, 0.0, s2p)};
      } else {
        const double bound = std::sqrt(s2p * s2q);
        v = {std::clamp(v.lower, -bound, bound), std::clamp(v.upper, -bound, bound)};
      }
      out.covariance[p * C + q] = v;
      out.covariance[q * C + p] = v;
    }
  // The differences to the last class.
  for (std::size_t j = 0; j < D; ++j) {
    Interval m = minus(out.mean[j], out.mean[r]);
    if (terms_->same_scales[j]) {
      std::vector<double> w(n);
      for (std::size_t i = 0; i < n; ++i) w[i] = terms_->weights[j][i] - terms_->weights[r][i];
      m = intersect(m, exponential_sum_bounds(w.data(), views[r].e, views[r].inputs, fixed_z_[r], box, rounding).value);
    }
    out.difference_mean.push_back(m);
  }
  out.difference_covariance.assign(D * D, Interval{});
  std::size_t combined = 0;
  // Upper bounds of delta' P delta for the factored matrices (shared length-scales).
  std::vector<double> remainders;
  for (std::size_t f = 0; f < terms_->factors.size(); ++f)
    remainders.push_back(factor_remainder(terms_->factors[f], terms_->factor_residuals[f], views[r], box, rounding));
  std::vector<double> minus_remainders;
  if (!remainders.empty())
    for (std::size_t f = 0; f < terms_->minus_factors.size(); ++f)
      minus_remainders.push_back(
          factor_remainder(terms_->minus_factors[f], terms_->minus_factor_residuals[f], views[r], box, rounding));
  for (std::size_t j = 0; j < D; ++j)
    for (std::size_t k = j; k < D; ++k) {
      const auto& S = out.covariance;
      Interval v = add(minus(S[j * C + k], add(S[j * C + r], S[k * C + r])), S[r * C + r]);
      if (!terms_->difference_R.empty()) {
        Interval quadratic{-kInfinity, kInfinity};
        if (!remainders.empty()) {
          quadratic = j == k ? Interval{0.0, remainders[j]}
                             : Interval{-0.5 * (remainders[j] + remainders[k]), 0.5 * remainders[pair_factor(j, k)]};
          if (j != k && !minus_remainders.empty()) {
            // (P_{j+k} - P_{j-k}) / 4 (the rounding of the quarters is exact: powers of two).
            const Interval quarter{-0.25 * minus_remainders[pair_factor(j, k) - D],
                                   0.25 * remainders[pair_factor(j, k)]};
            quadratic = intersect(quadratic, quarter);
          }
        }
        const Interval sum = remainders.empty()
                                 ? pairwise_sum(terms_->difference_R[combined], views[r], views[r], box, rounding)
                                 : same_view_sum(terms_->difference_R[combined], views[r], box, rounding, quadratic);
        ++combined;
        const double constant =
            (j == k ? model_->kernels()[j].signal_variance : 0.0) + model_->kernels()[r].signal_variance;
        v = intersect(v, Interval{constant - sum.upper, constant - sum.lower});
      }
      if (j == k) v.lower = std::max(v.lower, 0.0);
      out.difference_covariance[j * D + k] = v;
      out.difference_covariance[k * D + j] = v;
    }
  // The exact moments at the centre.
  const std::vector<double> x = region_->full(centre);
  Result<MulticlassLatent> at = model_->latent(MatrixView(x.data(), 1, x.size()));
  if (at.ok()) {
    const Eigen::MatrixXd S = at.value().covariance_at(0);
    const Eigen::Index rr = Eigen::Index(r);
    for (Eigen::Index j = 0; j < rr; ++j) {
      out.centre_difference_mean.push_back(at.value().mean(0, j) - at.value().mean(0, rr));
      for (Eigen::Index k = 0; k < rr; ++k)
        out.centre_difference_covariance.push_back(S(j, k) - S(j, rr) - S(k, rr) + S(rr, rr));
    }
  }
  return out;
}

ClassProbabilityBounds MulticlassBoxBounds::probability(const MulticlassLatentBounds& latent,
                                                        const std::vector<std::size_t>& classes,
                                                        const LatentPartitionOptions& options) const {
  using namespace multiclass_box_detail;
  const std::size_t C = C_, D = C - 1;
  std::vector<std::size_t> asked = classes;
  if (asked.empty())
    for (std::size_t c = 0; c < C; ++c) asked.push_back(c);
  // The vertex bound (see the header).
  std::vector<Interval> vertex(C, Interval{0.0, 1.0});
  double vertex_gap = 1.0;
  if (latent.centre_difference_covariance.size() == D * D) {
    vertex_gap = 0.0;
    for (std::size_t c : asked) {
      vertex[c] =
          softmax_vertex_bounds(latent.difference_mean, latent.difference_covariance,
                                latent.centre_difference_covariance, c, options.target_gap, options.ends, options.stop);
      vertex_gap = std::max(vertex_gap, vertex[c].width());
    }
  }
  LatentPartitionOptions partition = options;
  if (vertex_gap <= options.target_gap) partition.max_cells = 0;  // the initial grid only
  ClassProbabilityBounds out =
      softmax_probability_bounds(latent.difference_mean, latent.difference_covariance, classes, partition);
  for (std::size_t c = 0; c < C; ++c) out.probability[c] = intersect(out.probability[c], vertex[c]);
  // The C probabilities sum to 1.
  double low = 0.0, high = 0.0;
  for (const Interval& i : out.probability) low += i.lower, high += i.upper;
  for (Interval& i : out.probability) {
    i = {std::max(i.lower, 1.0 - (high - i.upper)), std::min(i.upper, 1.0 - (low - i.lower))};
  }
  return out;
}

std::vector<double> MulticlassBoxBounds::probabilities_at(const std::vector<double>& moving,
                                                          const SoftmaxExpectationOptions& quadrature) const {
  const std::vector<double> x = region_->full(moving);
  return model_->probability_at(x.data(), quadrature);
}

}  // namespace gpprobe
