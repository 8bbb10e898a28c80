#include "gpprobe/probe/knowledge_gain.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "gpprobe/kernels/cosine_kernel.h"

#include "common/input_checks.h"
#include "probe/latent_pair.h"
#include "probe/measure_table.h"

namespace gpprobe {

namespace {

constexpr std::size_t kKnowledgeGainBlockRows = 256;

// The latent variance at a query after one more observation with label y there: each GP's variance s
// combined with the observation's noise (the raised GP's n+, the other's v).
double variance_after(const BetaGpPrior& prior, double s_alpha, double s_beta, bool positive) {
  const double n_alpha = positive ? prior.raised.variance : prior.variance;
  const double n_beta = positive ? prior.variance : prior.raised.variance;
  return s_alpha * n_alpha / (s_alpha + n_alpha) + s_beta * n_beta / (s_beta + n_beta);
}

}  // namespace

Status knowledge_gain(const Probe& probe, const MatrixView& queries, double* gain, const ProgressCallback& progress,
                      PosteriorSpace space) {
  GPPROBE_RETURN_IF_ERROR(check_queries(queries, probe.dimension()));
  const BetaGpPrior& prior = probe.prior();
  const std::size_t n = queries.rows(), D = queries.cols() + 1, O = probe.observation_count();
  std::optional<LatentPair> pair;  // none without observations: the prior
  if (O > 0) {
    Result<LatentPair> fitted = LatentPair::fit(probe.features(), probe.labels(), prior, space, n);
    if (!fitted.ok()) return fitted.status();
    pair = std::move(fitted).value();
  }
  const CosineKernel kernel(prior.variance);
  std::vector<double> P(kKnowledgeGainBlockRows * D), mean_alpha(kKnowledgeGainBlockRows),
      s_alpha(kKnowledgeGainBlockRows), mean_beta(kKnowledgeGainBlockRows), s_beta(kKnowledgeGainBlockRows);
  for (std::size_t first = 0; first < n; first += kKnowledgeGainBlockRows) {
    const std::size_t count = std::min(kKnowledgeGainBlockRows, n - first);
    if (pair) {
      kernel.features(queries, first, count, P.data());
      pair->predict(P.data(), count, mean_alpha.data(), s_alpha.data(), mean_beta.data(), s_beta.data());
    } else {  // the prior: both GPs at mean mu0 and variance v everywhere
      std::fill(mean_alpha.begin(), mean_alpha.end(), 0.0);
      std::fill(mean_beta.begin(), mean_beta.end(), 0.0);
      std::fill(s_alpha.begin(), s_alpha.end(), prior.variance);
      std::fill(s_beta.begin(), s_beta.end(), prior.variance);
    }
    for (std::size_t i = 0; i < count; ++i) {
      const double variance = s_alpha[i] + s_beta[i];
      const double p = tabulated_uncertainty_measures(mean_alpha[i] - mean_beta[i], variance, 2.0 * prior.variance)
                           .judged_probability;
      const double expected = p * variance_after(prior, s_alpha[i], s_beta[i], true) +
                              (1.0 - p) * variance_after(prior, s_alpha[i], s_beta[i], false);
      gain[first + i] = (variance - expected) / (2.0 * prior.variance);
    }
    if (!report_progress(progress, first + count, n)) {
      return Status(
          StatusCode::cancelled,
          "knowledge gain cancelled after " + count_of(first + count, "query", "queries") + " of " + std::to_string(n));
    }
  }
  return Status::success();
}

}  // namespace gpprobe
