// The fuzzy-concept experiment (paper §4.3, Figs 5-6, 13-14): positive observation labels flipped to 0
// with probability 1 - p; Pearson r between p and the judged probability of GPP and LPE over the
// originally positive queries, pooled over p; the (judged, episteme, alea) clouds of trial 0.
#include <algorithm>
#include <vector>

#include "gpprobe/common/random_stream.h"
#include "gpprobe/evaluation/metrics.h"

#include "evaluation/experiment_protocol.h"

namespace gpprobe {

namespace {

// Keeps each positive label with probability p (uniform() < p), else makes it 0.
std::vector<std::uint8_t> flip_positives(const std::vector<std::uint8_t>& labels, double p, std::uint64_t seed) {
  RandomStream random(seed);
  std::vector<std::uint8_t> flipped = labels;
  for (std::uint8_t& y : flipped)
    if (y == 1 && !(random.uniform() < p)) y = 0;
  return flipped;
}

}  // namespace

Result<ExperimentResult> run_fuzzy(const Protocol& protocol, const ExperimentData&, const ExperimentOptions& options,
                                   const ProgressCallback& progress) {
  const std::vector<double>& levels = fuzzy_label_probabilities();
  // Trial 0's clouds, per point of the schedule (steps may run at the same time: each writes its own).
  std::vector<std::vector<ExperimentCloud>> clouds(protocol.counts().size());
  auto step = [&](const TrialDraw& draw, std::size_t point, std::size_t O, std::size_t, double* values) -> Status {
    StepObservations obs = protocol.observations(draw, O);
    const std::vector<std::uint8_t> original = obs.labels;
    std::vector<std::size_t> positive_rows;
    for (std::size_t i = 0; i < draw.queries.size(); ++i)
      if (draw.query_labels[i] == 1) positive_rows.push_back(i);
    RowMatrix positives(Eigen::Index(positive_rows.size()), draw.query_matrix.cols());
    for (std::size_t k = 0; k < positive_rows.size(); ++k)
      positives.row(Eigen::Index(k)) = draw.query_matrix.row(Eigen::Index(positive_rows[k]));
    const std::size_t n = positive_rows.size();
    std::vector<std::size_t> rows;  // embedding rows, for the clouds
    for (std::size_t k : positive_rows) rows.push_back(draw.queries[k]);

    std::vector<double> truth, judged_gpp, judged_lpe;  // pooled over the levels
    for (std::size_t level = 0; level < levels.size(); ++level) {
      const double p = levels[level];
      obs.labels = flip_positives(original, p, derive_seed(options.seed, {draw.trial, O, 2, level}));
      const bool positive_left = std::find(obs.labels.begin(), obs.labels.end(), 1) != obs.labels.end();
      ExperimentCloud gpp{"gpp", p, O, rows, std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)};
      ExperimentCloud lpe{"lpe", p, O, rows, std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)};
      ProbeScoreColumns gpp_columns;
      gpp_columns.judged_probability = gpp.judged_probability.data();
      gpp_columns.episteme = gpp.episteme.data();
      gpp_columns.alea = gpp.alea.data();
      GPPROBE_RETURN_IF_ERROR(gpp_scores(obs, positives, options.probe, gpp_columns));
      if (positive_left) {
        EnsembleScoreColumns lpe_columns;
        lpe_columns.judged_probability = lpe.judged_probability.data();
        lpe_columns.episteme = lpe.episteme.data();
        lpe_columns.alea = lpe.alea.data();
        const std::uint64_t seed = derive_seed(options.seed, {draw.trial, O, 3, level});
        GPPROBE_RETURN_IF_ERROR(lpe_scores(obs, MatrixView(positives), options, seed, lpe_columns));
      }  // else every LP's intercept diverges to -inf: the limit judges 0 (already so), no cloud
      truth.insert(truth.end(), n, p);
      judged_gpp.insert(judged_gpp.end(), gpp.judged_probability.begin(), gpp.judged_probability.end());
      judged_lpe.insert(judged_lpe.end(), lpe.judged_probability.begin(), lpe.judged_probability.end());
      if (draw.trial == 0) {
        clouds[point].push_back(std::move(gpp));
        if (positive_left) clouds[point].push_back(std::move(lpe));
      }
    }
    Result<double> r_gpp = pearson(truth.data(), judged_gpp.data(), truth.size());
    if (!r_gpp.ok()) return Status(r_gpp.status().code(), "gpp: " + r_gpp.status().message());
    Result<double> r_lpe = pearson(truth.data(), judged_lpe.data(), truth.size());
    if (!r_lpe.ok()) return Status(r_lpe.status().code(), "lpe: " + r_lpe.status().message());
    values[0] = r_gpp.value();
    values[1] = r_lpe.value();
    return Status::success();
  };
  Result<ExperimentResult> result =
      run_steps(ExperimentKind::fuzzy, protocol, options, {"gpp", "lpe"}, "pearson", step, progress);
  if (result.ok()) {
    for (std::vector<ExperimentCloud>& at_point : clouds)
      for (ExperimentCloud& cloud : at_point) result.value().clouds.push_back(std::move(cloud));
  }
  return result;
}

}  // namespace gpprobe
