// The probing experiment (paper Fig. 4): AUROC of GPP, LP, SVM and LPE on the held-out queries.
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
  return run_steps(ExperimentKind::probing, protocol, options, {"gpp", "lp", "svm", "lpe"}, "auroc", step, progress);
}

}  // namespace gpprobe
