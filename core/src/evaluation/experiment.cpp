#include "gpprobe/evaluation/experiment.h"

#include <cmath>
#include <utility>

#include "evaluation/experiment_protocol.h"

namespace gpprobe {

const std::vector<double>& fuzzy_label_probabilities() {
  static const std::vector<double> levels = {0.25, 0.5, 0.75, 1.0};
  return levels;
}

void summarise_trials(const double* values, std::size_t trials, std::size_t points, double* mean, double* sd) {
  for (std::size_t j = 0; j < points; ++j) {
    double sum = 0;
    for (std::size_t t = 0; t < trials; ++t) sum += values[t * points + j];
    const double m = trials ? sum / double(trials) : 0.0;
    double squares = 0;
    for (std::size_t t = 0; t < trials; ++t) squares += (values[t * points + j] - m) * (values[t * points + j] - m);
    mean[j] = m;
    sd[j] = trials > 1 ? std::sqrt(squares / double(trials - 1)) : 0.0;
  }
}

Status append_trials(ExperimentResult* into, ExperimentResult more) {
  if (into->trials == 0) {
    *into = std::move(more);
    return Status::success();
  }
  const bool same_run = into->kind == more.kind && into->observation_counts == more.observation_counts &&
                        into->curves.size() == more.curves.size() &&
                        more.first_trial == into->first_trial + into->trials;
  if (!same_run) return Status(StatusCode::invalid_argument, "these trials are not the next ones of the same run");
  const std::size_t points = into->observation_counts.size();
  into->trials += more.trials;
  for (std::size_t c = 0; c < into->curves.size(); ++c) {
    ExperimentCurve& curve = into->curves[c];
    const std::vector<double>& values = more.curves[c].values;
    curve.values.insert(curve.values.end(), values.begin(), values.end());
    summarise_trials(curve.values.data(), into->trials, points, curve.mean.data(), curve.sd.data());
  }
  if (into->clouds.empty()) into->clouds = std::move(more.clouds);
  return Status::success();
}

Result<ExperimentResult> run_experiment(ExperimentKind kind, const ExperimentData& data,
                                        const ExperimentOptions& options, const ProgressCallback& progress) {
  Result<Protocol> protocol = Protocol::make(kind, data, options);
  if (!protocol.ok()) return protocol.status();
  switch (kind) {
    case ExperimentKind::probing:
      return run_probing(protocol.value(), data, options, progress);
    case ExperimentKind::fuzzy:
      return run_fuzzy(protocol.value(), data, options, progress);
    case ExperimentKind::ood:
      return run_ood(protocol.value(), data, options, progress);
  }
  return Status(StatusCode::invalid_argument, "unknown experiment");
}

}  // namespace gpprobe
