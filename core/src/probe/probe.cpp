#include "gpprobe/probe/probe.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "gpprobe/kernels/cosine_kernel.h"
#include "gpprobe/linalg/parallel_for.h"

#include "common/input_checks.h"
#include "probe/latent_posterior.h"
#include "probe/posterior_choice.h"
#include "probe/score_columns.h"

namespace gpprobe {

namespace {

constexpr std::size_t kProbeBlockRows = 256;

std::uint64_t next_revision() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

}  // namespace

PosteriorSpace cheaper_space(std::size_t observations, std::size_t dimension, std::size_t queries) {
  const double O = double(observations), D = double(dimension + 1), n = double(queries);
  // Leading multiply-add counts: Gram matrix, two factorisations and two inverses (weight space: and
  // the triangular factor of S); then per query the kernel row and two triangular products (function)
  // or one triangular product (weight).
  const double function_cost = 0.5 * O * O * D + 2.0 * O * O * O + n * (O * D + O * O);
  const double weight_cost = 0.5 * O * D * D + (2.0 + 1.0 / 3.0) * D * D * D + 0.5 * n * D * D;
  return function_cost <= weight_cost ? PosteriorSpace::function : PosteriorSpace::weight;
}

Probe::Probe() = default;
Probe::Probe(Probe&&) noexcept = default;
Probe& Probe::operator=(Probe&&) noexcept = default;
Probe::~Probe() = default;

Result<Probe> Probe::fit(const MatrixView& observations, const std::uint8_t* labels, std::size_t label_count,
                         const ProbeOptions& options) {
  Result<BetaGpPrior> prior = BetaGpPrior::make(options.epsilon, options.strength);
  if (!prior.ok()) return prior.status();
  GPPROBE_RETURN_IF_ERROR(check_labels(labels, label_count, observations.rows()));
  GPPROBE_RETURN_IF_ERROR(check_finite(observations, "observations"));
  if (observations.rows() > 0 && observations.cols() == 0) {
    return Status(StatusCode::invalid_argument, "observations have 0 columns");
  }

  Probe probe;
  probe.prior_ = prior.value();
  probe.dimension_ = observations.cols();
  probe.float32_products_ = options.float32_products;
  probe.space_ = options.space == PosteriorSpace::automatic
                     ? cheaper_space(observations.rows(), observations.cols(), options.expected_queries)
                     : options.space;
  probe.psi_ = CosineKernel(probe.prior_.variance).features(observations);
  probe.labels_.assign(labels, labels + label_count);
  ChosenPosterior chosen{make_posterior(probe.space_, probe.prior_), probe.space_};
  // Weight space needs the dimension; with no columns known, the prior is all there is to fit.
  Status fitted;
  if (probe.dimension_ > 0 || probe.space_ == PosteriorSpace::function) {
    fitted = chosen.posterior->fit(probe.psi_, probe.labels_);
  }
  Result<ChosenPosterior> kept =
      keep_well_conditioned(fitted, std::move(chosen), probe.prior_, probe.psi_, probe.labels_);
  if (!kept.ok()) return kept.status();
  probe.posterior_ = std::move(kept.value().posterior);
  probe.space_ = kept.value().space;
  probe.revision_ = next_revision();
  return probe;
}

Status Probe::score(const MatrixView& queries, const ProbeScoreColumns& out, const ProgressCallback& progress) const {
  GPPROBE_RETURN_IF_ERROR(check_queries(queries, dimension_));

  const std::size_t n = queries.rows();
  const std::size_t D = queries.cols() + 1;
  const double prior_variance = 2.0 * prior_.variance;
  const bool prior_only = labels_.empty();
  const CosineKernel kernel(prior_.variance);
  if (!prior_only) posterior_->prepare(n);
  const bool float32 = float32_products_ && queries.type() == ScalarType::float32;
  // Blocks of kProbeBlockRows queries, each scored by the same code whichever thread takes it, claimed
  // one at a time by whichever thread is free (parallel_tasks): a thread that runs slower (a busy core)
  // takes fewer blocks instead of holding the others up at the end of a fixed share.
  const std::size_t blocks = (n + kProbeBlockRows - 1) / kProbeBlockRows;
  const auto score_block = [&](std::size_t block) -> Status {
    // Scratch kept by each thread across calls (its size only grows): allocated per block, these megabytes
    // went through mmap and munmap wherever malloc's dynamic mmap threshold is off (Dask's workers set
    // MALLOC_TRIM_THRESHOLD_, which turns it off), and scoring ran 2-3 times slower there.
    thread_local std::vector<double> P, mean, variance;
    P.resize(kProbeBlockRows * D);
    mean.resize(kProbeBlockRows);
    variance.resize(kProbeBlockRows);
    const std::size_t first = block * kProbeBlockRows, count = std::min(kProbeBlockRows, n - first);
    if (prior_only) {
      std::fill(mean.begin(), mean.end(), 0.0);
      std::fill(variance.begin(), variance.end(), prior_variance);
    } else {
      kernel.features(queries, first, count, P.data());
      if (float32) posterior_->predict_float32(psi_, P.data(), count, n, mean.data(), variance.data());
      else posterior_->predict(psi_, P.data(), count, n, mean.data(), variance.data());
    }
    for (std::size_t i = 0; i < count; ++i) {
      GPPROBE_RETURN_IF_ERROR(check_latent(first + i, mean[i], variance[i], prior_variance, condition()));
      write_score_columns(first + i, mean[i], variance[i], prior_variance, out);
    }
    return Status::success();
  };
  return parallel_tasks(blocks, score_block, [&](std::size_t finished) {
    const std::size_t done = std::min(n, finished * kProbeBlockRows);
    if (report_progress(progress, done, n)) return Status::success();
    return Status(StatusCode::cancelled,
                  "scoring cancelled after " + count_of(done, "query", "queries") + " of " + std::to_string(n));
  });
}

LatentWeights Probe::latent_weights() const {
  if (labels_.empty()) return LatentWeights::prior(prior_.variance, dimension_);
  return posterior_->weights(psi_);
}

std::vector<double> Probe::observation_features(std::size_t index) const {
  return std::vector<double>(psi_.row(Eigen::Index(index)).data(), psi_.row(Eigen::Index(index)).data() + psi_.cols());
}

ObservationInfluence Probe::influence(const double* features, std::uint8_t label) const {
  if (!labels_.empty()) return posterior_->influence(psi_, features, label);
  // The prior: weight covariance I, so g = x, x'g = |x|^2 = v and a zero residual mean.
  const std::size_t D = dimension_ + 1;
  ObservationInfluence out;
  const double x_variance = Eigen::Map<const Eigen::VectorXd>(features, Eigen::Index(D)).squaredNorm();
  for (auto [raises, share] : {std::pair{label != 0, &out.alpha}, std::pair{label == 0, &out.beta}}) {
    set_influence(synthetic_observation(prior_, raises), Eigen::Map<const Eigen::VectorXd>(features, Eigen::Index(D)),
                  0.0, x_variance, share);
  }
  return out;
}

double Probe::condition() const { return posterior_ ? posterior_->condition() : 1.0; }

Status Probe::add_observation(const MatrixView& observation, std::uint8_t label) {
  if (observation.rows() != 1) {
    return Status(StatusCode::invalid_argument,
                  "an added observation must be 1 row, got " + std::to_string(observation.rows()));
  }
  if (dimension_ > 0 && observation.cols() != dimension_) {
    return Status(StatusCode::dimension_mismatch, "the added observation has " +
                                                      count_of(observation.cols(), "column") + ", observations have " +
                                                      count_of(dimension_, "column"));
  }
  if (observation.cols() == 0) return Status(StatusCode::invalid_argument, "the added observation has 0 columns");
  GPPROBE_RETURN_IF_ERROR(check_labels(&label, 1, 1));
  GPPROBE_RETURN_IF_ERROR(check_finite(observation, "the added observation"));

  if (dimension_ == 0) {  // the first observation fixes the dimension
    dimension_ = observation.cols();
    psi_.resize(0, Eigen::Index(dimension_ + 1));
    GPPROBE_RETURN_IF_ERROR(posterior_->fit(psi_, labels_));
  }
  const Eigen::Index O = psi_.rows(), D = Eigen::Index(dimension_ + 1);
  RowMatrix psi(O + 1, D);
  psi.topRows(O) = psi_;
  CosineKernel(prior_.variance).features(observation, 0, 1, psi.row(O).data());
  std::vector<std::uint8_t> labels = labels_;
  labels.push_back(label);
  ChosenPosterior updated{posterior_->clone(), space_};
  const Status status = updated.posterior->add(psi_, psi.row(O).data(), label);
  return commit(status, std::move(updated), std::move(psi), std::move(labels));
}

Status Probe::remove_observation(std::size_t index) {
  if (index >= labels_.size()) {
    return Status(StatusCode::invalid_argument, "cannot remove observation " + std::to_string(index) +
                                                    ": the probe has " + count_of(labels_.size(), "observation"));
  }
  const Eigen::Index i = Eigen::Index(index), O = psi_.rows();
  RowMatrix psi(O - 1, psi_.cols());
  psi.topRows(i) = psi_.topRows(i);
  psi.bottomRows(O - i - 1) = psi_.bottomRows(O - i - 1);
  std::vector<std::uint8_t> labels = labels_;
  labels.erase(labels.begin() + std::ptrdiff_t(index));
  ChosenPosterior updated{posterior_->clone(), space_};
  const Status status = updated.posterior->remove(psi_, labels_, i);
  return commit(status, std::move(updated), std::move(psi), std::move(labels));
}

Status Probe::commit(const Status& status, ChosenPosterior updated, RowMatrix psi, std::vector<std::uint8_t> labels) {
  Result<ChosenPosterior> kept = keep_well_conditioned(status, std::move(updated), prior_, psi, labels);
  if (!kept.ok()) return kept.status();
  posterior_ = std::move(kept.value().posterior);
  space_ = kept.value().space;
  psi_ = std::move(psi);
  labels_ = std::move(labels);
  revision_ = next_revision();
  return Status::success();
}

}  // namespace gpprobe
