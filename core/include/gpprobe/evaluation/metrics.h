// The metrics of the evaluation, each defined to equal its scikit-learn namesake exactly:
//
//   auroc     roc_auc_score: P(score of a positive > score of a negative) + ½ P(equal), i.e. the
//             Mann-Whitney U / (n+ n-) with mid-ranks for ties; O(n log n)
//   auprc     average_precision_score: Σ_k (R_k - R_{k-1}) P_k over the distinct score thresholds in
//             descending order (tied scores form one threshold), R_0 = 0
//   accuracy  accuracy_score(labels, probability > threshold): the fraction of correct predictions
//             (strictly greater, like LogisticRegression.predict at threshold 0.5)
//   pearson   scipy.stats.pearsonr's r: cov(x, y) / (sd(x) sd(y)), two-pass, clipped to [-1, 1]
//   auroc_standard_error  DeLong et al. (1988): with the placements V_i = P(score of positive i > score of
//             a negative) + ½ P(equal) over the negatives, and W_j likewise for negative j over the
//             positives, var = s²(V) / n+ + s²(W) / n- (sample variances, n - 1); O(n+ n-)
//   roc_curve roc_curve(drop_intermediate=False): one point per distinct threshold in descending order,
//             after a first point (0, 0) whose threshold is +infinity (scikit-learn >= 1.3; 1.2 wrote
//             max(score) + 1 there)
//
//   labels  n values in {0, 1};  scores / probability / x / y  n finite values
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/common/fields.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

// Both labels must occur.
Result<double> auroc(const std::uint8_t* labels, const double* scores, std::size_t n);
// At least two labels of each class.
Result<double> auroc_standard_error(const std::uint8_t* labels, const double* scores, std::size_t n);
// At least one positive label.
Result<double> auprc(const std::uint8_t* labels, const double* scores, std::size_t n);
Result<double> accuracy(const std::uint8_t* labels, const double* probability, std::size_t n, double threshold = 0.5);
// n >= 2, neither x nor y constant.
Result<double> pearson(const double* x, const double* y, std::size_t n);

struct RocCurve {
  std::vector<double> false_positive_rate;  // points, non-decreasing from 0 to 1
  std::vector<double> true_positive_rate;   // points, non-decreasing from 0 to 1
  std::vector<double> thresholds;           // points, decreasing; the first is +infinity
};
GPPROBE_DESCRIBE(RocCurve, "RocCurveValue", GPPROBE_FIELD(false_positive_rate), GPPROBE_FIELD(true_positive_rate),
                 GPPROBE_FIELD(thresholds));

// Both labels must occur.
Result<RocCurve> roc_curve(const std::uint8_t* labels, const double* scores, std::size_t n);

}  // namespace gpprobe
