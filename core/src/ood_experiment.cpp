// The OOD experiment (paper Fig. 7): AUROC for held-out queries (positive) against OOD embeddings
// (negative) by GPP's -latent variance, MSP, Mahalanobis, kNN and LPE's -variance.
#include <algorithm>
#include <vector>

#include "experiment_protocol.h"
#include "gpprobe/linear_probe.h"
#include "gpprobe/linear_probe_ensemble.h"
#include "gpprobe/mahalanobis.h"
#include "gpprobe/metrics.h"
#include "gpprobe/nearest_neighbours.h"
#include "gpprobe/random_stream.h"

namespace gpprobe {

Result<ExperimentResult> run_ood(const Protocol& protocol, const ExperimentData&, const ExperimentOptions& options,
                                 const ProgressCallback& progress) {
  auto step = [&](const TrialDraw& draw, std::size_t, std::size_t O, double* values) -> Status {
    const StepObservations obs = protocol.observations(draw, O);
    const MatrixView x(obs.x);
    const std::uint8_t* y = obs.labels.data();
    // Queries: the in-distribution ones first (label 1), then the OOD rows (label 0).
    const Eigen::Index n_id = draw.query_matrix.rows(), n = n_id + draw.ood_matrix.rows();
    RowMatrix all(n, draw.query_matrix.cols());
    all << draw.query_matrix, draw.ood_matrix;
    std::vector<std::uint8_t> in_distribution(std::size_t(n), 0);
    std::fill(in_distribution.begin(), in_distribution.begin() + n_id, std::uint8_t(1));
    const MatrixView queries(all);
    std::vector<double> scores[5];
    for (auto& s : scores) s.resize(std::size_t(n));

    ProbeScoreColumns gpp;
    gpp.ood_score = scores[0].data();
    GPPROBE_RETURN_IF_ERROR(gpp_scores(obs, all, options.probe, gpp));
    Result<LinearProbe> lp = LinearProbe::fit(x, y, O);
    if (!lp.ok()) return lp.status();
    GPPROBE_RETURN_IF_ERROR(lp.value().probability(queries, scores[1].data()));
    for (double& p : scores[1]) p = std::max(p, 1 - p);  // MSP
    Result<MahalanobisDetector> maha = MahalanobisDetector::fit(x, y, O);
    if (!maha.ok()) return maha.status();
    GPPROBE_RETURN_IF_ERROR(maha.value().score(queries, nullptr, scores[2].data()));
    Result<NearestNeighbourDetector> knn = NearestNeighbourDetector::fit(x, std::min(options.k, O));
    if (!knn.ok()) return knn.status();
    GPPROBE_RETURN_IF_ERROR(knn.value().score(queries, nullptr, scores[3].data()));
    const EnsembleOptions lpe_options{options.members, derive_seed(options.seed, {draw.trial, O, 1}), 1.0};
    Result<LinearProbeEnsemble> lpe = LinearProbeEnsemble::fit(x, y, O, lpe_options);
    if (!lpe.ok()) return lpe.status();
    EnsembleScoreColumns lpe_columns;
    lpe_columns.ood_score = scores[4].data();
    GPPROBE_RETURN_IF_ERROR(lpe.value().score(queries, lpe_columns));

    for (int m = 0; m < 5; ++m) {
      Result<double> area = auroc(in_distribution.data(), scores[m].data(), std::size_t(n));
      if (!area.ok()) return area.status();
      values[m] = area.value();
    }
    return Status::success();
  };
  return run_steps(ExperimentKind::ood, protocol, options, {"gpp", "msp", "maha", "knn", "lpe"}, "auroc", step,
                   progress);
}

}  // namespace gpprobe
