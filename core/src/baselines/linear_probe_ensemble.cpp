#include "gpprobe/baselines/linear_probe_ensemble.h"

#include <algorithm>
#include <cmath>

#include "gpprobe/common/random_stream.h"
#include "gpprobe/linalg/row_products.h"
#include "gpprobe/probe/uncertainty_measures.h"

#include "baselines/linear_probe_design.h"
#include "baselines/logistic_newton.h"
#include "common/input_checks.h"
#include "linalg/lanes_math.h"

namespace gpprobe {

using Eigen::Index;

namespace {

constexpr std::size_t kMaxRedraws = 1000;  // per member; P(one class only) <= 1/2 for any O >= 2
constexpr double kSmallestLogitVariance =
    1e-12;  // docs/design/probe.md, "Judged probability, episteme, alea": measures stay finite down to this

bool holds_both_labels(const std::uint8_t* labels, const std::uint32_t* counts, std::size_t O) {
  bool positive = false, negative = false;
  for (std::size_t i = 0; i < O; ++i) {
    if (counts[i] == 0) continue;
    (labels[i] ? positive : negative) = true;
  }
  return positive && negative;
}

Status check_members(std::size_t members) {
  if (members > 0) return Status::success();
  return Status(StatusCode::invalid_argument, "lpe needs at least 1 member, got 0");
}

const char* kNeedBoth = "lpe needs observations of both classes";

// Σ_k w_k (h(t_k) - mean)² for weights w summing to 1, computed on h(t_k) - h(t_0) so that a single
// distinct member gives exactly 0.
template <class H>
double weighted_variance(const double* t, const double* w, std::size_t K, H h) {
  const double origin = h(t[0]);
  double sum = 0, squares = 0;
  for (std::size_t k = 0; k < K; ++k) {
    const double d = h(t[k]) - origin;
    sum += w[k] * d;
    squares += w[k] * d * d;
  }
  return std::max(squares - sum * sum, 0.0);
}

}  // namespace

Result<std::vector<std::uint32_t>> bootstrap_counts(const std::uint8_t* labels, std::size_t count, std::size_t members,
                                                    std::uint64_t seed) {
  GPPROBE_RETURN_IF_ERROR(check_members(members));
  GPPROBE_RETURN_IF_ERROR(check_labels(labels, count, count));
  GPPROBE_RETURN_IF_ERROR(check_both_classes(labels, count, kNeedBoth));
  RandomStream random(seed);
  std::vector<std::uint32_t> counts(members * count, 0);
  for (std::size_t m = 0; m < members; ++m) {
    std::uint32_t* row = &counts[m * count];
    for (std::size_t attempt = 0;; ++attempt) {
      if (attempt == kMaxRedraws) {
        return Status(StatusCode::numerical_failure,
                      "lpe: no resample with both labels in " + std::to_string(kMaxRedraws) + " draws");
      }
      std::fill(row, row + count, 0u);
      for (std::size_t k = 0; k < count; ++k) ++row[random.index(count)];
      if (holds_both_labels(labels, row, count)) break;
    }
  }
  return counts;
}

Result<LinearProbeEnsemble> LinearProbeEnsemble::fit(const MatrixView& observations, const std::uint8_t* labels,
                                                     std::size_t count, const EnsembleOptions& options,
                                                     const ProgressCallback& progress) {
  GPPROBE_RETURN_IF_ERROR(check_observations(observations, labels, count));
  Result<std::vector<std::uint32_t>> counts = bootstrap_counts(labels, count, options.members, options.seed);
  if (!counts.ok()) return counts.status();
  return fit_resamples(observations, labels, count, counts.value().data(), options.members, options.C, progress);
}

Result<LinearProbeEnsemble> LinearProbeEnsemble::fit_resamples(const MatrixView& observations,
                                                               const std::uint8_t* labels, std::size_t count,
                                                               const std::uint32_t* counts, std::size_t members,
                                                               double C, const ProgressCallback& progress) {
  GPPROBE_RETURN_IF_ERROR(check_members(members));
  GPPROBE_RETURN_IF_ERROR(check_positive("C", C));
  GPPROBE_RETURN_IF_ERROR(check_observations(observations, labels, count));
  GPPROBE_RETURN_IF_ERROR(check_both_classes(labels, count, kNeedBoth));
  for (std::size_t m = 0; m < members; ++m) {
    if (!holds_both_labels(labels, counts + m * count, count)) {
      return Status(StatusCode::invalid_argument, "lpe resample " + std::to_string(m) + " lacks one of the classes");
    }
  }
  const ProbeDesign design = probe_design(observations);
  Result<NewtonSolution> all = solve_logistic(design.Z, labels, nullptr, C);
  if (!all.ok()) return all.status();
  const NewtonStart start{all.value().theta, all.value().system};  // the members' expected H

  LinearProbeEnsemble ensemble;
  const Index d = Index(observations.cols());
  ensemble.W_.resize(Index(members), d + 1);
  std::vector<double> weights(count);
  for (std::size_t m = 0; m < members; ++m) {
    const std::uint32_t* row = counts + m * count;
    // A resample drawn before (every one at O = 2, many at small O) has the same solution, bit for bit.
    std::size_t same = 0;
    while (same < m && !std::equal(row, row + count, counts + same * count)) ++same;
    if (same < m) {
      ensemble.W_.row(Index(m)) = ensemble.W_.row(Index(same));
    } else {
      std::copy(row, row + count, weights.begin());
      Result<NewtonSolution> member = solve_logistic(design.Z, labels, weights.data(), C, &start);
      if (!member.ok())
        return Status(member.status().code(), "lpe member " + std::to_string(m) + ": " + member.status().message());
      ensemble.W_.row(Index(m)) = expand_solution(design, member.value().theta).transpose();
    }
    if (!report_progress(progress, m + 1, members)) {
      return Status(StatusCode::cancelled,
                    "lpe fitting cancelled after " + count_of(m + 1, "member") + " of " + std::to_string(members));
    }
  }
  ensemble.collapse_duplicates();
  return ensemble;
}

void LinearProbeEnsemble::collapse_duplicates() {
  const Index M = W_.rows(), D = W_.cols();
  distinct_.resize(0, D);
  weight_.clear();
  for (Index m = 0; m < M; ++m) {
    Index k = 0;
    while (k < distinct_.rows() && !(distinct_.row(k).array() == W_.row(m).array()).all()) ++k;
    if (k == distinct_.rows()) {
      distinct_.conservativeResize(k + 1, D);
      distinct_.row(k) = W_.row(m);
      weight_.push_back(0.0);
    }
    weight_[std::size_t(k)] += 1.0 / double(M);
  }
}

Status LinearProbeEnsemble::score(const MatrixView& queries, const EnsembleScoreColumns& out) const {
  GPPROBE_RETURN_IF_ERROR(check_queries(queries, dimension()));
  constexpr std::size_t kBlockRows = 256;
  const std::size_t n = queries.rows(), d = dimension(), D = d + 1, K = std::size_t(distinct_.rows());
  const std::size_t padded = (K + kLaneCount - 1) / kLaneCount * kLaneCount;
  const double* w = weight_.data();
  std::vector<double> block(kBlockRows * D), logits(kBlockRows * K);
  std::vector<double> t(padded, 0.0), e(padded), log1p_e(padded), g(padded);
  for (std::size_t first = 0; first < n; first += kBlockRows) {
    const std::size_t count = std::min(kBlockRows, n - first);
    for (std::size_t i = 0; i < count; ++i) {  // rows [q' 1]
      queries.copy_rows(first + i, 1, &block[i * D]);
      block[i * D + d] = 1.0;
    }
    multiply_transposed(block.data(), count, distinct_.data(), K, D, logits.data());
    for (std::size_t i = 0; i < count; ++i) {
      // The members' logits are the distribution of f: the probe's measures over them (Gaussian
      // entropy of f with the members' variance, as the header defines the episteme). The sums are
      // logistic_expectations' (uncertainty_measures.h), with e = exp(-|t|) and log1p(e) four members
      // at a time (lanes_math.h) instead of a libm call each.
      std::copy(&logits[i * K], &logits[i * K] + K, t.begin());
      for (std::size_t k = 0; k < padded; k += kLaneCount) {
        const Lanes magnitude = (Lanes)((LaneMask)load(&t[k]) | (LaneMask)splat(-0.0));  // -|t|
        const Lanes ek = exp_nonpositive(magnitude);
        store(&e[k], ek);
        store(&log1p_e[k], log1p_unit(ek));
      }
      LogisticExpectations sums;
      double t_mean = 0;
      for (std::size_t k = 0; k < K; ++k) {
        const double x = t[k];
        const double sp_neg = std::fmax(-x, 0.0) + log1p_e[k];
        const double sp_pos = std::fmax(x, 0.0) + log1p_e[k];
        const double big = 1.0 / (1.0 + e[k]);
        const double small = e[k] / (1.0 + e[k]);
        g[k] = x >= 0.0 ? big : small;  // sigmoid(t)
        const double one_minus_g = x >= 0.0 ? small : big;
        sums.judged_probability += w[k] * g[k];
        sums.alea += w[k] * (g[k] * sp_neg + one_minus_g * sp_pos);
        sums.softplus_neg += w[k] * sp_neg;
        t_mean += w[k] * x;
      }
      const double g_var = weighted_variance(g.data(), w, K, [](double v) { return v; });
      const double t_var =
          std::max(weighted_variance(t.data(), w, K, [](double v) { return v; }), kSmallestLogitVariance);
      const std::size_t q = first + i;
      if (out.judged_probability) out.judged_probability[q] = sums.judged_probability;
      if (out.variance) out.variance[q] = g_var;
      if (out.ood_score) out.ood_score[q] = -g_var;
      if (out.alea) out.alea[q] = sums.alea;
      if (out.episteme) out.episteme[q] = latent_episteme(t_mean, t_var, sums.softplus_neg);
    }
  }
  return Status::success();
}

}  // namespace gpprobe
