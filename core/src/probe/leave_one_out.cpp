#include "gpprobe/probe/leave_one_out.h"

#include <cmath>
#include <limits>
#include <string>

#include "gpprobe/common/confidence.h"
#include "gpprobe/compare/auroc_interval.h"
#include "gpprobe/evaluation/metrics.h"
#include "gpprobe/probe/uncertainty_measures.h"

#include "probe/latent_pair.h"

namespace gpprobe {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The log loss of each observation, -log of the probability its label gets: E[sigmoid(f)] for a positive,
// E[sigmoid(-f)] (= 1 - p, without the cancellation of 1 - p near 1) for a negative.
double observation_loss(double mean, double variance, bool positive) {
  return -std::log(uncertainty_measures(positive ? mean : -mean, variance).judged_probability);
}

Interval normal_interval(double value, double standard_error) {
  return {value - kIntervalZ * standard_error, value + kIntervalZ * standard_error};
}

void summarise(const std::vector<std::uint8_t>& labels, LeaveOneOut* r) {
  const std::size_t O = labels.size();
  for (std::uint8_t y : labels) ++(y ? r->positives : r->negatives);
  r->auroc = r->auroc_standard_error = r->log_loss = r->log_loss_standard_error = kNaN;
  r->confidence = kIntervalConfidence;
  r->auroc_interval = r->auroc_normal_interval = r->log_loss_interval = {kNaN, kNaN};
  if (O > 0) {
    std::vector<double> losses(O);
    double sum = 0;
    for (std::size_t i = 0; i < O; ++i) {
      losses[i] = observation_loss(r->latent_mean[i], r->latent_variance[i], labels[i] != 0);
      sum += losses[i];
    }
    r->log_loss = sum / double(O);
    if (O > 1) {
      double squares = 0;
      for (double l : losses) squares += (l - r->log_loss) * (l - r->log_loss);
      r->log_loss_standard_error = std::sqrt(squares / double(O - 1) / double(O));
      r->log_loss_interval = normal_interval(r->log_loss, r->log_loss_standard_error);
    }
  }
  if (r->positives > 0 && r->negatives > 0) {
    r->auroc = auroc(labels.data(), r->judged_probability.data(), O).value();
  }
  if (r->positives < 2 || r->negatives < 2) {
    r->verdict = LooVerdict::too_few;
    return;
  }
  r->auroc_standard_error = auroc_standard_error(labels.data(), r->judged_probability.data(), O).value();
  r->auroc_normal_interval = normal_interval(r->auroc, r->auroc_standard_error);
  const AurocInterval honest =
      honest_auroc_interval(r->auroc, r->auroc_standard_error, r->positives, r->negatives, kIntervalZ);
  r->auroc_interval = {honest.lower, honest.upper};
  // DeLong's interval alone reaching 1/2, or the log loss confidently wrong (worse than the coin's log 2
  // beyond its interval): chance. DeLong's interval above 1/2 but the honest one reaching it: too few.
  const bool ranks_at_chance = r->auroc_normal_interval.lower <= 0.5;
  const bool loss_worse_than_chance = r->log_loss_interval.lower > std::log(2.0);
  if (ranks_at_chance || loss_worse_than_chance) {
    r->verdict = LooVerdict::chance;
  } else {
    r->verdict = r->auroc_interval.lower > 0.5 ? LooVerdict::separates : LooVerdict::too_few;
  }
}

}  // namespace

Result<LeaveOneOut> leave_one_out(const Probe& probe, PosteriorSpace space) {
  const std::size_t O = probe.observation_count();
  LeaveOneOut r;
  r.latent_mean.resize(O);
  r.latent_variance.resize(O);
  r.judged_probability.resize(O);
  if (O > 0) {
    Result<LatentPair> pair = LatentPair::fit(probe.features(), probe.labels(), probe.prior(), space, O);
    if (!pair.ok()) return pair.status();
    std::vector<double> diagonal[2], weighted[2];
    for (int g = 0; g < 2; ++g) {
      diagonal[g].resize(O);
      weighted[g].resize(O);
      pair.value().observation_terms(g, diagonal[g].data(), weighted[g].data());
    }
    for (std::size_t i = 0; i < O; ++i) {
      double mean[2], variance[2];
      for (int g = 0; g < 2; ++g) {
        mean[g] = pair.value().residual(g, i) - weighted[g][i] / diagonal[g][i];
        variance[g] = 1.0 / diagonal[g][i] - pair.value().noise(g, i);
        if (!(variance[g] > 0.0)) {
          return Status(StatusCode::numerical_failure, "leave-one-out: the latent variance at observation " +
                                                           std::to_string(i) + " without it is not positive (" +
                                                           std::to_string(variance[g]) + ")");
        }
      }
      r.latent_mean[i] = mean[0] - mean[1];
      r.latent_variance[i] = variance[0] + variance[1];
      r.judged_probability[i] = uncertainty_measures(r.latent_mean[i], r.latent_variance[i]).judged_probability;
    }
  }
  summarise(probe.labels(), &r);
  return r;
}

}  // namespace gpprobe
