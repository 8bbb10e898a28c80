// Sound bounds of every class probability pi^c = E[softmax_c(f)] over a set of latent Gaussians given only
// intervals for their moments (Blaas et al. 2020, Prop. 3, Prop. 4, Lemma 1; docs/design/multiclass.md):
// softmax depends on the C - 1 differences g_j = f_j - f_r (r = C - 1) only, so the bounds work on
// g ~ N(m, Gamma) with every m_j in mean[j] and every Gamma_jk in covariance[j * D + k] (D = C - 1).
//
//   Prop. 3   a partition {S} of R^D into axis-parallel cells:
//             pi^c >= sum_S min_S softmax_c * min P(S),   pi^c <= sum_S max_S softmax_c * max P(S)
//   Lemma 1   softmax_c over a cell is extreme at known vertices: the minimum at g_c = lower end, every other
//             g_j = upper end (for c = r: every g_j at its upper end); the maximum the other way round.
//   Prop. 4   P(S) = P(g_{D-1} in I_{D-1}) prod_{s < D-1} P(g_s in I_s | g_{s+1..} in S^{s+1}), each factor
//             bounded by its extremes over the conditioning values (Lemma 2) and over the moment intervals:
//             conditional mean m_s + Gamma_{s,I} Gamma_{I,I}^-1 (g_I - m_I) (with +: the paper prints -),
//             conditional variance the Schur complement. Both are enclosed by interval Gaussian elimination
//             from the last difference (pivots = conditional variances, which must stay > 0: otherwise the
//             bounds are [0, 1] and `conditioning_failed` is set).
//   Prop. 2   each factor G(a, b; mu, v) = Phi((b - mu)/sqrt v) - Phi((a - mu)/sqrt v) over a rectangle of
//             (mu, v): maximum at mu = clamp((a + b)/2) and v = v_L inside [a, b], else clamp(v*(mu)),
//             v*(mu) = ((mu - a)^2 - (mu - b)^2) / (2 log((mu - a)/(mu - b))); minimum at a corner.
//   sums      pi^c_L >= 1 - sum_{c' != c} pi^{c'}_U and pi^c_U <= 1 - sum_{c' != c} pi^{c'}_L (the C values sum
//             to 1), clipped to [0, 1], and widened by 1e-12 for the rounding of the Phi evaluations.
//
// The partition is refined adaptively: it starts as a grid over [m_L - 7 sd, m_U + 7 sd] per axis (sd =
// sqrt of the largest variance; two unbounded tail cells per axis), and the cell with the largest
// max_S softmax_c * max P(S) - min_S softmax_c * min P(S) (over the classes asked) is split at the midpoint
// of its widest finite side (in sd units) until the summed gap is <= target_gap for every class asked, or
// max_cells. With exact moments the gap vanishes as the cells shrink; over an input box it is bounded below
// by the moment intervals' widths, which branch and bound shrinks. Cost O(cells (D^2 + C^2)).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "gpprobe/certify/interval.h"

namespace gpprobe {

struct LatentPartitionOptions {
  double target_gap = 1e-3;      // refine until every asked class's upper - lower <= this
  std::size_t max_cells = 4096;  // ... or the partition has this many cells
  double coverage = 7.0;         // standard deviations covered by the bounded cells on each side
  // Which ends of the asked classes' intervals the caller uses: MulticlassBoxBounds::probability then spends its
  // vertex bound's first-order term (one quadrature with the moments per end) on that end only; the other end gets
  // the zeroth-order term.
  enum class Ends { both, lower, upper };
  Ends ends = Ends::both;
  // Checked inside the work (grid cells, refinement steps, the vertex bound's quadratures); once it returns true
  // the bounds stop being refined: what is left unrefined is bounded trivially ([0, 1]), so they stay sound, and
  // `stopped` is set (a caller's deadline or cancel).
  std::function<bool()> stop = {};
};

struct ClassProbabilityBounds {
  std::vector<Interval> probability;  // C, each inside [0, 1]
  std::size_t cells = 0;              // the partition's size
  bool conditioning_failed = false;   // a conditional variance's interval reached 0: every class is [0, 1]
  bool grid_too_large = false;        // the initial grid would exceed kMaxLatentCells: every class is [0, 1]
  bool stopped = false;               // options.stop ended the work early (sound, wider bounds)
};

// The initial grid has (pieces + 2)^D cells (3^D for D > 3); beyond this many (D > 11, C > 12) it is not built and
// the partition's bounds are [0, 1] (the vertex bound of multiclass_box_bounds.h still applies): 3^12 cells would
// take ~0.3 GB and 3^99 (the CLI's 100 classes) cannot be built at all.
inline constexpr std::size_t kMaxLatentCells = std::size_t(1) << 18;

// mean: D intervals (D >= 1); covariance: D * D intervals (row-major, symmetric); classes: the classes whose
// gap drives the refinement (empty: all C = D + 1).
ClassProbabilityBounds softmax_probability_bounds(const std::vector<Interval>& mean,
                                                  const std::vector<Interval>& covariance,
                                                  const std::vector<std::size_t>& classes,
                                                  const LatentPartitionOptions& options = {});

// The extremes of G(a, b; mu, v) = Phi((b - mu)/sqrt v) - Phi((a - mu)/sqrt v) over mu in `mean`, v in
// `variance` (Prop. 2; a < b, either may be infinite, and so may the ends of `mean`; v >= 0 with the
// limits of v -> 0). Returns {minimum, maximum}.
Interval gaussian_mass_range(double a, double b, Interval mean, Interval variance);

// softmax_c at Lemma 1's vertex of the cell [lower, upper] (D values each, ends may be infinite):
// the minimum over the cell when `minimum`, else the maximum.
double softmax_cell_extreme(const std::vector<double>& lower, const std::vector<double>& upper, std::size_t c,
                            bool minimum);

}  // namespace gpprobe
