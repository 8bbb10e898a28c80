// The probing experiment (paper Fig. 4): AUROC of GPP, LP, SVM and LPE on the held-out queries.
#include <vector>

#include "experiment_protocol.h"
#include "gpprobe/linear_probe.h"
#include "gpprobe/linear_probe_ensemble.h"
#include "gpprobe/linear_svm.h"
#include "gpprobe/metrics.h"
#include "gpprobe/random_stream.h"

namespace gpprobe {

Result<ExperimentResult> run_probing(const Protocol& protocol, const ExperimentData&,
                                     const ExperimentOptions& options, const ProgressCallback& progress) {
  auto step = [&](const TrialDraw& draw, std::size_t, std::size_t O, double* values) -> Status {
    const StepObservations obs = protocol.observations(draw, O);
    const MatrixView x(obs.x), queries(draw.query_matrix);
    const std::uint8_t* y = obs.labels.data();
    const std::size_t n = draw.queries.size();
    std::vector<double> scores[4];
    for (auto& s : scores) s.resize(n);

    ProbeScoreColumns gpp;
    gpp.judged_probability = scores[0].data();
    GPPROBE_RETURN_IF_ERROR(gpp_scores(obs, draw.query_matrix, options.probe, gpp));
    Result<LinearProbe> lp = LinearProbe::fit(x, y, O);
    if (!lp.ok()) return lp.status();
    GPPROBE_RETURN_IF_ERROR(lp.value().decision(queries, scores[1].data()));
    Result<LinearSvm> svm = LinearSvm::fit(x, y, O);
    if (!svm.ok()) return svm.status();
    GPPROBE_RETURN_IF_ERROR(svm.value().decision(queries, scores[2].data()));
    const EnsembleOptions lpe_options{options.members, derive_seed(options.seed, {draw.trial, O, 1}), 1.0};
    Result<LinearProbeEnsemble> lpe = LinearProbeEnsemble::fit(x, y, O, lpe_options);
    if (!lpe.ok()) return lpe.status();
    EnsembleScoreColumns lpe_columns;
    lpe_columns.judged_probability = scores[3].data();
    GPPROBE_RETURN_IF_ERROR(lpe.value().score(queries, lpe_columns));

    for (int m = 0; m < 4; ++m) {
      Result<double> area = auroc(draw.query_labels.data(), scores[m].data(), n);
      if (!area.ok()) return area.status();
      values[m] = area.value();
    }
    return Status::success();
  };
  return run_steps(ExperimentKind::probing, protocol, options, {"gpp", "lp", "svm", "lpe"}, "auroc", step, progress);
}

}  // namespace gpprobe
