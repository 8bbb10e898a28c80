// The building blocks of the robustness paper's binary experiments (Blaas et al., AISTATS 2020, §6 and
// supp. E-F), shared by `gpprobe paper-robustness` and, later, the app:
//
//   fit_for_epochs          SE-ARD hyperparameters as the authors train them: from s2 = 1, every l = 1,
//                           at most `epochs` evaluations of the approximation's log marginal likelihood
//                           (GPML's minimize(hyp, @gp, -epochs, ...), "epochs" in Fig. 4), by bounded
//                           L-BFGS (GPML uses conjugate gradients: the path differs, the budget is the
//                           same); the best hyperparameters evaluated within the budget win
//   shortest_length_scales  the `count` coordinates with the shortest learned length-scales (the
//                           authors' 'ls' pixel choice of Fig. 3; our stand-in for their SIFT pixels),
//                           among those the training inputs vary on: a pixel that is 0 in every image
//                           gets no gradient and keeps its starting length-scale, which after training is
//                           often the shortest, yet moving it says nothing about the digits
//   delta_robustness        Fig. 4: delta = pi_max(T) - pi_min(T) over the L-inf box T at each point, as the
//                           certified interval [max.lower - min.upper, max.upper - min.lower]; points run
//                           as tasks on the thread pool (same numbers for any thread count)
//   timed_maximum           Fig. 7: one branch and bound for pi_max(T) up to a tolerance, timed (on the
//                           caller's thread)
#pragma once

#include <cstddef>
#include <vector>

#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/training_data.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/explain/scalar_output.h"

namespace gpprobe {

struct EpochFit {
  SeArdKernel kernel;  // the best evaluated within the budget (d length-scales)
  double log_marginal_likelihood = 0.0;
  double start_log_marginal_likelihood = 0.0;  // at s2 = 1, l = 1
  std::size_t evaluations = 0;                 // <= epochs
};

// epochs >= 1; numerical_failure when the approximation fails at the start itself.
Result<EpochFit> fit_for_epochs(const ClassifierTrainingData& data, const ClassifierOptions& options,
                                std::size_t epochs);

// Coordinates in order of increasing length-scale (ties: lower index first), the first `count`; with
// `inputs` (n by d), only coordinates on which the inputs vary (not constant_features(inputs),
// feature_sensitivity.h: a spread above 1e-6 of the values' scale).
std::vector<std::size_t> shortest_length_scales(const SeArdKernel& kernel, std::size_t count,
                                                const MatrixView& inputs = {});

struct DeltaRobustness {
  double probability = 0.0;  // pi(x*)
  double delta_lower = 0.0, delta_upper = 0.0;
  Interval minimum, maximum;                      // the certified intervals of pi_min(T) and pi_max(T)
  SearchStatus status = SearchStatus::converged;  // converged if both searches did
};

// At every row of `points`, over the box of options (gamma, dims, valid range, tolerance, limits; both
// extremes are refined whatever options.search says). Errors as certify_robustness, naming the row.
Result<std::vector<DeltaRobustness>> delta_robustness(const ClassifierCommonForm& form, const MatrixView& points,
                                                      const RobustnessOptions& options,
                                                      const ProgressCallback& progress = {});

struct TimedExtreme {
  OutputExtreme maximum;  // its iterations: boxes split
  double seconds = 0.0;
};

// pi_max over the L-inf box around `point` (options.gamma, dims, valid range, tolerance,
// max_iterations, time limit), by the same bounds and search as certify_robustness.
Result<TimedExtreme> timed_maximum(const ClassifierCommonForm& form, const std::vector<double>& point,
                                   const RobustnessOptions& options);

}  // namespace gpprobe
