#include "gpprobe/classification/multiclass_probability.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <string>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "gpprobe/classification/probability.h"
#include "gpprobe/common/random_stream.h"
#include "gpprobe/probe/gauss_hermite.h"

#include "common/input_checks.h"
#include "common/numeric_constants.h"
#include "linalg/lanes_math.h"

namespace gpprobe {

namespace multiclass_probability_detail {

// Neumaier's compensated sum.
struct CompensatedSum {
  double sum = 0.0, correction = 0.0;
  void add(double x) {
    const double t = sum + x;
    correction += std::abs(sum) >= std::abs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  double value() const { return sum + correction; }
};

// A rule for E[h(t)], t ~ N(0, 1), on one axis.
struct AxisRule {
  std::vector<double> t, w;
};

AxisRule hermite_axis(int n) {
  const GaussHermite gh = GaussHermite::make(n);
  return {gh.nodes, gh.weights};
}

AxisRule legendre_axis(int panels) {
  constexpr double kHalfWidth = 9.0;
  const GaussLegendre16& gl = gauss_legendre16();
  AxisRule rule;
  const double width = 2.0 * kHalfWidth / panels;
  for (int p = 0; p < panels; ++p) {
    const double centre = -kHalfWidth + (p + 0.5) * width;
    for (int k = 0; k < 16; ++k) {
      const double t = centre + 0.5 * width * gl.nodes[k];
      rule.t.push_back(t);
      rule.w.push_back(0.5 * width * gl.weights[k] * kInverseSqrtTwoPi * std::exp(-0.5 * t * t));
    }
  }
  return rule;
}

// The innermost axis at a large scale l: E[sigmoid(a + l t)], t ~ N(0, 1), split at the step. With
// X = a + l t and H the unit step, sigmoid = H + r, r(x) = -sign(x) sigmoid(-|x|), so
//   E[sigmoid(X)] = Phi(a / l) + R,  E[sigmoid(-X)] = Phi(-a / l) - R,
//   R = int_0^inf sigmoid(-x) (phi_X(-x) - phi_X(x)) dx,  phi_X(x) = phi((x - a) / l) / l.
// R's integrand is below e^-x / l and smooth on [0, inf) (sigmoid(-x) has its poles at +-i pi; phi_X varies
// on the scale l): composite 16-point Gauss-Legendre on [0, 2, 5, 9, 15, 24, 40] (the tail beyond 40 is
// below e^-40), each panel's error under 1e-16. The node count does not grow with l, where a rule in t
// needs nodes ~ l (sigmoid(a + l t) has its poles pi / l from the real axis).
constexpr double kStepSplitScale = 2.0;  // below it the axis rule in t is used as before

struct StepSplitRule {
  std::vector<double> x, w;  // w: the Gauss-Legendre weight times sigmoid(-x)
};

const StepSplitRule& step_split_rule() {
  static const StepSplitRule rule = [] {
    StepSplitRule r;
    const GaussLegendre16& gl = gauss_legendre16();
    const double edges[] = {0.0, 2.0, 5.0, 9.0, 15.0, 24.0, 40.0};
    for (std::size_t p = 0; p + 1 < std::size(edges); ++p) {
      const double centre = 0.5 * (edges[p] + edges[p + 1]), half = 0.5 * (edges[p + 1] - edges[p]);
      for (int k = 0; k < 16; ++k) {
        const double x = centre + half * gl.nodes[k];
        r.x.push_back(x);
        r.w.push_back(half * gl.weights[k] / (1.0 + std::exp(x)));
      }
    }
    return r;
  }();
  return rule;
}

// E[sigmoid(a + l t)] and E[sigmoid(-(a + l t))] (they sum to 1), l >= kStepSplitScale. The 96 nodes'
// two Gaussians run on four lanes (exp_nonpositive: their arguments are <= 0; no libm call per node),
// summed lane by lane with each lane's rounding error carried (Knuth's two-sum), then the lanes and
// their errors added compensated.
void step_split(double a, double l, double* upper, double* lower) {
  const StepSplitRule& rule = step_split_rule();
  static_assert(kLaneCount == 4, "the step-split rule's 96 nodes are taken four at a time");
  const Lanes scale = splat(-1.0 / (2.0 * l * l)), shift = splat(a);
  Lanes total = splat(0.0), error = splat(0.0);
  for (std::size_t k = 0; k < rule.x.size(); k += kLaneCount) {
    const Lanes x = load(rule.x.data() + k);
    const Lanes plus = x + shift, minus = x - shift;
    const Lanes term =
        load(rule.w.data() + k) * (exp_nonpositive(plus * plus * scale) - exp_nonpositive(minus * minus * scale));
    const Lanes t = total + term, b = t - total;
    error += (total - (t - b)) + (term - b);
    total = t;
  }
  CompensatedSum r;
  for (std::size_t i = 0; i < kLaneCount; ++i) r.add(total[i]);
  for (std::size_t i = 0; i < kLaneCount; ++i) r.add(error[i]);
  const double R = r.value() * kInverseSqrtTwoPi / l, z = a / (l * std::sqrt(2.0));
  *upper = 0.5 * std::erfc(-z) + R;
  *lower = 0.5 * std::erfc(z) - R;
}

// step_split and the first two moments in t: with P(a) = E[sigmoid(a + l t)], by Stein's lemma
//   P1 = E[t sigmoid(a + l t)] = l P'(a),   P2 = E[t^2 sigmoid(a + l t)] = P + l^2 P''(a),
// and P' = phi(a / l) / l + R', P'' = -(a / l^2) phi(a / l) / l + R'' with R's a-derivatives taken under its integral
// (d/da phi_X(x) = phi_X(x) (x - a) / l^2): the same 96 nodes, their Gaussians times polynomials of degree <= 2 in
// x +- a (entire: the rule's error stays set by sigmoid(-x)'s poles at +-i pi, as R's). `upper` gets (P, P1, P2);
// `lower` the moments of sigmoid(-(a + l t)): (1 - P, -P1, 1 - P2), with 1 - P taken as Phi(-a / l) - R.
void step_split_moments(double a, double l, double upper[3], double lower[3]) {
  const StepSplitRule& rule = step_split_rule();
  const Lanes scale = splat(-1.0 / (2.0 * l * l)), shift = splat(a);
  Lanes total[3] = {splat(0.0), splat(0.0), splat(0.0)}, error[3] = {splat(0.0), splat(0.0), splat(0.0)};
  for (std::size_t k = 0; k < rule.x.size(); k += kLaneCount) {
    const Lanes x = load(rule.x.data() + k), w = load(rule.w.data() + k);
    const Lanes plus = x + shift, minus = x - shift;
    const Lanes ep = w * exp_nonpositive(plus * plus * scale), em = w * exp_nonpositive(minus * minus * scale);
    const Lanes terms[3] = {ep - em, splat(0.0) - (plus * ep + minus * em), plus * plus * ep - minus * minus * em};
    for (int i = 0; i < 3; ++i) {
      const Lanes t = total[i] + terms[i], b = t - total[i];
      error[i] += (total[i] - (t - b)) + (terms[i] - b);
      total[i] = t;
    }
  }
  double T[3];
  for (int i = 0; i < 3; ++i) {
    CompensatedSum r;
    for (std::size_t j = 0; j < kLaneCount; ++j) r.add(total[i][j]);
    for (std::size_t j = 0; j < kLaneCount; ++j) r.add(error[i][j]);
    T[i] = r.value() * kInverseSqrtTwoPi;
  }
  const double z = a / l, R = T[0] / l, density = kInverseSqrtTwoPi * std::exp(-0.5 * z * z);
  upper[0] = 0.5 * std::erfc(-z / std::sqrt(2.0)) + R;
  lower[0] = 0.5 * std::erfc(z / std::sqrt(2.0)) - R;
  upper[1] = density + T[1] / (l * l);
  lower[1] = -upper[1];
  const double curvature = -z * density + (T[2] / (l * l) - T[0]) / l;  // l^2 P''
  upper[2] = upper[0] + curvature;
  lower[2] = lower[0] - curvature;
}

// Nodes whose weight product falls below this are skipped: at most 256^3 of them, so together below
// 2e-15, far under the tolerance.
constexpr double kNegligibleWeight = 1e-22;

// sum over the tensor grid of prod(w) softmax(m + L t), for all C classes. When L is lower triangular
// (a Cholesky factor), the innermost axis moves only the last difference: there softmax is a sigmoid of
// it (one exponential per node) times fixed shares of the other classes.
class TensorSum {
 public:
  // moments: also sum t_a prod(w) softmax and t_a t_b prod(w) softmax (a <= b), per class in blocks of
  // K = 1 + D + D (D + 1) / 2 (the value, then the D first, then the upper triangle of second moments row by row);
  // L must be lower triangular.
  TensorSum(const Eigen::VectorXd& m, const Eigen::MatrixXd& L, const AxisRule& rule, int graded_panels,
            const std::function<bool()>& stop, bool moments = false)
      : stop_(stop),
        D_(std::size_t(m.size())),
        L_(L),
        rule_(rule),
        moments_(moments),
        block_(moments ? 1 + D_ + D_ * (D_ + 1) / 2 : 1),
        sums_((D_ + 1) * block_),
        t_(D_, 0.0),
        g_(D_ + 1, std::vector<double>(m.data(), m.data() + D_)),
        p_(D_ + 1),
        graded_panels_(graded_panels),
        graded_(D_) {
    triangular_ = true;
    for (Eigen::Index r = 0; r < L.rows(); ++r)
      for (Eigen::Index c = r + 1; c < L.cols(); ++c) triangular_ = triangular_ && L(r, c) == 0.0;
  }

  // Empty when the stop was asked for.
  std::vector<double> run() {
    level(0, 1.0);
    if (stopped_) return {};
    std::vector<double> out(sums_.size());
    for (std::size_t c = 0; c < sums_.size(); ++c) out[c] = sums_[c].value();
    return out;
  }

 private:
  void level(std::size_t j, double weight) {
    if (j + 1 == D_ && triangular_) return innermost(weight);
    const std::vector<double>& here = g_[j];
    std::vector<double>& next = g_[j + 1];
    const AxisRule& rule = graded_panels_ > 0 && triangular_ ? graded_axis(j) : rule_;
    for (std::size_t k = 0; k < rule.t.size(); ++k) {
      const double w = weight * rule.w[k];
      if (w < kNegligibleWeight) continue;
      // The outer two axes ask the stop at each node (at most N^(D-2) nodes of work between two asks).
      if (j < 2 && stop_ && (stopped_ || stop_())) {
        stopped_ = true;
        return;
      }
      for (std::size_t r = 0; r < D_; ++r) next[r] = here[r] + L_(Eigen::Index(r), Eigen::Index(j)) * rule.t[k];
      t_[j] = rule.t[k];
      if (j + 1 == D_) {
        softmax_of_differences(next.data(), D_, p_.data());
        for (std::size_t c = 0; c <= D_; ++c) sums_[c].add(w * p_[c]);
      } else {
        level(j + 1, w);
      }
    }
  }

  // The last axis: g_{D-1} = base + l t; the other entries (classes 0..D-2 and the reference's 0) fixed.
  void innermost(double weight) {
    const std::vector<double>& g = g_[D_ - 1];
    const std::size_t last = D_ - 1;
    double largest = 0.0;
    for (std::size_t j = 0; j < last; ++j) largest = std::max(largest, g[j]);
    double fixed = std::exp(-largest);
    for (std::size_t j = 0; j < last; ++j) fixed += std::exp(g[j] - largest);
    const double log_fixed = std::log(fixed) + largest;
    const double l = L_(Eigen::Index(last), Eigen::Index(last));
    if (moments_) return innermost_moments(weight, g, largest, fixed, log_fixed, l);
    CompensatedSum others, own;
    if (l >= kStepSplitScale) {
      double p_last, q;
      step_split(g[last] - log_fixed, l, &p_last, &q);
      own.add(weight * p_last);
      others.add(weight * q);
    }
    for (std::size_t k = 0; k < rule_.t.size() && l < kStepSplitScale; ++k) {
      const double w = weight * rule_.w[k];
      if (w < kNegligibleWeight) continue;
      const double u = log_fixed - (g[last] + l * rule_.t[k]);  // log(sum of the fixed terms / e^{g_last})
      double p_last, q;
      if (u > 0.0) {
        const double e = std::exp(-u);
        q = 1.0 / (1.0 + e);
        p_last = e * q;
      } else {
        const double e = std::exp(u);
        p_last = 1.0 / (1.0 + e);
        q = e * p_last;
      }
      own.add(w * p_last);
      others.add(w * q);
    }
    const double shared = others.value();
    for (std::size_t j = 0; j < last; ++j) sums_[j].add(std::exp(g[j] - largest) / fixed * shared);
    sums_[D_].add(std::exp(-largest) / fixed * shared);
    sums_[last].add(own.value());
  }

  // innermost() with the moments: the inner axis's E[t^i sigmoid] (i = 0, 1, 2) for the last class and for the
  // others' shared factor, times the outer nodes' t_a.
  void innermost_moments(double weight, const std::vector<double>& g, double largest, double fixed, double log_fixed,
                         double l) {
    const std::size_t last = D_ - 1;
    double own[3] = {0.0, 0.0, 0.0}, others[3] = {0.0, 0.0, 0.0};
    if (l >= kStepSplitScale) {
      step_split_moments(g[last] - log_fixed, l, own, others);
    } else {
      CompensatedSum o[3], q[3];
      for (std::size_t k = 0; k < rule_.t.size(); ++k) {
        const double w = rule_.w[k];
        if (weight * w < kNegligibleWeight) continue;
        const double t = rule_.t[k], u = log_fixed - (g[last] + l * t);
        double p_last, p_others;
        if (u > 0.0) {
          const double e = std::exp(-u);
          p_others = 1.0 / (1.0 + e);
          p_last = e * p_others;
        } else {
          const double e = std::exp(u);
          p_last = 1.0 / (1.0 + e);
          p_others = e * p_last;
        }
        o[0].add(w * p_last), o[1].add(w * t * p_last), o[2].add(w * t * t * p_last);
        q[0].add(w * p_others), q[1].add(w * t * p_others), q[2].add(w * t * t * p_others);
      }
      for (int i = 0; i < 3; ++i) own[i] = o[i].value(), others[i] = q[i].value();
    }
    for (std::size_t c = 0; c <= D_; ++c) {
      double share = 1.0;
      const double* inner = own;
      if (c != last) {
        share = (c == D_ ? std::exp(-largest) : std::exp(g[c] - largest)) / fixed;
        inner = others;
      }
      const double x0 = weight * share * inner[0], x1 = weight * share * inner[1], x2 = weight * share * inner[2];
      CompensatedSum* s = sums_.data() + c * block_;
      s[0].add(x0);
      for (std::size_t a = 0; a < last; ++a) s[1 + a].add(t_[a] * x0);
      s[1 + last].add(x1);
      std::size_t at = 1 + D_;
      for (std::size_t a = 0; a < D_; ++a)
        for (std::size_t b = a; b < D_; ++b, ++at) {
          if (b < last) s[at].add(t_[a] * t_[b] * x0);
          else if (a < last) s[at].add(t_[a] * x1);
          else s[at].add(x2);
        }
    }
  }

  // Composite Gauss-Legendre on [-9, 9] for an outer axis j (L lower triangular), graded towards the t where
  // two entries of the augmented difference vector (g_0 .. g_{D-1}, 0) cross in their conditional means given
  // t_0 .. t_j: pair (a, b) with slope s = L_aj - L_bj and offset o (their values at t = 0) crosses at
  // c = -o / s, its softmax transition there spread over w = sqrt(1 + v) / |s| in t (v = the variance the
  // inner axes still add to g_a - g_b). Edges at c +- w h 3^k (k = 0, 1, ...) for every pair with w < 2, plus
  // P / 2 uniform panels; h = 16 / P, so raising P refines every panel together.
  const AxisRule& graded_axis(std::size_t j) {
    constexpr double kHalfWidth = 9.0;
    const std::vector<double>& here = g_[j];
    const double h = 16.0 / graded_panels_;
    std::vector<double> edges;
    const int base = std::max(graded_panels_ / 2, 4);
    for (int p = 0; p <= base; ++p) edges.push_back(-kHalfWidth + 2.0 * kHalfWidth * p / base);
    // entry a's slope and offset at this level: a < j fixed (slope 0), a = D_ the reference (0, 0).
    auto slope = [&](std::size_t a) { return a < j || a == D_ ? 0.0 : L_(Eigen::Index(a), Eigen::Index(j)); };
    auto offset = [&](std::size_t a) { return a == D_ ? 0.0 : here[a]; };
    for (std::size_t a = 0; a <= D_; ++a) {
      for (std::size_t b = a + 1; b <= D_; ++b) {
        const double s = slope(a) - slope(b);
        if (s == 0.0) continue;
        double v = 0.0;
        for (std::size_t k = j + 1; k < D_; ++k) {
          const double la = a >= k && a < D_ ? L_(Eigen::Index(a), Eigen::Index(k)) : 0.0;
          const double lb = b >= k && b < D_ ? L_(Eigen::Index(b), Eigen::Index(k)) : 0.0;
          v += (la - lb) * (la - lb);
        }
        const double c = -(offset(a) - offset(b)) / s, w = std::sqrt(1.0 + v) / std::abs(s);
        if (!(w < 2.0) || !(c > -kHalfWidth - 2.0 && c < kHalfWidth + 2.0)) continue;
        if (c > -kHalfWidth && c < kHalfWidth) edges.push_back(c);
        for (double d = w * h; d < 2.0 * kHalfWidth; d *= 3.0) {
          if (c - d > -kHalfWidth && c - d < kHalfWidth) edges.push_back(c - d);
          if (c + d > -kHalfWidth && c + d < kHalfWidth) edges.push_back(c + d);
        }
      }
    }
    std::sort(edges.begin(), edges.end());
    AxisRule& rule = graded_[j];
    rule.t.clear();
    rule.w.clear();
    const GaussLegendre16& gl = gauss_legendre16();
    for (std::size_t e = 0; e + 1 < edges.size(); ++e) {
      const double half = 0.5 * (edges[e + 1] - edges[e]), centre = 0.5 * (edges[e + 1] + edges[e]);
      if (!(half > 0.0)) continue;
      for (int k = 0; k < 16; ++k) {
        const double t = centre + half * gl.nodes[k];
        rule.t.push_back(t);
        rule.w.push_back(half * gl.weights[k] * kInverseSqrtTwoPi * std::exp(-0.5 * t * t));
      }
    }
    return rule;
  }

  const std::function<bool()>& stop_;
  bool stopped_ = false;
  std::size_t D_;
  const Eigen::MatrixXd& L_;
  const AxisRule& rule_;
  bool moments_ = false;
  std::size_t block_ = 1;  // sums per class
  bool triangular_ = true;
  std::vector<CompensatedSum> sums_;
  std::vector<double> t_;  // the outer axes' current nodes
  std::vector<std::vector<double>> g_;
  std::vector<double> p_;
  int graded_panels_ = 0;         // > 0: outer axes use graded_axis with this P
  std::vector<AxisRule> graded_;  // one per level (the recursion keeps each level's rule while inside it)
};

std::vector<double> tensor_sum(const Eigen::VectorXd& m, const Eigen::MatrixXd& L, const AxisRule& rule,
                               int graded_panels, const std::function<bool()>& stop, bool moments = false) {
  return TensorSum(m, L, rule, graded_panels, stop, moments).run();
}

double largest_change(const std::vector<double>& a, const std::vector<double>& b) {
  double change = 0.0;
  for (std::size_t c = 0; c < a.size(); ++c) change = std::max(change, std::abs(a[c] - b[c]));
  return change;
}

double power(std::size_t base, std::size_t exponent) {
  double p = 1.0;
  for (std::size_t i = 0; i < exponent; ++i) p *= double(base);
  return p;
}

const std::vector<int>& hermite_orders() {
  static const std::vector<int> orders{8, 12, 16, 24, 32, 48, 64, 96, 128, 160, 192, 256};
  return orders;
}

const std::vector<int>& legendre_panels() {
  static const std::vector<int> panels{8, 12, 16, 24, 32, 48, 64, 96, 128};
  return panels;
}

// Every rule of both sequences, built once (Gauss-Hermite's nodes come from an eigenproblem).
const AxisRule& axis_rule(bool hermite, int order) {
  static const std::vector<AxisRule> hermite_rules = [] {
    std::vector<AxisRule> rules;
    for (int n : hermite_orders()) rules.push_back(hermite_axis(n));
    return rules;
  }();
  static const std::vector<AxisRule> legendre_rules = [] {
    std::vector<AxisRule> rules;
    for (int p : legendre_panels()) rules.push_back(legendre_axis(p));
    return rules;
  }();
  const std::vector<int>& orders = hermite ? hermite_orders() : legendre_panels();
  const std::size_t at = std::size_t(std::find(orders.begin(), orders.end(), order) - orders.begin());
  return hermite ? hermite_rules[at] : legendre_rules[at];
}

bool is_lower_triangular(const Eigen::MatrixXd& L) {
  for (Eigen::Index r = 0; r < L.rows(); ++r)
    for (Eigen::Index c = r + 1; c < L.cols(); ++c)
      if (L(r, c) != 0.0) return false;
  return true;
}

// The largest entry of L outside its last column: the scale of the axes a tensor rule integrates in t.
double outer_scale(const Eigen::MatrixXd& L) {
  double largest = 0.0;
  for (Eigen::Index c = 0; c + 1 < L.cols(); ++c) largest = std::max(largest, L.col(c).cwiseAbs().maxCoeff());
  return largest;
}

// Raise the order of one tensor rule until two successive changes are <= tolerance.
// With `moments`, out->probabilities holds TensorSum's moment blocks and the test runs over all of them.
bool raise_order(const Eigen::VectorXd& m, const Eigen::MatrixXd& L, const std::vector<int>& orders, bool hermite,
                 const SoftmaxExpectationOptions& options, SoftmaxExpectation* out, bool moments = false) {
  const std::size_t D = std::size_t(m.size());
  std::vector<double> previous;
  double previous_change = kInfinity;
  bool any = false;
  for (int order : orders) {
    const std::size_t per_axis = hermite ? std::size_t(order) : std::size_t(16 * order);
    // A split innermost axis costs its fixed rule's nodes, whatever the order.
    const bool split = L(Eigen::Index(D - 1), Eigen::Index(D - 1)) >= kStepSplitScale && is_lower_triangular(L);
    const double nodes = split ? power(per_axis, D - 1) * double(step_split_rule().x.size()) : power(per_axis, D);
    if (nodes > double(options.max_nodes)) break;
    const AxisRule& rule = axis_rule(hermite, order);
    if (options.stop && options.stop()) {
      out->stopped = true;
      break;
    }
    std::vector<double> values = tensor_sum(m, L, rule, hermite ? 0 : order, options.stop, moments);
    if (values.empty()) {  // stopped inside: the orders summed before stand
      out->stopped = true;
      break;
    }
    if (any) {
      const double change = largest_change(values, previous);
      out->probabilities = values;
      out->nodes_per_axis = per_axis;
      out->error_estimate = change;
      if (change <= options.tolerance && previous_change <= options.tolerance) return true;
      previous_change = change;
    } else {
      out->probabilities = values;
      out->nodes_per_axis = per_axis;
      out->error_estimate = kInfinity;
    }
    previous = std::move(values);
    any = true;
  }
  return false;
}

// Randomised quasi-Monte Carlo over a Kronecker sequence (see the header).
void quasi_monte_carlo(const Eigen::VectorXd& m, const Eigen::MatrixXd& L, const SoftmaxExpectationOptions& options,
                       SoftmaxExpectation* out) {
  constexpr std::size_t kShifts = 16;
  const std::size_t D = std::size_t(m.size()), C = D + 1;
  // phi_D: the positive root of x^(D+1) = x + 1 (Newton from 2).
  double phi = 2.0;
  for (int i = 0; i < 100; ++i)
    phi -= (std::pow(phi, double(D + 1)) - phi - 1.0) / ((D + 1) * std::pow(phi, double(D)) - 1.0);
  std::vector<double> alpha(D);
  for (std::size_t j = 0; j < D; ++j) alpha[j] = std::fmod(std::pow(1.0 / phi, double(j + 1)), 1.0);
  RandomStream random(options.seed);
  std::vector<std::vector<double>> shift(kShifts, std::vector<double>(D));
  for (auto& s : shift)
    for (double& v : s) v = random.uniform();
  std::vector<std::vector<CompensatedSum>> sums(kShifts, std::vector<CompensatedSum>(C));
  std::vector<double> t(D), g(D), h(D), p(C), q(C);
  std::size_t done = 0, target = 1024;
  const std::size_t cap = std::max<std::size_t>(options.qmc_max_points / kShifts, 1024);
  bool stopped = false;
  while (true) {
    // Each round adds (target - done) points to every shift; the stop is asked every 1024 of them, and a round cut
    // short is not counted (the estimate stays the last complete round's).
    for (std::size_t s = 0; s < kShifts && !stopped; ++s) {
      for (std::size_t i = done; i < target; ++i) {
        if (options.stop && (i - done) % 1024 == 0 && options.stop()) {
          stopped = true;
          break;
        }
        for (std::size_t j = 0; j < D; ++j) {
          // frac(shift + i alpha), with i alpha reduced first so that large i keep their digits.
          double u = shift[s][j] + std::fmod(double(i) * alpha[j], 1.0);
          u -= std::floor(u);
          u = std::clamp(u, 1e-300, 1.0 - 0x1.0p-53);
          t[j] = normal_quantile(u);
        }
        // Antithetic: t and -t share one set of quantiles.
        for (std::size_t r = 0; r < D; ++r) {
          double v = 0.0;
          for (std::size_t j = 0; j < D; ++j) v += L(Eigen::Index(r), Eigen::Index(j)) * t[j];
          g[r] = m[Eigen::Index(r)] + v;
          h[r] = m[Eigen::Index(r)] - v;
        }
        softmax_of_differences(g.data(), D, p.data());
        softmax_of_differences(h.data(), D, q.data());
        for (std::size_t c = 0; c < C; ++c) sums[s][c].add(0.5 * (p[c] + q[c]));
      }
    }
    if (stopped) {
      out->stopped = true;
      out->converged = false;
      if (done == 0) out->probabilities.clear();  // not one round: no estimate
      break;
    }
    done = target;
    double worst = 0.0;
    out->probabilities.assign(C, 0.0);
    for (std::size_t c = 0; c < C; ++c) {
      double mean = 0.0, square = 0.0;
      for (std::size_t s = 0; s < kShifts; ++s) mean += sums[s][c].value() / double(done);
      mean /= kShifts;
      for (std::size_t s = 0; s < kShifts; ++s) {
        const double e = sums[s][c].value() / double(done) - mean;
        square += e * e;
      }
      out->probabilities[c] = mean;
      worst = std::max(worst, std::sqrt(square / double(kShifts - 1) / double(kShifts)));
    }
    out->error_estimate = 3.0 * worst;
    out->nodes_per_axis = done;
    out->converged = worst <= options.qmc_tolerance;
    if (out->converged || 2 * target > cap) break;
    target *= 2;
  }
  if (out->probabilities.empty()) return;
  // Each shift's estimate sums to 1 to rounding; renormalise the mean so that the C values do exactly.
  double total = 0.0;
  for (double v : out->probabilities) total += v;
  for (double& v : out->probabilities) v /= total;
}

}  // namespace multiclass_probability_detail

const char* softmax_rule_name(SoftmaxRule rule) {
  switch (rule) {
    case SoftmaxRule::automatic:
      return "automatic";
    case SoftmaxRule::gauss_hermite:
      return "gauss-hermite";
    case SoftmaxRule::gauss_legendre:
      return "composite-gauss-legendre";
    case SoftmaxRule::quasi_monte_carlo:
      return "quasi-monte-carlo";
  }
  return "unknown";
}

void softmax_of_differences(const double* g, std::size_t D, double* out) {
  double largest = 0.0;  // the reference class's entry
  for (std::size_t j = 0; j < D; ++j) largest = std::max(largest, g[j]);
  double total = std::exp(-largest);
  out[D] = total;
  for (std::size_t j = 0; j < D; ++j) {
    out[j] = std::exp(g[j] - largest);
    total += out[j];
  }
  for (std::size_t c = 0; c <= D; ++c) out[c] /= total;
}

double normal_quantile(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  constexpr double kLow = 0.02425;
  double x;
  if (p < kLow) {
    const double q = std::sqrt(-2.0 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
  } else if (p <= 1.0 - kLow) {
    const double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
  } else {
    const double q = std::sqrt(-2.0 * std::log1p(-p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
  }
  // One Halley step on Phi(x) - p (erfc keeps the lower tail's digits).
  const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
  const double u = e * std::sqrt(2.0 * kPi) * std::exp(0.5 * x * x);
  return x - u / (1.0 + 0.5 * x * u);
}

Result<SoftmaxExpectation> softmax_expectation(const Eigen::VectorXd& mean, const Eigen::MatrixXd& covariance,
                                               const SoftmaxExpectationOptions& options) {
  using namespace multiclass_probability_detail;
  const std::size_t C = std::size_t(mean.size());
  if (C < 2) {
    return Status(StatusCode::invalid_argument,
                  "the softmax expectation needs at least 2 classes, got " + std::to_string(C));
  }
  if (std::size_t(covariance.rows()) != C || std::size_t(covariance.cols()) != C) {
    return Status(StatusCode::dimension_mismatch, "the latent covariance is " + std::to_string(covariance.rows()) +
                                                      " by " + std::to_string(covariance.cols()) + " for " +
                                                      count_of(C, "class", "classes"));
  }
  GPPROBE_RETURN_IF_ERROR(check_finite_values(mean.data(), C, "latent mean"));
  GPPROBE_RETURN_IF_ERROR(check_finite_values(covariance.data(), C * C, "latent covariance"));

  // The differences to the last class: m = A mu, Gamma = A Sigma A'.
  const std::size_t D = C - 1;
  Eigen::VectorXd m{Eigen::Index(D)};
  Eigen::MatrixXd Gamma{Eigen::Index(D), Eigen::Index(D)};
  const Eigen::Index r = Eigen::Index(D);
  for (Eigen::Index j = 0; j < r; ++j) {
    m[j] = mean[j] - mean[r];
    for (Eigen::Index k = 0; k < r; ++k) {
      Gamma(j, k) =
          0.5 * (covariance(j, k) + covariance(k, j)) - covariance(j, r) - covariance(r, k) + covariance(r, r);
    }
  }
  Gamma = 0.5 * (Gamma + Gamma.transpose());
  SoftmaxExpectation out;
  Eigen::MatrixXd L;
  Eigen::LLT<Eigen::MatrixXd> llt(Gamma);
  if (llt.info() == Eigen::Success && llt.matrixL().toDenseMatrix().diagonal().minCoeff() > 0.0) {
    L = llt.matrixL();
  } else {
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(Gamma);
    const double scale = 1.0 + Gamma.cwiseAbs().maxCoeff();
    if (eigen.info() != Eigen::Success || eigen.eigenvalues().minCoeff() < -1e-9 * scale) {
      return Status(StatusCode::numerical_failure,
                    "the covariance of the latent differences is not positive semi-definite (smallest eigenvalue " +
                        number_text(eigen.eigenvalues().minCoeff(), 3) + ")");
    }
    L = eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal();
    out.semidefinite = true;
  }

  SoftmaxRule rule = options.rule;
  if (rule == SoftmaxRule::automatic) rule = C <= 4 ? SoftmaxRule::gauss_hermite : SoftmaxRule::quasi_monte_carlo;
  if (rule == SoftmaxRule::quasi_monte_carlo) {
    out.rule = rule;
    quasi_monte_carlo(m, L, options, &out);
  } else {
    const std::vector<int>& hermite = hermite_orders();
    const std::vector<int>& panels = legendre_panels();
    bool done = false;
    // Gauss-Hermite does not converge by 256 nodes once an outer axis moves a difference by more than
    // about 8 standard units (the poles of the softmax come within pi / 8 of the real axis): go to
    // Gauss-Legendre directly.
    constexpr double kHermiteScale = 8.0;
    if (rule == SoftmaxRule::gauss_hermite && options.rule == SoftmaxRule::automatic &&
        outer_scale(L) > kHermiteScale) {
      rule = SoftmaxRule::gauss_legendre;
      out.error_estimate = kInfinity;
    }
    if (rule == SoftmaxRule::gauss_hermite) {
      out.rule = SoftmaxRule::gauss_hermite;
      done = raise_order(m, L, hermite, true, options, &out);
    }
    if (!done && (options.rule != SoftmaxRule::gauss_hermite)) {
      SoftmaxExpectation legendre = out;
      legendre.rule = SoftmaxRule::gauss_legendre;
      done = raise_order(m, L, panels, false, options, &legendre);
      // Keep Gauss-Hermite's answer only when Gauss-Legendre could not afford a single order.
      if (!legendre.probabilities.empty() && (done || legendre.error_estimate <= out.error_estimate)) out = legendre;
    }
    out.converged = done;
  }
  if (out.probabilities.empty() && out.stopped) {
    return Status(StatusCode::cancelled, "the class probabilities were stopped before a first estimate");
  }
  if (out.probabilities.empty()) {
    return Status(StatusCode::invalid_argument, "max_nodes (" + std::to_string(options.max_nodes) +
                                                    ") does not allow a single order of the tensor rule");
  }
  for (double p : out.probabilities) {
    if (!std::isfinite(p)) {
      return Status(StatusCode::numerical_failure, "the class probabilities are not finite");
    }
  }
  return out;
}

Result<SoftmaxMoments> softmax_difference_moments(const Eigen::VectorXd& m, const Eigen::MatrixXd& gamma,
                                                  const SoftmaxExpectationOptions& options) {
  using namespace multiclass_probability_detail;
  const std::size_t D = std::size_t(m.size()), C = D + 1;
  if (D < 1) return Status(StatusCode::invalid_argument, "the softmax moments need at least 1 latent difference");
  if (std::size_t(gamma.rows()) != D || std::size_t(gamma.cols()) != D) {
    return Status(StatusCode::dimension_mismatch,
                  "the covariance of the latent differences is " + std::to_string(gamma.rows()) + " by " +
                      std::to_string(gamma.cols()) + " for " + count_of(D, "difference", "differences"));
  }
  GPPROBE_RETURN_IF_ERROR(check_finite_values(m.data(), D, "latent difference mean"));
  GPPROBE_RETURN_IF_ERROR(check_finite_values(gamma.data(), D * D, "latent difference covariance"));
  if (options.rule == SoftmaxRule::quasi_monte_carlo) {
    return Status(StatusCode::invalid_argument, "the softmax moments take a tensor rule, not quasi-Monte Carlo");
  }
  const Eigen::MatrixXd Gamma = 0.5 * (gamma + gamma.transpose());
  Eigen::LLT<Eigen::MatrixXd> llt(Gamma);
  if (llt.info() != Eigen::Success || !(llt.matrixL().toDenseMatrix().diagonal().minCoeff() > 0.0)) {
    return Status(StatusCode::numerical_failure,
                  "the covariance of the latent differences is not positive definite (the moments need its inverse)");
  }
  const Eigen::MatrixXd L = llt.matrixL();
  SoftmaxExpectation raw;
  bool done = false;
  constexpr double kHermiteScale = 8.0;  // as softmax_expectation
  const bool hermite = options.rule == SoftmaxRule::gauss_hermite ||
                       (options.rule == SoftmaxRule::automatic && outer_scale(L) <= kHermiteScale);
  if (hermite) {
    raw.rule = SoftmaxRule::gauss_hermite;
    done = raise_order(m, L, hermite_orders(), true, options, &raw, true);
  } else {
    raw.error_estimate = kInfinity;
  }
  if (!done && options.rule != SoftmaxRule::gauss_hermite && !raw.stopped) {
    SoftmaxExpectation legendre = raw;
    legendre.rule = SoftmaxRule::gauss_legendre;
    done = raise_order(m, L, legendre_panels(), false, options, &legendre, true);
    if (!legendre.probabilities.empty() && (done || legendre.error_estimate <= raw.error_estimate)) raw = legendre;
  }
  if (raw.probabilities.empty()) {
    if (raw.stopped) return Status(StatusCode::cancelled, "the softmax moments were stopped before a first estimate");
    return Status(StatusCode::invalid_argument, "max_nodes (" + std::to_string(options.max_nodes) +
                                                    ") does not allow a single order of the tensor rule");
  }
  // Stein's lemma on g = m + L t: grad_m F = L^-T E[t s], hess_m F = L^-T E[(t t' - I) s] L^-1. An error e in every sum
  // becomes |L^-T| e 1 in the gradient and 2 e r r' in the Hessian (r_a = sum_i |L^-1_ia|), plus rounding.
  const std::size_t K = 1 + D + D * (D + 1) / 2;
  const Eigen::MatrixXd Linv =
      L.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd::Identity(Eigen::Index(D), Eigen::Index(D)));
  const Eigen::MatrixXd absolute = Linv.cwiseAbs();
  const Eigen::VectorXd r = absolute.colwise().sum().transpose();
  const double e = raw.error_estimate;
  SoftmaxMoments out;
  out.error_estimate = e;
  out.converged = done;
  out.stopped = raw.stopped;
  out.rule = raw.rule;
  out.nodes_per_axis = raw.nodes_per_axis;
  const double u = 0x1.0p-53;
  for (std::size_t c = 0; c < C; ++c) {
    const double* block = raw.probabilities.data() + c * K;
    out.probabilities.push_back(block[0]);
    Eigen::VectorXd first = Eigen::VectorXd::Zero(Eigen::Index(D));
    for (std::size_t a = 0; a < D; ++a) first[Eigen::Index(a)] = block[1 + a];
    Eigen::MatrixXd second = Eigen::MatrixXd::Zero(Eigen::Index(D), Eigen::Index(D));
    std::size_t at = 1 + D;
    for (std::size_t a = 0; a < D; ++a)
      for (std::size_t b = a; b < D; ++b, ++at) {
        const double v = block[at] - (a == b ? block[0] : 0.0);
        second(Eigen::Index(a), Eigen::Index(b)) = second(Eigen::Index(b), Eigen::Index(a)) = v;
      }
    const Eigen::VectorXd gradient = Linv.transpose() * first;
    const Eigen::MatrixXd hessian = Linv.transpose() * second * Linv;
    const Eigen::VectorXd gradient_size = absolute.transpose() * first.cwiseAbs();
    const Eigen::MatrixXd hessian_size = absolute.transpose() * second.cwiseAbs() * absolute;
    for (std::size_t a = 0; a < D; ++a) {
      out.gradient.push_back(gradient[Eigen::Index(a)]);
      out.gradient_error.push_back(e * r[Eigen::Index(a)] + 8.0 * u * double(D + 2) * gradient_size[Eigen::Index(a)]);
    }
    for (std::size_t a = 0; a < D; ++a)
      for (std::size_t b = 0; b < D; ++b) {
        out.hessian.push_back(hessian(Eigen::Index(a), Eigen::Index(b)));
        out.hessian_error.push_back(2.0 * e * r[Eigen::Index(a)] * r[Eigen::Index(b)] +
                                    16.0 * u * double(D + 2) * hessian_size(Eigen::Index(a), Eigen::Index(b)));
      }
  }
  for (std::size_t i = 0; i < out.hessian.size(); ++i) {
    if (!std::isfinite(out.hessian[i]) || !std::isfinite(out.hessian_error[i])) {
      return Status(StatusCode::numerical_failure, "the softmax moments are not finite");
    }
  }
  for (std::size_t i = 0; i < out.gradient.size(); ++i) {
    if (!std::isfinite(out.gradient[i]) || !std::isfinite(out.probabilities[i % C])) {
      return Status(StatusCode::numerical_failure, "the softmax moments are not finite");
    }
  }
  return out;
}

}  // namespace gpprobe
