#include "gpprobe/regression/anomaly_detection.h"

#include <cmath>
#include <sstream>

namespace gpprobe {

Status check_thresholds(const AnomalyThresholds& t) {
  std::ostringstream os;
  if (!(t.rho >= 0.0 && t.rho <= 1.0)) {
    os << "rho must be in [0, 1], got " << t.rho;
    return Status(StatusCode::invalid_argument, os.str());
  }
  if (!(std::isfinite(t.theta) && t.theta > 0.0)) {
    os << "theta must be a finite number > 0, got " << t.theta;
    return Status(StatusCode::invalid_argument, os.str());
  }
  return Status::success();
}

void anomaly_scores(const double* y, const double* mean, const double* observation_variance, std::size_t n,
                    double* score) {
  for (std::size_t i = 0; i < n; ++i) score[i] = std::abs(y[i] - mean[i]) / std::sqrt(observation_variance[i]);
}

Status classify_points(const double* y, const double* mean, const double* observation_variance, const double* knowledge,
                       std::size_t n, const AnomalyThresholds& thresholds, PointStatus* out) {
  GPPROBE_RETURN_IF_ERROR(check_thresholds(thresholds));
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(y[i])) {
      return Status(StatusCode::non_finite, "test target " + std::to_string(i) + " is not finite");
    }
    if (knowledge[i] < thresholds.rho) {
      out[i] = PointStatus::unknown;
    } else {
      const double score = std::abs(y[i] - mean[i]) / std::sqrt(observation_variance[i]);
      out[i] = score > thresholds.theta ? PointStatus::anomaly : PointStatus::normal;
    }
  }
  return Status::success();
}

}  // namespace gpprobe
