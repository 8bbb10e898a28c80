// The probing experiment (paper Fig. 4): AUROC of GPP, LP, SVM and LPE on the held-out queries, and
// with options.gpc.enabled of the GP classification probes (Laplace, EP).
#include <limits>
#include <vector>

#include "gpprobe/baselines/linear_svm.h"
#include "gpprobe/common/random_stream.h"

#include "evaluation/experiment_protocol.h"

namespace gpprobe {

Result<ExperimentResult> run_probing(const Protocol& protocol, const ExperimentData&, const ExperimentOptions& options,
                                     const ProgressCallback& progress) {
  // Part 0: GPP, LP, SVM and LPE (values[0..3]); part 1, with options.gpc.enabled: the GPC probes
  // (values[4..5]), the heaviest piece of work up to their O limit, so it is the part scheduled first.
  auto step = [&](const TrialDraw& draw, std::size_t, std::size_t O, std::size_t part, double* values) -> Status {
    if (part == 1 && O > options.gpc.max_observations) {
      values[4] = values[5] = std::numeric_limits<double>::quiet_NaN();  // not run
      return Status::success();
    }
    const StepObservations obs = protocol.observations(draw, O);
    const MatrixView x(obs.x), queries(draw.query_matrix);
    const std::size_t n = draw.queries.size();
    if (part == 1) {
      std::vector<double> scores[2];
      for (auto& s : scores) s.resize(n);
      GPPROBE_RETURN_IF_ERROR(gpc_scores(obs, queries, options.gpc, scores[0].data(), scores[1].data()));
      return auroc_each(draw.query_labels, scores, 2, values + 4);
    }
    std::vector<double> scores[4];
    for (auto& s : scores) s.resize(n);
    ProbeScoreColumns gpp;
    gpp.judged_probability = scores[0].data();
    GPPROBE_RETURN_IF_ERROR(gpp_scores(obs, draw.query_matrix, options.probe, gpp));
    GPPROBE_RETURN_IF_ERROR(lp_scores(obs, queries, scores[1].data(), nullptr));
    Result<LinearSvm> svm = LinearSvm::fit(x, obs.labels.data(), O);
    if (!svm.ok()) return svm.status();
    GPPROBE_RETURN_IF_ERROR(svm.value().decision(queries, scores[2].data()));
    EnsembleScoreColumns lpe;
    lpe.judged_probability = scores[3].data();
    GPPROBE_RETURN_IF_ERROR(lpe_scores(obs, queries, options, derive_seed(options.seed, {draw.trial, O, 1}), lpe));
    return auroc_each(draw.query_labels, scores, 4, values);
  };
  std::vector<std::string> curves{"gpp", "lp", "svm", "lpe"};
  if (options.gpc.enabled) curves.insert(curves.end(), {"gpc-laplace", "gpc-ep"});
  return run_steps(ExperimentKind::probing, protocol, options, curves, "auroc", step, progress,
                   options.gpc.enabled ? 2 : 1);
}

}  // namespace gpprobe
