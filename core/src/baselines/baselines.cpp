#include "gpprobe/baselines/baselines.h"

#include <algorithm>

#include "gpprobe/baselines/linear_probe.h"
#include "gpprobe/baselines/linear_probe_ensemble.h"
#include "gpprobe/baselines/linear_svm.h"
#include "gpprobe/baselines/mahalanobis.h"
#include "gpprobe/baselines/nearest_neighbours.h"

#include "common/input_checks.h"

namespace gpprobe {

namespace {

// The labels check every method shares (kNN ignores the labels but the call still passes them).
Status check_inputs(const MatrixView& observations, const std::uint8_t* labels, std::size_t count,
                    const MatrixView& queries) {
  GPPROBE_RETURN_IF_ERROR(check_observations(observations, labels, count));
  return check_queries(queries, observations.cols());
}

Result<BaselineScores> linear(BaselineMethod method, const MatrixView& observations, const std::uint8_t* labels,
                              std::size_t count, const MatrixView& queries, const BaselineOptions& options) {
  BaselineScores out;
  const std::size_t n = queries.rows();
  out.score.resize(n);
  if (method == BaselineMethod::svm) {
    LinearSvmOptions svm_options;
    svm_options.C = options.C;
    Result<LinearSvm> svm = LinearSvm::fit(observations, labels, count, svm_options);
    if (!svm.ok()) return svm.status();
    GPPROBE_RETURN_IF_ERROR(svm.value().decision(queries, out.score.data()));
    return out;
  }
  Result<LinearProbe> lp = LinearProbe::fit(observations, labels, count, LinearProbeOptions{options.C});
  if (!lp.ok()) return lp.status();
  out.probability.resize(n);
  GPPROBE_RETURN_IF_ERROR(lp.value().decision(queries, out.score.data()));
  GPPROBE_RETURN_IF_ERROR(lp.value().probability(queries, out.probability.data()));
  if (method == BaselineMethod::msp) {
    for (std::size_t i = 0; i < n; ++i) out.score[i] = std::max(out.probability[i], 1 - out.probability[i]);
  }
  return out;
}

}  // namespace

std::vector<std::string> baseline_columns(BaselineMethod method) {
  switch (method) {
    case BaselineMethod::lp:
    case BaselineMethod::msp:
      return {"score", "probability"};
    case BaselineMethod::lpe:
      return {"score", "probability", "episteme", "alea"};
    default:
      return {"score"};
  }
}

Result<BaselineScores> run_baseline(BaselineMethod method, const MatrixView& observations, const std::uint8_t* labels,
                                    std::size_t count, const MatrixView& queries, const BaselineOptions& options,
                                    const ProgressCallback& progress) {
  GPPROBE_RETURN_IF_ERROR(check_inputs(observations, labels, count, queries));
  const std::size_t n = queries.rows();
  BaselineScores out;
  switch (method) {
    case BaselineMethod::lp:
    case BaselineMethod::svm:
    case BaselineMethod::msp: {
      Result<BaselineScores> r = linear(method, observations, labels, count, queries, options);
      if (!r.ok()) return r.status();
      out = std::move(r.value());
      break;
    }
    case BaselineMethod::lpe: {
      Result<LinearProbeEnsemble> lpe =
          LinearProbeEnsemble::fit(observations, labels, count, {options.members, options.seed, options.C}, progress);
      if (!lpe.ok()) return lpe.status();
      out.score.resize(n);
      out.probability.resize(n);
      out.episteme.resize(n);
      out.alea.resize(n);
      EnsembleScoreColumns columns;
      columns.judged_probability = out.probability.data();
      columns.ood_score = out.score.data();
      columns.episteme = out.episteme.data();
      columns.alea = out.alea.data();
      GPPROBE_RETURN_IF_ERROR(lpe.value().score(queries, columns));
      return out;  // progress was reported per member
    }
    case BaselineMethod::maha: {
      Result<MahalanobisDetector> maha = MahalanobisDetector::fit(observations, labels, count);
      if (!maha.ok()) return maha.status();
      out.score.resize(n);
      GPPROBE_RETURN_IF_ERROR(maha.value().score(queries, nullptr, out.score.data()));
      break;
    }
    case BaselineMethod::knn: {
      Result<NearestNeighbourDetector> knn = NearestNeighbourDetector::fit(observations, options.k);
      if (!knn.ok()) return knn.status();
      out.score.resize(n);
      GPPROBE_RETURN_IF_ERROR(knn.value().score(queries, nullptr, out.score.data()));
      break;
    }
  }
  if (!report_progress(progress, 1, 1)) {
    return Status(StatusCode::cancelled, std::string(baseline_name(method)) + " cancelled");
  }
  return out;
}

}  // namespace gpprobe
