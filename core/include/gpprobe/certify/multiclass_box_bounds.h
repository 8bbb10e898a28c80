// Sound bounds of a multi-class Laplace model's latent moments over a box of a robustness region
// (robustness_region.h), and from them of every class probability (multiclass_probability_bounds.h).
// With z_i^c(x) = sum_j (x_j - x_ij)^2 / (2 l_cj^2) (class c's own length-scales) and e_i^c = e^{-z_i^c}:
//
//   mean        mu_c(x) = sum_i s2_c alpha_ic e_i^c(x): exponential_sum_bounds (docs/design/certify.md, "Bounds over a box" items 1-3: tangent and
//               chord lines, separable minimum, intersected with interval arithmetic), one class at a time
//   covariance  Sigma_pq(x) = delta_pq s2_p - sum_il R^pq_il e_i^p(x) e_l^q(x),
//               R^pq = s2_p s2_q (delta_pq E_p - E_p (sum E)^-1 E_q): each double sum bounded two ways and
//               intersected: (a) term by term from the exact ranges of e_i^p, e_l^q; (b) the centred form at
//               the box centre c: S(c) + g'(e^q - e^q(c)) + h'(e^p - e^p(c)) + [-1, 1] |d^p|' |R| |d^q|
//               (g = R' e^p(c), h = R e^q(c): exponential sums; d = the largest |e - e(c)| on the box), whose
//               gap is second order in the box width. Diagonals clipped to [0, s2_p], off-diagonals to
//               +-sqrt(s2_p s2_q).
//   differences g_j = f_j - f_r (r = C - 1): means and covariances by interval arithmetic on the above, and,
//               where the classes j, r (and k) share their length-scales, also directly as one exponential
//               (double) sum with the combined weights, intersected. With every class's length-scales shared,
//               the covariances' centred form takes its quadratic remainder delta' R delta from factors
//               M'M = P of the positive semi-definite matrices of Var g_j, Var(g_j + g_k) and, for C <= 4,
//               Var(g_j - g_k) (setup: up to D^2 Cholesky factors), each row (M delta)_r an exponential sum (polarisation for j != k, two ways:
//               (P_{j+k} - P_j - P_k) / 2 and (P_{j+k} - P_{j-k}) / 4, intersected), instead of
//               |d|' |R| |d|, which carries R's absolute mass (~ s2^2) and is useless at large signal variances.
//   rounding    every end widened by 8 u (2n + k + 16) times the absolute size of its terms (as docs/design/certify.md).
//
// probability() intersects two sound bounds of each class probability pi^c = F_c(m, Gamma) over the box:
//   Prop. 3-4   softmax_probability_bounds (multiclass_probability_bounds.h) from the moment intervals
//   vertex      softmax_vertex_bounds below (docs/design/multiclass.md, "The vertex bound"): for a fixed Gamma,
//               F_c increases in m_c and decreases in every other m_j, so over the mean box it is extreme at Lemma
//               1's vertex v of the box for every Gamma; then along Gamma_0 -> Gamma (Gamma_0 the exact covariance
//               at the box centre) either |F(v, Gamma) - F(v, Gamma_0)| <= min(4/27 sum|dGamma_jk|,
//               phi(1) sup_t |B(t)|_*) (B(t) = Gamma(t)^-1/2 dGamma Gamma(t)^-1/2), or, to first order,
//               F(v, Gamma_0) + 1/2 tr(dGamma H) +- sqrt(6)/8 sup_t |B(t)|_F^2 with H the Hessian of F in m at
//               (v, Gamma_0) from the same node sweep as F (softmax_difference_moments: Stein's lemma, its error
//               the sweep's estimate carried through L^-1), or where that sweep does not converge, from second
//               differences (their truncation and quadrature errors added). Quadrature errors (10 times their
//               estimates plus 1e-12) widen every end.
//   The partition is refined only while the vertex bound is wider than the target gap.
// A box costs O(C^2 n^2 k) (the double sums and factor rows) plus the probability bounds' partition and 2
// quadratures per class asked (one per end, with the moments where the first order is wanted; 2 (D^2 + D + 1) where
// the moments' sweep does not converge).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <Eigen/Dense>

#include "gpprobe/certify/branch_and_bound.h"
#include "gpprobe/certify/interval.h"
#include "gpprobe/certify/multiclass_probability_bounds.h"
#include "gpprobe/certify/robustness_region.h"
#include "gpprobe/classification/multiclass_laplace.h"
#include "gpprobe/common/matrix_view.h"

namespace gpprobe {

struct MulticlassLatentBounds {
  std::vector<Interval> mean;                   // C: mu_c over the box
  std::vector<Interval> covariance;             // C * C: Sigma_pq (row-major, symmetric)
  std::vector<Interval> difference_mean;        // D = C - 1: mu_j - mu_{C-1}
  std::vector<Interval> difference_covariance;  // D * D
  // Where the mean relaxations of class c are optimal (k values each, in the box): promising candidates.
  std::vector<std::vector<double>> mean_lower_point, mean_upper_point;  // C each
  // The exact difference moments at the box centre (the second bound's reference Gamma_0).
  std::vector<double> centre_difference_mean;        // D
  std::vector<double> centre_difference_covariance;  // D * D
};

// Bounds of F_c(m, Gamma) = E[softmax_c(g)], g ~ N(m, Gamma) over the D = C - 1 differences, for every m in the
// box `mean` (D intervals) and every Gamma in the box `covariance` (D * D intervals, symmetric) that holds the
// positive definite `reference` Gamma_0 (D * D): the vertex bound (see above), from F_c at Lemma 1's vertex with
// Gamma_0 and the larger of the zeroth-order allowance (4/27 sum|dGamma_jk|; phi(1) |dGamma|_* / lambda) and, when
// that exceeds target_gap / 2, the first-order one (the exact gradient in Gamma from the Hessian in m, from one node
// sweep or else second differences, plus sqrt(6)/8 |B|_F^2) for the ends asked (`ends`; the other gets the zeroth-order one). An end whose quadrature fails
// is 0 or 1; [0, 1] when c > D.
// `stop` (optional) is handed to every quadrature: an end whose quadrature it stops is 0 or 1 (sound). With a
// quasi-Monte Carlo F (C > 4: its error allowance ~1e-3 makes second differences useless) only the zeroth order.
Interval softmax_vertex_bounds(const std::vector<Interval>& mean, const std::vector<Interval>& covariance,
                               const std::vector<double>& reference, std::size_t c, double target_gap,
                               LatentPartitionOptions::Ends ends = LatentPartitionOptions::Ends::both,
                               const std::function<bool()>& stop = {});

// What the bounds over every region of one model share, built once (setup O(C^2 n^3): C solves and
// C (C + 1) / 2 products of n x n for the matrices R^pq, and with shared length-scales D (D + 1) / 2
// Cholesky factors): explanations bound one region per feature, and a certificate's several searches one
// region each, all of the same model.
struct MulticlassBoundTerms {
  // nullptr when `stop` (checked between the matrices) returned true before they were all made.
  static std::shared_ptr<const MulticlassBoundTerms> make(const MulticlassLaplace& model,
                                                          const std::function<bool()>& stop = {});
  // The bytes the terms of a model with `classes` classes and `size` training rows take (C (C + 1) / 2 matrices
  // R^pq of n x n, and with shared length-scales D (D + 1) / 2 combined matrices and as many factors, plus D (D - 1) / 2
  // factors of Var(g_j - g_k) when D <= kMaxMinusFactorDifferences), computed
  // before any is made so that a caller can refuse what does not fit (kMaxBoundTermBytes); saturates at SIZE_MAX.
  static std::size_t bytes(std::size_t classes, std::size_t size, bool shared_scales);

  const MulticlassLaplace* model = nullptr;  // the model they were made for (checked by MulticlassBoxBounds)
  std::size_t classes = 0, size = 0;         // C and n
  std::vector<std::vector<double>> weights;  // C: s2_c alpha_c
  std::vector<RowMatrix> R;                  // R^pq for p <= q, at pair_index(p, q)
  std::vector<RowMatrix> difference_R;       // combined matrices of Gamma_jk (j <= k) when shared, else empty
  std::vector<bool> same_scales;             // C: class c has class r's length-scales
  // With shared length-scales: lower-triangular factors M'M = P of the positive semi-definite matrices of
  // Var g_j (j < D, first) and Var(g_j + g_k) (j < k, in row order), and their residual bounds.
  std::vector<RowMatrix> factors;
  std::vector<double> factor_residuals;
  bool factors_failed = false;
  // Also with shared length-scales and D <= kMaxMinusFactorDifferences: factors of Var(g_j - g_k) (j < k, in row order;
  // empty when any of them is not positive semi-definite), for the off-diagonal remainder delta' R_jk delta = (delta' P_{j+k} delta -
  // delta' P_{j-k} delta) / 4, intersected with the polarisation through P_j and P_k above.
  std::vector<RowMatrix> minus_factors;
  std::vector<double> minus_factor_residuals;

  std::size_t pair_index(std::size_t p, std::size_t q) const;

 private:
  // Appends M (P = M'M) and its residual bound to `out`; false when `matrix` is not positive semi-definite.
  static bool add_factor(const RowMatrix& matrix, std::vector<RowMatrix>& out, std::vector<double>& residuals);
};

// The factors of Var(g_j - g_k) are made for at most this many differences (C <= 4: past that the class-probability
// quadratures' cost, exponential in C, dominates every box, and their D (D - 1) / 2 matrices would add a third to the
// terms' memory).
inline constexpr std::size_t kMaxMinusFactorDifferences = 3;

// The most memory the certification's bound terms may take: 1 GiB (the app's WebAssembly memory is at most 4 GB
// and also holds the model). 100 classes with 2 training rows each would need 4.8 GB.
inline constexpr std::size_t kMaxBoundTermBytes = std::size_t(1) << 30;

class MulticlassBoxBounds {
 public:
  // `model` and `region` must outlive this object. Setup O(C^2 n^3) unless `terms` made for this model are
  // given (terms made for another model are not used: they are made afresh).
  MulticlassBoxBounds(const MulticlassLaplace& model, const RobustnessRegion& region,
                      std::shared_ptr<const MulticlassBoundTerms> terms = nullptr);

  // `box`: k sides over the region's moving coordinates, inside region.box().
  MulticlassLatentBounds latent(const Box& box) const;
  // Every class probability over the box these latent bounds hold on (classes: those whose gap drives the
  // latent partition; empty: all).
  ClassProbabilityBounds probability(const MulticlassLatentBounds& latent, const std::vector<std::size_t>& classes,
                                     const LatentPartitionOptions& options) const;
  // The model's probabilities (C values) at the point of the region whose moving coordinates are `moving`.
  std::vector<double> probabilities_at(const std::vector<double>& moving,
                                       const SoftmaxExpectationOptions& quadrature = {}) const;

  const MulticlassLaplace& model() const { return *model_; }
  const RobustnessRegion& region() const { return *region_; }
  const std::shared_ptr<const MulticlassBoundTerms>& terms() const { return terms_; }

 private:
  const MulticlassLaplace* model_;
  const RobustnessRegion* region_;
  std::size_t n_ = 0, C_ = 0, k_ = 0;
  std::shared_ptr<const MulticlassBoundTerms> terms_;
  std::vector<double> moving_columns_;        // k columns of n
  std::vector<std::vector<double>> theta_;    // C: theta on the moving coordinates (k)
  std::vector<std::vector<double>> fixed_z_;  // C: the fixed coordinates' part of z_i^c (n)
  // The index in terms_->factors of Var(g_j + g_k), j < k.
  std::size_t pair_factor(std::size_t j, std::size_t k) const {
    const std::size_t D = C_ - 1;
    std::size_t index = D;
    for (std::size_t a = 0; a < j; ++a) index += D - 1 - a;
    return index + (k - j - 1);
  }
};

}  // namespace gpprobe
