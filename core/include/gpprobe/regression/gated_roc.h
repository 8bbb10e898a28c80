// The ROC of an anomaly score over the points whose knowledge G >= rho (Butler et al., "Trustworthy
// Prediction with Gaussian Process Knowledge Scores", Fig. 3D): the
// knowledge gate of two-stage anomaly detection. rho = 0 (or no knowledge) keeps every point.
//
//   scores n values (high = anomalous), is_positive n flags (0/1), knowledge n values or null
//   curve  roc_curve of metrics.h over the kept points (tied scores one step); auc = its AUROC
// A curve needs at least one positive and one negative among the kept points; otherwise it is
// returned empty with `defined` false (never NaN).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/common/fields.h"

namespace gpprobe {

struct GatedRoc {
  double rho = 0.0;
  std::size_t points = 0;  // kept by the gate
  std::size_t positives = 0;
  std::size_t negatives = 0;
  bool defined = false;
  std::vector<double> false_positive_rate, true_positive_rate;
  double auc = 0.0;
};
GPPROBE_DESCRIBE(GatedRoc, "RocValue", GPPROBE_FIELD(rho), GPPROBE_FIELD(points), GPPROBE_FIELD(positives),
                 GPPROBE_FIELD(negatives), GPPROBE_FIELD(defined), GPPROBE_FIELD(auc),
                 GPPROBE_FIELD(false_positive_rate), GPPROBE_FIELD(true_positive_rate));

// One curve per rho (gated_roc_sweep below), as the other faces return them.
struct GatedRocSweep {
  std::vector<GatedRoc> curves;
};
GPPROBE_DESCRIBE(GatedRocSweep, "RocSweep", GPPROBE_FIELD(curves));

GatedRoc gated_roc(const double* scores, const std::uint8_t* is_positive, const double* knowledge, std::size_t n,
                   double rho);

// One curve per rho.
std::vector<GatedRoc> gated_roc_sweep(const double* scores, const std::uint8_t* is_positive, const double* knowledge,
                                      std::size_t n, const std::vector<double>& rhos);

}  // namespace gpprobe
