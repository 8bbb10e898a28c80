// LIME, the local linear surrogate of Ribeiro, Singh & Guestrin (KDD 2016) as the lime package runs it
// (lime_image's sampling of an on/off representation; lime_tabular's kernel, kernel width and
// distance; lime_base's weighted ridge regression), for a scalar output (scalar_output.h) at a point
// x*, over k features J:
//
//   samples   z_s in {0, 1}^k, s = 0..N-1: z_0 = 1 (x* itself), every other entry 0 or 1 with
//             probability 1/2 (RandomStream(seed).index(2), row by row, feature by feature)
//   inputs    x_s = x* with feature J_j set to baseline_j wherever z_sj = 0 ("switched off": the
//             training mean for tabular data, 0 for pixels as the robustness paper does)
//   outputs   y_s = the model's output at x_s
//   weights   w_s = sqrt(exp(-D_s^2 / sigma^2)) = exp(-D_s^2 / (2 sigma^2)), D_s = |z_s - z_0| (Euclidean:
//             the square root of the number of features switched off), sigma = 0.75 sqrt(k). The lime
//             package's kernel carries that square root; the paper writes exp(-D^2 / sigma^2).
//   fit       ridge with intercept, alpha = 1: minimise sum_s w_s (y_s - b - z_s'beta)^2 + alpha |beta|^2,
//             solved as (Zc' W Zc + alpha I) beta = Zc' W yc with Z and y centred at their weighted
//             means, b = ybar - zbar'beta (scikit-learn's Ridge with sample_weight, which lime calls)
//   result    beta: the attributions (the output's change when feature j is switched on, all else
//             equal in the surrogate), b, the weighted R^2 of the surrogate on the samples and its
//             prediction at x* (b + sum beta)
//
// A coefficient is the effect of switching a feature from its baseline to x*'s value, not a slope:
// divided by (x*_j - baseline_j) it reads as one (slope()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/common/status.h"
#include "gpprobe/explain/scalar_output.h"

namespace gpprobe {

struct LimeOptions {
  std::size_t samples = 5000;  // N, the point itself included (LIME's num_samples)
  std::uint64_t seed = 0;
  std::vector<double> baseline;   // d values: what a switched-off feature becomes
  std::vector<std::size_t> dims;  // the features switched on and off (k); empty: all d
  double kernel_width = 0.0;      // sigma; 0: LIME's default 0.75 sqrt(k)
  double ridge = 1.0;             // alpha, > 0
};

struct LimeExplanation {
  std::vector<std::size_t> features;  // J
  std::vector<double> coefficients;   // beta, one per feature of J
  double intercept = 0.0;
  double score = 0.0;             // weighted R^2 of the surrogate on the samples
  double local_prediction = 0.0;  // the surrogate at x*: intercept + sum of the coefficients
  double kernel_width = 0.0;      // sigma used
};

// The on/off samples (N by k, row-major, 0/1): row 0 all ones, then entries index(2) of RandomStream(seed).
std::vector<std::uint8_t> lime_samples(std::size_t samples, std::size_t k, std::uint64_t seed);

// The weighted ridge fit on given samples (N by k of 0/1) and outputs (N values). kernel_width > 0;
// invalid_argument / dimension_mismatch / non_finite naming the problem; numerical_failure if the
// system does not factorise (it cannot for alpha > 0 and finite values).
Result<LimeExplanation> lime_fit(const std::vector<std::uint8_t>& samples, std::size_t k,
                                 const std::vector<double>& outputs, double kernel_width, double ridge);

// Samples, outputs (one values() call over the N perturbed inputs) and fit. N >= 2; the baseline has d
// finite values; the point d finite values.
Result<LimeExplanation> lime_explain(const ScalarOutput& output, const std::vector<double>& point,
                                     const LimeOptions& options);

// beta_j / (x*_j - baseline_j) for each feature of J, 0 where x*_j equals the baseline (LIME cannot see
// a feature that switching off does not change).
std::vector<double> lime_slopes(const LimeExplanation& lime, const std::vector<double>& point,
                                const std::vector<double>& baseline);

}  // namespace gpprobe
