// The GPFGS attack (fast gradient sign for GP classifiers, Grosse et al. 2018) in one step, as the
// robustness paper's authors run it for comparison with their certified bounds (check-GPclass,
// GPFGS_step.m with n_steps = 1): every moving coordinate of x* moves by gamma against the predicted
// class, along the sign of the latent mean's gradient,
//
//   x_adv = clamp(x* + s gamma sign(grad mu(x*)), T),   s = -1 if pi(x*) > 1/2 (push pi down), else +1,
//   d mu / d x_j = -2 theta_j sum_i s2 alpha_i e^{-z_i(x)} (x_j - x_ij)     (SE-ARD, theta_j = 1 / (2 l_j^2))
//
// with sign(0) = 0 and the clamp to the region T being the authors' clip to the valid range. pi rises
// with mu, so this is a gradient-sign step on pi wherever the variance changes little. A heuristic: it
// finds a point of T, never a bound; branch and bound (classifier_robustness.h) may find a stronger one.
#pragma once

#include <vector>

#include "gpprobe/certify/robustness_region.h"
#include "gpprobe/classification/common_form.h"
#include "gpprobe/common/fields.h"

namespace gpprobe {

struct GpfgsAttack {
  std::vector<double> point;  // d values, in the region
  double probability = 0.0;   // pi(point)
};
GPPROBE_DESCRIBE(GpfgsAttack, "GpfgsValue", GPPROBE_FIELD(point), GPPROBE_FIELD(probability));

// d mu / d x at x (d values), O(n d).
std::vector<double> latent_mean_gradient(const ClassifierCommonForm& form, const double* x);

GpfgsAttack gpfgs_attack(const ClassifierCommonForm& form, const RobustnessRegion& region);

}  // namespace gpprobe
