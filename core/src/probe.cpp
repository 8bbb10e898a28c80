#include "gpprobe/probe.h"

#include <algorithm>
#include <string>

#include "function_space_posterior.h"
#include "gpprobe/cosine_kernel.h"
#include "gpprobe/uncertainty_measures.h"
#include "input_checks.h"
#include "weight_space_posterior.h"

namespace gpprobe {

namespace {

constexpr std::size_t kBlockRows = 256;

std::unique_ptr<LatentPosterior> make_posterior(PosteriorSpace space, const BetaGpPrior& prior) {
  if (space == PosteriorSpace::weight) return std::make_unique<WeightSpacePosterior>(prior);
  return std::make_unique<FunctionSpacePosterior>(prior);
}

}  // namespace

const char* space_name(PosteriorSpace space) {
  switch (space) {
    case PosteriorSpace::automatic: return "automatic";
    case PosteriorSpace::function: return "function";
    case PosteriorSpace::weight: return "weight";
  }
  return "unknown";
}

Result<PosteriorSpace> parse_space(const std::string& name) {
  for (PosteriorSpace s : {PosteriorSpace::automatic, PosteriorSpace::function, PosteriorSpace::weight})
    if (name == space_name(s)) return s;
  return Status(StatusCode::invalid_argument, "space must be automatic, function or weight, got '" + name + "'");
}

PosteriorSpace cheaper_space(std::size_t observations, std::size_t dimension, std::size_t queries) {
  const double O = double(observations), D = double(dimension + 1), n = double(queries);
  // Leading flop counts: Gram matrix, two factorisations and two inverses; then per query the
  // kernel row and quadratic form (function) or the quadratic form alone (weight).
  const double function_cost = 0.5 * O * O * D + 2.0 * O * O * O + n * (O * D + O * O);
  const double weight_cost = 0.5 * O * D * D + 2.0 * D * D * D + n * D * D;
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
  probe.space_ = options.space == PosteriorSpace::automatic
                     ? cheaper_space(observations.rows(), observations.cols(), options.expected_queries)
                     : options.space;
  probe.psi_ = CosineKernel(probe.prior_.variance).features(observations);
  probe.labels_.assign(labels, labels + label_count);
  probe.posterior_ = make_posterior(probe.space_, probe.prior_);
  // Weight space needs the dimension; with no columns known, the prior is all there is to fit.
  if (probe.dimension_ > 0 || probe.space_ == PosteriorSpace::function) {
    GPPROBE_RETURN_IF_ERROR(probe.posterior_->fit(probe.psi_, probe.labels_));
  }
  return probe;
}

Status Probe::score(const MatrixView& queries, const ProbeScoreColumns& out,
                    const ProgressCallback& progress) const {
  GPPROBE_RETURN_IF_ERROR(check_queries(queries, dimension_));

  const std::size_t n = queries.rows();
  const std::size_t D = queries.cols() + 1;
  const double prior_variance = 2.0 * prior_.variance;
  const bool measures = out.judged_probability || out.episteme || out.alea;
  const bool prior_only = labels_.empty();
  const CosineKernel kernel(prior_.variance);
  std::vector<double> P(kBlockRows * D), mean(kBlockRows), variance(kBlockRows);
  for (std::size_t first = 0; first < n; first += kBlockRows) {
    const std::size_t count = std::min(kBlockRows, n - first);
    if (prior_only) {
      std::fill(mean.begin(), mean.end(), 0.0);
      std::fill(variance.begin(), variance.end(), prior_variance);
    } else {
      kernel.features(queries, first, count, P.data());
      posterior_->predict(psi_, P.data(), count, mean.data(), variance.data());
    }
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t q = first + i;
      const double m = mean[i], s2 = variance[i];
      if (out.latent_mean) out.latent_mean[q] = m;
      if (out.latent_variance) out.latent_variance[q] = s2;
      if (out.knowledge) out.knowledge[q] = 1.0 - s2 / prior_variance;
      if (out.ood_score) out.ood_score[q] = -s2;
      if (measures) {
        const UncertaintyMeasures u = uncertainty_measures(m, s2);
        if (out.judged_probability) out.judged_probability[q] = u.judged_probability;
        if (out.episteme) out.episteme[q] = u.episteme;
        if (out.alea) out.alea[q] = u.alea;
      }
    }
    if (!report_progress(progress, first + count, n)) {
      return Status(StatusCode::cancelled, "scoring cancelled after " + count_of(first + count, "query", "queries") +
                                               " of " + std::to_string(n));
    }
  }
  return Status::success();
}

LatentWeights Probe::latent_weights() const {
  if (labels_.empty()) return LatentWeights::prior(prior_.variance, dimension_);
  return posterior_->weights(psi_);
}

Status Probe::add_observation(const MatrixView& observation, std::uint8_t label) {
  if (observation.rows() != 1) {
    return Status(StatusCode::invalid_argument,
                  "an added observation must be 1 row, got " + std::to_string(observation.rows()));
  }
  if (dimension_ > 0 && observation.cols() != dimension_) {
    return Status(StatusCode::dimension_mismatch, "the added observation has " +
                                                      count_of(observation.cols(), "column") +
                                                      ", observations have " + count_of(dimension_, "column"));
  }
  if (observation.cols() == 0) return Status(StatusCode::invalid_argument, "the added observation has 0 columns");
  GPPROBE_RETURN_IF_ERROR(check_labels(&label, 1, 1));
  GPPROBE_RETURN_IF_ERROR(check_finite(observation, "the added observation"));

  if (dimension_ == 0) {  // the first observation fixes the dimension
    dimension_ = observation.cols();
    psi_.resize(0, Eigen::Index(dimension_ + 1));
    GPPROBE_RETURN_IF_ERROR(posterior_->fit(psi_, labels_));
  }
  const std::size_t D = dimension_ + 1;
  std::vector<double> psi_new(D);
  CosineKernel(prior_.variance).features(observation, 0, 1, psi_new.data());
  GPPROBE_RETURN_IF_ERROR(posterior_->add(psi_, psi_new.data(), label));
  const Eigen::Index O = psi_.rows();
  psi_.conservativeResize(O + 1, Eigen::NoChange);
  psi_.row(O) = Eigen::Map<const Eigen::RowVectorXd>(psi_new.data(), Eigen::Index(D));
  labels_.push_back(label);
  return Status::success();
}

Status Probe::remove_observation(std::size_t index) {
  if (index >= labels_.size()) {
    return Status(StatusCode::invalid_argument, "cannot remove observation " + std::to_string(index) +
                                                    ": the probe has " +
                                                    count_of(labels_.size(), "observation"));
  }
  const Eigen::Index i = Eigen::Index(index);
  GPPROBE_RETURN_IF_ERROR(posterior_->remove(psi_, labels_, i));
  const Eigen::Index O = psi_.rows();
  const Eigen::Index tail = O - i - 1;
  psi_.middleRows(i, tail) = psi_.bottomRows(tail).eval();
  psi_.conservativeResize(O - 1, Eigen::NoChange);
  labels_.erase(labels_.begin() + std::ptrdiff_t(index));
  return Status::success();
}

}  // namespace gpprobe
