// Two-stage anomaly detection with the knowledge score (Butler et al., "Trustworthy Prediction with Gaussian
// Process Knowledge Scores", Sec. III-B and Fig. 2; docs/design/regression.md, "Knowledge score"):
//
//   unknown   if G(x) < rho                                    (the model was not informed here)
//   anomaly   else if |y - mean(x)| > theta sqrt(var_post(x) + noise)
//   normal    otherwise
//
// The anomaly score is the standardised residual |y - mean| / sqrt(observation variance); the second
// stage thresholds it at theta (3 by default: a two-sided tail probability below 0.3%).
//
//   inputs  n values each: y, mean, observation_variance (= var_post + noise), knowledge
//   outputs n statuses / n scores
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpprobe/common/enum_names.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

enum class PointStatus : std::uint8_t { normal = 0, anomaly = 1, unknown = 2 };
inline constexpr EnumNames<PointStatus, 3> kPointStatusNames = {
    {{PointStatus::normal, "normal"}, {PointStatus::anomaly, "anomaly"}, {PointStatus::unknown, "unknown"}}};

// "normal" / "anomaly" / "unknown".
inline const char* status_name(PointStatus status) { return name_of(kPointStatusNames, status); }

struct AnomalyThresholds {
  double rho = 0.5;    // knowledge gate, in [0, 1] (the CLI's and the app's default)
  double theta = 3.0;  // standardised residual threshold, > 0
};

// invalid_argument when rho is not in [0, 1] or theta is not a finite number > 0.
Status check_thresholds(const AnomalyThresholds& thresholds);

// score[i] = |y_i - mean_i| / sqrt(observation_variance_i).
void anomaly_scores(const double* y, const double* mean, const double* observation_variance, std::size_t n,
                    double* score);

Status classify_points(const double* y, const double* mean, const double* observation_variance, const double* knowledge,
                       std::size_t n, const AnomalyThresholds& thresholds, PointStatus* out);

}  // namespace gpprobe
