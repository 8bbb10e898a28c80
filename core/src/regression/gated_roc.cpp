#include "gpprobe/regression/gated_roc.h"

#include "gpprobe/evaluation/metrics.h"

namespace gpprobe {

GatedRoc gated_roc(const double* scores, const std::uint8_t* is_positive, const double* knowledge, std::size_t n,
                   double rho) {
  GatedRoc c;
  c.rho = rho;
  std::vector<double> kept_scores;
  std::vector<std::uint8_t> kept_labels;
  for (std::size_t i = 0; i < n; ++i) {
    if (knowledge && knowledge[i] < rho) continue;
    kept_scores.push_back(scores[i]);
    kept_labels.push_back(is_positive[i] ? 1 : 0);
    (is_positive[i] ? c.positives : c.negatives) += 1;
  }
  c.points = kept_scores.size();
  if (c.positives == 0 || c.negatives == 0) return c;
  Result<RocCurve> curve = roc_curve(kept_labels.data(), kept_scores.data(), c.points);
  Result<double> area = auroc(kept_labels.data(), kept_scores.data(), c.points);
  if (!curve.ok() || !area.ok()) return c;  // only for non-finite scores, which the callers never pass
  c.defined = true;
  c.false_positive_rate = std::move(curve.value().false_positive_rate);
  c.true_positive_rate = std::move(curve.value().true_positive_rate);
  c.auc = area.value();
  return c;
}

std::vector<GatedRoc> gated_roc_sweep(const double* scores, const std::uint8_t* is_positive, const double* knowledge,
                                      std::size_t n, const std::vector<double>& rhos) {
  std::vector<GatedRoc> out;
  for (double rho : rhos) out.push_back(gated_roc(scores, is_positive, knowledge, n, rho));
  return out;
}

}  // namespace gpprobe
