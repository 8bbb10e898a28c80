// Certified feature sensitivity: the interpretability metric of Blaas et al. (AISTATS 2020, §6.3 and
// supp. G, eqs. 21-26) for any bounded scalar output (scalar_output.h: a class probability, the probe's
// judged probability). For a point x* and a feature i, the one-sided boxes
//
//   T+ = [x*, x* + gamma e_i],   T- = [x* - gamma e_i, x*]      (clipped to the valid range when given)
//
// and the extremes of the output pi over them,
//
//   Delta_i(x*) = (pi_max(T+) - pi_max(T-)) + (pi_min(T+) - pi_min(T-))            (eq. 24-25)
//
// positive when raising feature i raises pi near x*; for pi linear in x_i with slope w it is 2 gamma w.
// Each of the four extremes is an interval from branch and bound (search_extreme), so Delta comes as
//
//   delta_lower = (maxT+.lower - maxT-.upper) + (minT+.lower - minT-.upper)      sound: <= Delta
//   delta_upper = (maxT+.upper - maxT-.lower) + (minT+.upper - minT-.lower)      sound: >= Delta
//   delta       = the same combination of the values attained at the four witnesses
//
// (each end widened by the rounding of its three sums). The global metric (eq. 26) is the mean over M
// points, its interval the mean of theirs. Cost: 4 one-dimensional searches per feature and point; the
// (point, feature) pairs run as tasks on the thread pool (parallel_for.h), each writing its own result,
// so the numbers do not depend on the thread count.
//
// Features constant in training. When the output knows its training inputs (ScalarOutput::
// training_inputs), each feature is marked constant_in_training when its training values span at most
// kConstantFeatureTolerance times max(1, its largest |value|) (constant_features). Moving such a feature
// (a border pixel that is 0 in every image) moves the point away from all the data along a direction the
// data never explored: the posterior returns towards the prior (p towards 1/2 for a binary classifier,
// 1/C for a softmax one), so Delta there measures distance from the data, not evidence, and with
// hyperparameters fitted by marginal likelihood its length-scale got no gradient and kept its start.
// Delta is still computed for them (it is a true statement about the model); rank_features leaves them
// out unless asked.
//
// Features nearly constant in training: those whose training values differ from their most common value
// in r rows, 0 < r < max(2, nearly_constant_share x n) (training_variation; default share 0.02, so r = 1
// always counts and r < 10 at n = 500). Why the count of rows: the evidence's gradient in a length-scale
// l_j is tr(W dK/dl_j) with dK_ik/dl_j = K_ik (x_ij - x_kj)^2 / l_j^3, which is zero on every pair of rows
// that share the common value, so only r(2n - r - 1)/2 of the n(n - 1)/2 pairs inform l_j: under 2r/n,
// below 4 % at the default. Such a length-scale moves little from its start while the rest of the model
// (the signal variance, the other length-scales) is fitted, and moving the feature takes the point to where
// the data have hardly been (a pixel lit in 2 of 500 images): Delta there again measures distance from the
// data. They are treated as the constant ones (marked, left out of the ranking unless asked).
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <vector>

#include "gpprobe/certify/interval.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/explain/scalar_output.h"

namespace gpprobe {

struct SensitivityOptions {
  double gamma = 0.1;                   // length of each one-sided box, finite and > 0
  std::vector<std::size_t> dims;        // the features explained, distinct; empty: all d
  std::optional<Interval> valid_range;  // clip the boxes to it (e.g. [0, 1] for pixels)
  double tolerance = 1e-3;              // of each search (the authors' 0.001)
  std::size_t max_iterations = 1000;    // boxes split per search (the authors' 1000)
  // Seconds for the whole call, 0: none. One clock for every search of every feature (and point), counted from
  // `started` or else the call's start: once it has run out, every later search bounds its root box and splits no
  // box (status time_limit, iterations 0): sound, wider intervals; each feature's status says which were refined.
  double time_limit_seconds = 0.0;
  std::optional<std::chrono::steady_clock::time_point> started = std::nullopt;
  double constant_tolerance = 1e-6;     // constant_features' relative tolerance, finite and >= 0
  double nearly_constant_share = 0.02;  // training_variation's share, in [0, 1]; 0: only constant features
};

// The relative spread at or below which a training feature counts as constant: 1e-6, above the rounding
// of data stored in float32 (relative 6e-8, e.g. embeddings) or written to 7 significant digits, and far
// below any spread the data could teach the model with (an SE-ARD kernel changes by about
// (spread / length-scale)^2 / 2 across it).
inline constexpr double kConstantFeatureTolerance = 1e-6;

// Per column of `inputs` (n by d, n >= 1): true when max_i x_ij - min_i x_ij <= tolerance *
// max(1, max_i |x_ij|). Every column is constant for n = 1; an empty `inputs` gives d = 0 flags.
std::vector<bool> constant_features(const MatrixView& inputs, double tolerance = kConstantFeatureTolerance);

// The default of SensitivityOptions::nearly_constant_share (see above).
inline constexpr double kNearlyConstantShare = 0.02;

// Per feature of the training inputs: how many rows differ from the most common value (values within the
// constant tolerance of the column's scale, as constant_features, count as one value), and the two marks.
// constant[j] == (varying_rows[j] == 0) == constant_features(inputs)[j]; nearly_constant[j] when
// 0 < varying_rows[j] < max(2, share x n), never when share is 0.
struct TrainingVariation {
  std::vector<std::size_t> varying_rows;
  std::vector<bool> constant, nearly_constant;
};
TrainingVariation training_variation(const MatrixView& inputs, double tolerance = kConstantFeatureTolerance,
                                     double nearly_constant_share = kNearlyConstantShare);

// The extremes of the output over one one-sided box (its feature's values from..to).
struct SideExtremes {
  double from = 0.0, to = 0.0;     // the box: [from, to] (T-: x*_i - gamma .. x*_i; T+: x*_i .. x*_i + gamma)
  OutputExtreme minimum, maximum;  // witnesses: one value of the feature each
};

struct FeatureSensitivity {
  std::size_t feature = 0;
  double delta_lower = 0.0, delta = 0.0, delta_upper = 0.0;
  SideExtremes minus, plus;                       // over T- and T+
  SearchStatus status = SearchStatus::converged;  // converged if all four searches did, else the first other
  std::size_t iterations = 0;                     // boxes split by the four searches
  bool constant_in_training = false;              // see above; false when the training inputs are unknown
  bool nearly_constant_in_training = false;       // see above; false when the training inputs are unknown
  std::size_t varying_rows = 0;                   // training rows off the most common value (0 when unknown)
};

struct LocalSensitivity {
  std::vector<double> point;                 // x*
  double value = 0.0;                        // the output at x*
  std::vector<FeatureSensitivity> features;  // in the order of options.dims (all: 0..d-1)
};

struct GlobalSensitivity {
  std::vector<std::size_t> features;
  std::vector<double> delta_lower, delta, delta_upper;  // per feature, means over the points
  std::vector<bool> constant_in_training;               // per feature
  std::vector<bool> nearly_constant_in_training;        // per feature
  std::vector<std::size_t> varying_rows;                // per feature (all 0 when the training inputs are unknown)
  std::vector<LocalSensitivity> points;                 // each point's own
};

// invalid_argument / dimension_mismatch / non_finite naming the problem (gamma, the point's size or
// values, the feature list, the valid range and the point's place in it, tolerance). `progress` sees
// (features done, features) and may cancel (status `cancelled`).
Result<LocalSensitivity> feature_sensitivity(const BoundedOutput& output, const std::vector<double>& point,
                                             const SensitivityOptions& options, const ProgressCallback& progress = {});

// The same at every row of `points` (M >= 1 rows), averaged. `progress` sees (pairs done, M x features).
Result<GlobalSensitivity> global_sensitivity(const BoundedOutput& output, const MatrixView& points,
                                             const SensitivityOptions& options, const ProgressCallback& progress = {});

// One point's features, largest certified |Delta| first, as positions in local.features: first by the
// distance from 0 of an interval that excludes 0 (0 for one that does not), then by the interval's end
// farthest from 0, then by |delta|, then by position (the app's order, web/src/engine/explain). Features
// constant or nearly constant in training are left out unless include_constant.
std::vector<std::size_t> rank_features(const LocalSensitivity& local, bool include_constant = false);

}  // namespace gpprobe
