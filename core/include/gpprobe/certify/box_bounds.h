// Sound bounds of a fitted GP classifier's latent mean, latent variance and class probability over a
// box of a robustness region, with the candidate points where they are nearly attained (docs/design/certify.md,
// "Bounds over a box" items 1-6; the authors' `var_bound = 'quick'` relaxation), for the common form
// mu(x) = sum_i c_i e^{-z_i(x)}, Sigma(x) = s2 - sum_{i,l} R_il e^{-z_i(x) - z_l(x)} (c = s2 alpha,
// R = s2^2 Q, z_i(x) = sum_j theta_j (x_j - x_ij)^2, theta_j = 1 / (2 l_j^2)):
//
//   1. z_i over the box: its exact range [zL_i, zU_i] (nearest and farthest point of the box).
//   2. c e^{-z} lies above its tangent at the midpoint zm and below its chord on [zL, zU] (c >= 0;
//      swapped for c < 0).
//   3. mean: the lines sum to a + sum_i b_i z_i(x), minimised exactly coordinate by coordinate
//      (separable); intersected with interval arithmetic sum_i [c_i e^{-zU_i}, c_i e^{-zL_i}].
//   4. variance: the same for every pair, with w = z_i + z_l (relaxed_variance_bounds.h, O(n^2));
//      intersected with the pairwise interval sum, then with the centred form around the box centre
//      (centred_variance_bounds.h: much tighter on small boxes, where the relaxation's gap carries the
//      absolute mass of R), each end from whichever is tighter, and clipped to [0, s2].
//   5. candidates: the optimisers of the four separable problems (and the caller's box centre).
//   6. probability: probability_bounds.h from the mean and variance intervals.
//
// Every end is widened by an a-priori rounding allowance, 8 u (2n + k + 16) times the absolute size of
// the terms summed (mean: sum_i |c_i| e^{-zL_i} (1 + zU_i); variance: s2 + sum_{i,l} |R_il| e^{-zL_i -
// zL_l} (1 + zU_i + zU_l), which also covers the model's own evaluation s2 - |M k|^2, whose terms sum to
// | |M| k |^2: at most 1.31 times k'|Q|k on the golden models; the centred form uses | |M| k^U |^2 itself),
// so the bounds hold for the exact latent and for the values ClassifierCommonForm reports. A box costs O(n^2 k) (k moving coordinates: products of the
// variance factor's two signed parts with 2k + 8 columns, one pass over Q's lower triangle); the
// region's fixed coordinates are folded into z once.
#pragma once

#include <cstddef>
#include <vector>

#include "gpprobe/certify/branch_and_bound.h"
#include "gpprobe/certify/interval.h"
#include "gpprobe/certify/robustness_region.h"
#include "gpprobe/classification/common_form.h"
#include "gpprobe/common/enum_names.h"

namespace gpprobe {

struct LatentBoxBounds {
  Interval mean;      // mean.lower <= mu(x) <= mean.upper for every x in the box
  Interval variance;  // likewise for Sigma(x); inside [0, s2]
  // Where the separable relaxations of mu^L, mu^U, Sigma^L and Sigma^U reach their optimum (k values
  // each, in the box): promising points for the extremes of the probability (docs/design/certify.md, "Bounds over a box" item 5).
  std::vector<double> mean_lower_point, mean_upper_point, variance_lower_point, variance_upper_point;
};

// The variance bounds latent() intersects: the reference's pairwise relaxation and the centred form
// (`both`, the default), the centred form alone (the relaxation's pass over Q costs as much again, and
// it was the tighter one on under 1% of branch and bound's boxes, measured on 40 random models and
// Synthetic2D), or the relaxation alone (the reference's bounds exactly, for comparison).
enum class VarianceMethod { both, centred, relaxation };
inline constexpr EnumNames<VarianceMethod, 3> kVarianceMethodNames = {
    {{VarianceMethod::both, "both"}, {VarianceMethod::centred, "centred"}, {VarianceMethod::relaxation, "relaxation"}}};

class ClassifierBoxBounds {
 public:
  // `form` and `region` must outlive this object (O(n d) to set up).
  ClassifierBoxBounds(const ClassifierCommonForm& form, const RobustnessRegion& region);

  // `box`: k sides over the region's moving coordinates, inside region.box().
  LatentBoxBounds latent(const Box& box, VarianceMethod variance = VarianceMethod::both) const;
  // Bounds of p(y = +1 | x) over the box those latent bounds hold on.
  Interval probability(const LatentBoxBounds& latent) const;
  // p(y = +1 | x) at the point of the region whose moving coordinates are `moving` (k values).
  double probability_at(const std::vector<double>& moving) const;
  // The same at several points at once (one pass over the model's n by n factor).
  std::vector<double> probabilities_at(const std::vector<std::vector<double>>& moving) const;

  const ClassifierCommonForm& form() const { return *form_; }
  const RobustnessRegion& region() const { return *region_; }

 private:
  const ClassifierCommonForm* form_;
  const RobustnessRegion* region_;
  std::vector<double> fixed_z_;         // n: the fixed coordinates' part of z_i
  std::vector<double> weights_;         // n: c = s2 alpha
  std::vector<double> moving_columns_;  // k columns of n: the training inputs on the moving coordinates
  std::vector<double> moving_theta_;    // k: theta on the moving coordinates
};

}  // namespace gpprobe
