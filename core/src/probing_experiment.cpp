// The probing experiment (paper Fig. 4): AUROC of GPP, LP, SVM and LPE on the held-out queries, and
// with options.gpc.enabled of the GP classification probes (Laplace, EP).
#include <limits>
#include <vector>

#include "experiment_protocol.h"
#include "gpprobe/linear_svm.h"
#include "gpprobe/random_stream.h"

namespace gpprobe {

Result<ExperimentResult> run_probing(const Protocol& protocol, const ExperimentData&,
                                     const ExperimentOptions& options, const ProgressCallback& progress) {
  auto step = [&](const TrialDraw& draw, std::size_t, std::size_t O, double* values) -> Status {
    const StepObservations obs = protocol.observations(draw, O);
    const MatrixView x(obs.x), queries(draw.query_matrix);
    const std::size_t n = draw.queries.size();
    std::vector<double> scores[6];
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

    if (!options.gpc.enabled) return auroc_each(draw.query_labels, scores, 4, values);
    if (O > options.gpc.max_observations) {
      values[4] = values[5] = std::numeric_limits<double>::quiet_NaN();  // not run
      return auroc_each(draw.query_labels, scores, 4, values);
    }
    GPPROBE_RETURN_IF_ERROR(gpc_scores(obs, queries, options.gpc, scores[4].data(), scores[5].data()));
    return auroc_each(draw.query_labels, scores, 6, values);
  };
  std::vector<std::string> curves{"gpp", "lp", "svm", "lpe"};
  if (options.gpc.enabled) curves.insert(curves.end(), {"gpc-laplace", "gpc-ep"});
  return run_steps(ExperimentKind::probing, protocol, options, curves, "auroc", step, progress);
}

}  // namespace gpprobe
