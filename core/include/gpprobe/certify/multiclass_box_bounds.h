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
//               (double) sum with the combined weights, intersected.
//   rounding    every end widened by 8 u (2n + k + 16) times the absolute size of its terms (as docs/design/certify.md).
//
// probability() intersects two sound bounds of each class probability pi^c = F_c(m, Gamma) over the box:
//   Prop. 3-4   softmax_probability_bounds (multiclass_probability_bounds.h) from the moment intervals
//   vertex      (docs/design/multiclass.md's "cheap sound extra", with a curvature term for Gamma) for a
//               fixed Gamma, F_c increases in m_c and decreases in every other m_j, so over the mean box it is
//               extreme at Lemma 1's vertex of the box; and along the segment Gamma_0 -> Gamma (positive
//               definite throughout) dF_c/dt = 1/2 sum_jk dGamma_jk E[d2 softmax_c / dg_j dg_k], where
//               |d2 softmax_c / dg_j dg_k| <= 8/27 everywhere. So with Gamma_0 the exact covariance at the
//               box centre, F_c(m, Gamma) >= F_c(vertex_min, Gamma_0) - 4/27 sum_jk |Gamma_jk - Gamma_0,jk|
//               (and <= at vertex_max + the same): exact at a point, first order in the box width, two
//               quadratures per class (their error estimates, times 10, plus 1e-12 widen the ends).
//   The partition is refined only while the vertex bound is wider than the target gap.
// A box costs O(C^2 n^2) (the double sums) plus the probability bounds' partition and 2C quadratures.
#pragma once

#include <cstddef>
#include <vector>

#include "gpprobe/certify/branch_and_bound.h"
#include "gpprobe/certify/interval.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/classification/multiclass_laplace.h"
#include "gpprobe/certify/multiclass_probability_bounds.h"
#include "gpprobe/certify/robustness_region.h"

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

class MulticlassBoxBounds {
 public:
  // `model` and `region` must outlive this object. Setup O(C^2 n^3) (the matrices R^pq).
  MulticlassBoxBounds(const MulticlassLaplace& model, const RobustnessRegion& region);

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

 private:
  const MulticlassLaplace* model_;
  const RobustnessRegion* region_;
  std::size_t n_ = 0, C_ = 0, k_ = 0;
  std::vector<double> moving_columns_;              // k columns of n
  std::vector<std::vector<double>> theta_;          // C: theta on the moving coordinates (k)
  std::vector<std::vector<double>> fixed_z_;        // C: the fixed coordinates' part of z_i^c (n)
  std::vector<std::vector<double>> weights_;        // C: s2_c alpha_c
  std::vector<RowMatrix> R_;                        // R^pq for p <= q, at pair_index(p, q)
  std::vector<RowMatrix> difference_R_;             // combined matrices of Gamma_jk (j <= k) when shared, else empty
  std::vector<bool> same_scales_;                   // C: class c has class r's length-scales
  // With shared length-scales: lower-triangular factors M'M = P of the positive semi-definite matrices of
  // Var g_j (j < D, first) and Var(g_j + g_k) (j < k, in row order), and their residual bounds.
  std::vector<RowMatrix> factors_;
  std::vector<double> factor_residuals_;
  bool factors_failed_ = false;
  std::size_t pair_index(std::size_t p, std::size_t q) const;
  void add_factor(const RowMatrix& matrix);
  // The index in factors_ of Var(g_j + g_k), j < k.
  std::size_t pair_factor(std::size_t j, std::size_t k) const {
    const std::size_t D = C_ - 1;
    std::size_t index = D;
    for (std::size_t a = 0; a < j; ++a) index += D - 1 - a;
    return index + (k - j - 1);
  }
};

}  // namespace gpprobe
