// Receiver operating characteristic of a score that should be high for positives (anomalies), over
// the points whose knowledge G >= rho (paper 001, Fig. 3D); rho = 0 keeps every point (ungated).
//
//   scores n values, is_positive n flags (0/1), knowledge n values (may be null: no gate)
//   curve  thresholds from +inf down through every distinct score: (FPR, TPR) from (0, 0) to (1, 1),
//          tied scores form one step; AUC by the trapezoid rule (= P(score+ > score-) + 1/2 P(tie))
// A curve needs at least one positive and one negative among the kept points; otherwise it is
// returned empty with `defined` false (never NaN).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/status.h"

namespace gpprobe {

struct RocCurve {
  double rho = 0.0;
  std::size_t points = 0;     // kept by the gate
  std::size_t positives = 0;
  std::size_t negatives = 0;
  bool defined = false;
  std::vector<double> false_positive_rate, true_positive_rate;
  double auc = 0.0;
};

RocCurve roc_curve(const double* scores, const std::uint8_t* is_positive, const double* knowledge, std::size_t n,
                   double rho);

// One curve per rho.
std::vector<RocCurve> roc_sweep(const double* scores, const std::uint8_t* is_positive, const double* knowledge,
                                std::size_t n, const std::vector<double>& rhos);

}  // namespace gpprobe
