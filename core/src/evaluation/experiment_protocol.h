// The sampling protocol the experiments share (gpprobe/gpprobe/evaluation/experiment.h documents it): input checks, the
// schedule of observation counts, each trial's queries and observation pool, and the loop over
// (trial, O) steps with progress and cancellation. Private to core/src.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpprobe/baselines/linear_probe_ensemble.h"
#include "gpprobe/evaluation/experiment.h"

namespace gpprobe {

// One trial's draw: rows of the embeddings (queries, pool) and of the OOD matrix.
struct TrialDraw {
  std::size_t trial = 0;
  std::vector<std::size_t> queries;
  std::vector<std::uint8_t> query_labels;
  std::vector<std::size_t> ood;
  std::vector<std::size_t> pool_positive, pool_negative;  // shuffled; observations take prefixes
  RowMatrix query_matrix;                                 // the queries' rows, float64
  RowMatrix ood_matrix;                                   // the OOD rows, float64
};

// The observations of one step: O/2 pool positives then O/2 pool negatives.
struct StepObservations {
  RowMatrix x;
  std::vector<std::uint8_t> labels;
};

class Protocol {
 public:
  static Result<Protocol> make(ExperimentKind kind, const ExperimentData& data, const ExperimentOptions& options);

  const std::vector<std::size_t>& counts() const { return counts_; }
  // Why the schedule stops short of max_observations (ExperimentResult::schedule_limit), or empty.
  const std::string& limit() const { return limit_; }
  TrialDraw draw(std::size_t trial) const;
  StepObservations observations(const TrialDraw& draw, std::size_t O) const;

 private:
  ExperimentKind kind_ = ExperimentKind::probing;
  ExperimentData data_;
  ExperimentOptions options_;
  std::vector<std::size_t> counts_;
  std::string limit_;
};

// Rows `rows` of `m`, widened to float64.
RowMatrix gather_rows(const MatrixView& m, const std::vector<std::size_t>& rows);

// GPP fitted on the step's observations, scoring `queries` into `out`.
Status gpp_scores(const StepObservations& obs, const RowMatrix& queries, const ProbeOptions& options,
                  const ProbeScoreColumns& out);

// LP fitted on the step's observations: decision values and/or probabilities of `queries` (null skips).
Status lp_scores(const StepObservations& obs, const MatrixView& queries, double* decision, double* probability);

// LPE (options.members members, resamples from `seed`) fitted on the step's observations.
Status lpe_scores(const StepObservations& obs, const MatrixView& queries, const ExperimentOptions& options,
                  std::uint64_t seed, const EnsembleScoreColumns& out);

// GP classification probes (gpc_probe_scores.cpp): p(y = +1) of each query by Laplace and by EP, each
// with hyperparameters learned on the step's observations.
Status gpc_scores(const StepObservations& obs, const MatrixView& queries, const ClassifierProbeOptions& options,
                  double* laplace, double* ep);

// values[m] = AUROC of scores[m] against `labels`, for m < methods.
Status auroc_each(const std::vector<std::uint8_t>& labels, const std::vector<double>* scores, std::size_t methods,
                  double* values);

// Computes part `part` of one (trial, O): values[c] for the curves c that part owns (run_steps' `parts`
// split a step's curves into independent pieces of work, each writing only its own curves' values).
using ExperimentStep =
    std::function<Status(const TrialDraw& draw, std::size_t point, std::size_t O, std::size_t part, double* values)>;

// Runs `step` over the trials, the schedule and the `parts` of each step, fills every curve's values, mean
// and sd, and reports progress as pieces finish (done of trials x points x parts). `curves` names the
// methods; all share `metric`. Pieces may run at the same time on several threads (parallel_tasks), the
// trials in groups of thread_count(): the last part first (give the heaviest work the highest part), each
// part from the largest O down, the group's trials side by side. A piece must write only its own values,
// and whatever else it writes must be its own per (trial, point, part).
Result<ExperimentResult> run_steps(ExperimentKind kind, const Protocol& protocol, const ExperimentOptions& options,
                                   const std::vector<std::string>& curves, const std::string& metric,
                                   const ExperimentStep& step, const ProgressCallback& progress, std::size_t parts = 1);

// The experiments (one source file each).
Result<ExperimentResult> run_probing(const Protocol& protocol, const ExperimentData& data,
                                     const ExperimentOptions& options, const ProgressCallback& progress);
Result<ExperimentResult> run_fuzzy(const Protocol& protocol, const ExperimentData& data,
                                   const ExperimentOptions& options, const ProgressCallback& progress);
Result<ExperimentResult> run_ood(const Protocol& protocol, const ExperimentData& data, const ExperimentOptions& options,
                                 const ProgressCallback& progress);

}  // namespace gpprobe
