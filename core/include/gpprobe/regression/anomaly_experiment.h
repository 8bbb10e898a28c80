// The paper's Fig. 3 experiment in one call (Butler et al., "Trustworthy Prediction
// with Gaussian Process Knowledge Scores", Sec. IV-A): knowledge-gated anomaly detection.
//
//   F(x) = sin(2 pi x) + 2x (the trend makes extrapolation by the prior mean go wrong, as in Fig. 1),
//   y = F(x) + e, e ~ N(0, noise_sd^2); each point is, with probability anomaly_fraction, an anomaly
//   whose y is drawn from U(-5, 5) instead.
//   training: `training` points with x ~ U(0, 1);  test: `test` points with x ~ U(test_lower, test_upper)
//   model: constant * rbf + noise, hyperparameters by maximum marginal likelihood (seeded restarts),
//          fitted to the normal training points (the paper separates them with a GP mixture model
//          first; here the generator's labels stand in for that step)
//   outputs per test point: mean, variances, knowledge G, anomaly score |y - mean| / sd, status at
//          (status_rho, theta); ROC of the score over all test points (ungated) and over G >= rho for
//          each rho of the sweep; and the model's predictions at grid_points evenly spaced x over the
//          test range (for plotting the fitted curve and its bands).
// The paper does not print F or the test range; these are our choices, fixed here and documented.
#pragma once

#include <cstdint>
#include <vector>

#include "gpprobe/common/fields.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"
#include "gpprobe/regression/anomaly_detection.h"
#include "gpprobe/regression/gated_roc.h"
#include "gpprobe/regression/gp_regression.h"

namespace gpprobe {

struct AnomalyExperimentOptions {
  std::uint64_t seed = 0;
  std::size_t training = 50;
  std::size_t test = 1000;
  double anomaly_fraction = 0.1;
  double noise_sd = 0.1;
  double test_lower = -1.0, test_upper = 2.0;
  double theta = 3.0;
  double status_rho = 0.5;
  std::vector<double> rhos{0.1, 0.3, 0.5, 0.7, 0.9};
  std::size_t restarts = 2;
  std::size_t grid_points = 400;
};

struct AnomalyExperiment {
  RowMatrix train_x;  // training by 1
  std::vector<double> train_y;
  std::vector<std::uint8_t> train_anomaly;
  RowMatrix test_x;  // test by 1
  std::vector<double> test_y;
  std::vector<std::uint8_t> test_anomaly;
  std::vector<double> mean, latent_variance, observation_variance, knowledge, score;
  std::vector<PointStatus> status;
  Kernel kernel = Kernel::constant(1.0);
  double noise_variance = 0.0;
  double log_marginal_likelihood = 0.0;
  GatedRoc ungated;
  std::vector<GatedRoc> gated;  // one per rho
  std::vector<double> grid_x;   // grid_points evenly on [test_lower, test_upper]
  Predictions grid;
};
// The matrices cross as their values (training by 1, test by 1), the statuses as their codes (index into
// the vocabulary's anomaly_statuses), the kernel as text for reading (its model's predictions are `grid`).
GPPROBE_DESCRIBE(AnomalyExperiment, "AnomalyExperimentValue", GPPROBE_COVERED(train_x),
                 GPPROBE_COMPUTED("train_x",
                                  [](const AnomalyExperiment& e) {
                                    return std::vector<double>(e.train_x.data(), e.train_x.data() + e.train_x.size());
                                  }),
                 GPPROBE_FIELD(train_y), GPPROBE_FIELD(train_anomaly), GPPROBE_COVERED(test_x),
                 GPPROBE_COMPUTED("test_x",
                                  [](const AnomalyExperiment& e) {
                                    return std::vector<double>(e.test_x.data(), e.test_x.data() + e.test_x.size());
                                  }),
                 GPPROBE_FIELD(test_y), GPPROBE_FIELD(test_anomaly), GPPROBE_FIELD(mean),
                 GPPROBE_FIELD(latent_variance), GPPROBE_FIELD(observation_variance), GPPROBE_FIELD(knowledge),
                 GPPROBE_FIELD(score), GPPROBE_COVERED(status),
                 GPPROBE_COMPUTED("statuses",
                                  [](const AnomalyExperiment& e) {
                                    std::vector<std::uint8_t> codes;
                                    for (PointStatus s : e.status) codes.push_back(std::uint8_t(s));
                                    return codes;
                                  }),
                 GPPROBE_COVERED(kernel),
                 GPPROBE_COMPUTED("kernel", [](const AnomalyExperiment& e) { return e.kernel.describe(); }),
                 GPPROBE_FIELD(noise_variance), GPPROBE_FIELD(log_marginal_likelihood), GPPROBE_FIELD(ungated),
                 GPPROBE_FIELD(gated), GPPROBE_FIELD(grid_x), GPPROBE_FIELD(grid));

// Progress covers the hyperparameter fit (the long part). invalid_argument for counts of 0, a fraction
// outside [0, 1), an empty test range or thresholds out of range.
Result<AnomalyExperiment> run_anomaly_experiment(const AnomalyExperimentOptions& options = {},
                                                 const ProgressCallback& progress = {});

}  // namespace gpprobe
