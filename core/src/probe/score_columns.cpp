#include "probe/score_columns.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "gpprobe/common/number_text.h"

#include "probe/measure_table.h"

namespace gpprobe {

namespace {
constexpr double kVarianceRoundingExcess = 1e-12;
}

Status check_latent(std::size_t query, double mean, double variance, double prior_variance, double condition) {
  if (std::isfinite(mean) && variance > 0.0 && variance <= prior_variance * (1.0 + kVarianceRoundingExcess)) {
    return Status::success();
  }
  std::ostringstream os;
  os << "query " << query << ": the posterior gave latent mean " << number_text(mean) << " and variance "
     << number_text(variance) << ", outside (0, 2v = " << number_text(prior_variance) << "]";
  os << " (condition estimate " << number_text(condition, 2) << ")";
  return Status(StatusCode::numerical_failure, os.str());
}

void write_score_columns(std::size_t q, double mean, double variance, double prior_variance,
                         const ProbeScoreColumns& out) {
  const double s2 = std::min(variance, prior_variance);
  if (out.latent_mean) out.latent_mean[q] = mean;
  if (out.latent_variance) out.latent_variance[q] = s2;
  if (out.knowledge) out.knowledge[q] = 1.0 - s2 / prior_variance;
  if (out.ood_score) out.ood_score[q] = -s2;
  if (out.judged_probability || out.episteme || out.alea) {
    const UncertaintyMeasures u = tabulated_uncertainty_measures(mean, s2, prior_variance);
    if (out.judged_probability) out.judged_probability[q] = u.judged_probability;
    if (out.episteme) out.episteme[q] = u.episteme;
    if (out.alea) out.alea[q] = u.alea;
  }
}

}  // namespace gpprobe
