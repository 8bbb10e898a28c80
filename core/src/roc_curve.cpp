#include "gpprobe/roc_curve.h"

#include <algorithm>

namespace gpprobe {

RocCurve roc_curve(const double* scores, const std::uint8_t* is_positive, const double* knowledge, std::size_t n,
                   double rho) {
  RocCurve c;
  c.rho = rho;
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < n; ++i) {
    if (knowledge && knowledge[i] < rho) continue;
    kept.push_back(i);
    (is_positive[i] ? c.positives : c.negatives) += 1;
  }
  c.points = kept.size();
  if (c.positives == 0 || c.negatives == 0) return c;
  c.defined = true;
  // Highest score first; a threshold between distinct scores adds every point above it.
  std::sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  std::size_t tp = 0, fp = 0;
  c.false_positive_rate.push_back(0.0);
  c.true_positive_rate.push_back(0.0);
  for (std::size_t k = 0; k < kept.size(); ++k) {
    (is_positive[kept[k]] ? tp : fp) += 1;
    if (k + 1 < kept.size() && scores[kept[k + 1]] == scores[kept[k]]) continue;  // ties: one step
    const double fpr = double(fp) / double(c.negatives), tpr = double(tp) / double(c.positives);
    const double last_fpr = c.false_positive_rate.back(), last_tpr = c.true_positive_rate.back();
    c.auc += (fpr - last_fpr) * (tpr + last_tpr) / 2.0;
    c.false_positive_rate.push_back(fpr);
    c.true_positive_rate.push_back(tpr);
  }
  return c;
}

std::vector<RocCurve> roc_sweep(const double* scores, const std::uint8_t* is_positive, const double* knowledge,
                                std::size_t n, const std::vector<double>& rhos) {
  std::vector<RocCurve> out;
  for (double rho : rhos) out.push_back(roc_curve(scores, is_positive, knowledge, n, rho));
  return out;
}

}  // namespace gpprobe
