// The OOD experiment (paper Fig. 7): AUROC for held-out queries (positive) against OOD embeddings
// (negative) by GPP's -latent variance, MSP, Mahalanobis, kNN and LPE's -variance.
#include <algorithm>
#include <vector>

#include "gpprobe/baselines/mahalanobis.h"
#include "gpprobe/baselines/nearest_neighbours.h"
#include "gpprobe/common/random_stream.h"

#include "evaluation/experiment_protocol.h"

namespace gpprobe {

Result<ExperimentResult> run_ood(const Protocol& protocol, const ExperimentData&, const ExperimentOptions& options,
                                 const ProgressCallback& progress) {
  auto step = [&](const TrialDraw& draw, std::size_t, std::size_t O, std::size_t, double* values) -> Status {
    const StepObservations obs = protocol.observations(draw, O);
    const MatrixView x(obs.x);
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
    GPPROBE_RETURN_IF_ERROR(lp_scores(obs, queries, nullptr, scores[1].data()));
    for (double& p : scores[1]) p = std::max(p, 1 - p);  // MSP
    Result<MahalanobisDetector> maha = MahalanobisDetector::fit(x, obs.labels.data(), O);
    if (!maha.ok()) return maha.status();
    GPPROBE_RETURN_IF_ERROR(maha.value().score(queries, nullptr, scores[2].data()));
    Result<NearestNeighbourDetector> knn = NearestNeighbourDetector::fit(x, std::min(options.k, O));
    if (!knn.ok()) return knn.status();
    GPPROBE_RETURN_IF_ERROR(knn.value().score(queries, nullptr, scores[3].data()));
    EnsembleScoreColumns lpe;
    lpe.ood_score = scores[4].data();
    GPPROBE_RETURN_IF_ERROR(lpe_scores(obs, queries, options, derive_seed(options.seed, {draw.trial, O, 1}), lpe));

    return auroc_each(in_distribution, scores, 5, values);
  };
  return run_steps(ExperimentKind::ood, protocol, options, {"gpp", "msp", "maha", "knn", "lpe"}, "auroc", step,
                   progress);
}

}  // namespace gpprobe
