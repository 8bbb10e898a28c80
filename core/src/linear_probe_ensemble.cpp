#include "gpprobe/linear_probe_ensemble.h"

#include <algorithm>
#include <cmath>

#include "gpprobe/random_stream.h"
#include "gpprobe/row_products.h"
#include "gpprobe/uncertainty_measures.h"
#include "input_checks.h"
#include "lanes_math.h"
#include "logistic_newton.h"
#include "probe_design.h"

namespace gpprobe {

using Eigen::Index;

namespace {

constexpr std::size_t kMaxRedraws = 1000;          // per member; P(one class only) <= 1/2 for any O >= 2
constexpr double kSmallestLogitVariance = 1e-12;  // MATH.md: measures stay finite down to this

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

// The ensemble's sums at one query over its members' logits t (weights w summing to 1; `count` a multiple of
// kLaneCount, padded with weight 0), four members at a time with lanes_math.h's exp and log1p (the scalar
// libm calls, three per member and query, were half of scoring natively). The variances are Σ_k w_k (h(t_k) - mean)²
// computed on h(t_k) - h(t_0), so that a single distinct member gives exactly 0.
struct MemberSums {
  double judged_probability = 0, alea = 0, softplus_neg = 0;  // as logistic_expectations
  double logit_mean = 0, logit_variance = 0, probability_variance = 0;
};

MemberSums member_sums(const double* t, const double* w, std::size_t count) {
  const LaneMask sign_bit = LaneMask{} + (long long)0x8000000000000000ULL;
  const Lanes t0 = splat(t[0]);
  Lanes judged = splat(0.0), alea = splat(0.0), softplus_neg = splat(0.0), t_sum = splat(0.0);
  Lanes g_sum = splat(0.0), g_squares = splat(0.0), d_sum = splat(0.0), d_squares = splat(0.0);
  Lanes g0 = splat(0.0);
  for (std::size_t k = 0; k < count; k += kLaneCount) {
    const Lanes x = load(t + k), wk = load(w + k);
    const Lanes e = exp_nonpositive((Lanes)((LaneMask)x | sign_bit));  // e^-|x|
    const Lanes log1p_e = log1p_unit(e);
    const Lanes sp_neg = positive_part(-x) + log1p_e;
    const Lanes sp_pos = positive_part(x) + log1p_e;
    const Lanes big = splat(1.0) / (splat(1.0) + e);
    const Lanes small = e * big;
    const LaneMask non_negative = x >= splat(0.0);
    const Lanes g = keep(non_negative, big) + keep(~non_negative, small);
    const Lanes one_minus_g = keep(non_negative, small) + keep(~non_negative, big);
    if (k == 0) g0 = splat(g[0]);
    judged += wk * g;
    alea += wk * (g * sp_neg + one_minus_g * sp_pos);
    softplus_neg += wk * sp_neg;
    t_sum += wk * x;
    const Lanes dg = g - g0, dt = x - t0;
    g_sum += wk * dg;
    g_squares += wk * dg * dg;
    d_sum += wk * dt;
    d_squares += wk * dt * dt;
  }
  MemberSums m;
  m.judged_probability = sum(judged);
  m.alea = sum(alea);
  m.softplus_neg = sum(softplus_neg);
  m.logit_mean = sum(t_sum);
  const double gs = sum(g_sum), ds = sum(d_sum);
  m.probability_variance = std::max(sum(g_squares) - gs * gs, 0.0);
  m.logit_variance = std::max(sum(d_squares) - ds * ds, 0.0);
  return m;
}

}  // namespace

Result<std::vector<std::uint32_t>> bootstrap_counts(const std::uint8_t* labels, std::size_t count,
                                                    std::size_t members, std::uint64_t seed) {
  GPPROBE_RETURN_IF_ERROR(check_members(members));
  GPPROBE_RETURN_IF_ERROR(check_labels(labels, count, count));
  GPPROBE_RETURN_IF_ERROR(check_both_classes(labels, count, kNeedBoth));
  RandomStream random(seed);
  std::vector<std::uint32_t> counts(members * count, 0);
  for (std::size_t m = 0; m < members; ++m) {
    std::uint32_t* row = &counts[m * count];
    for (std::size_t attempt = 0;; ++attempt) {
      if (attempt == kMaxRedraws) {
        return Status(StatusCode::numerical_failure, "lpe: no resample with both labels in " +
                                                         std::to_string(kMaxRedraws) + " draws");
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
      if (!member.ok()) return Status(member.status().code(), "lpe member " + std::to_string(m) + ": " + member.status().message());
      ensemble.W_.row(Index(m)) = expand_solution(design, member.value().theta).transpose();
    }
    if (!report_progress(progress, m + 1, members)) {
      return Status(StatusCode::cancelled, "lpe fitting cancelled after " + count_of(m + 1, "member") + " of " +
                                               std::to_string(members));
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
  // The members' logits four at a time (lanes.h), padded with members of weight 0 whose terms add 0.
  const std::size_t padded = (K + kLaneCount - 1) / kLaneCount * kLaneCount;
  std::vector<double> w(padded, 0.0);
  std::copy(weight_.begin(), weight_.end(), w.begin());
  std::vector<double> block(kBlockRows * D), logits(kBlockRows * K), t(padded, 0.0);
  for (std::size_t first = 0; first < n; first += kBlockRows) {
    const std::size_t count = std::min(kBlockRows, n - first);
    for (std::size_t i = 0; i < count; ++i) {  // rows [q' 1]
      queries.copy_rows(first + i, 1, &block[i * D]);
      block[i * D + d] = 1.0;
    }
    multiply_transposed(block.data(), count, distinct_.data(), K, D, logits.data());
    for (std::size_t i = 0; i < count; ++i) {
      std::copy(&logits[i * K], &logits[i * K] + K, t.begin());
      // The members' logits are the distribution of f: the probe's measures over them (Gaussian
      // entropy of f with the members' variance, as the header defines the episteme).
      const MemberSums e = member_sums(t.data(), w.data(), padded);
      const std::size_t q = first + i;
      const double t_var = std::max(e.logit_variance, kSmallestLogitVariance);
      if (out.judged_probability) out.judged_probability[q] = e.judged_probability;
      if (out.variance) out.variance[q] = e.probability_variance;
      if (out.ood_score) out.ood_score[q] = -e.probability_variance;
      if (out.alea) out.alea[q] = e.alea;
      if (out.episteme) out.episteme[q] = latent_episteme(e.logit_mean, t_var, e.softplus_neg);
    }
  }
  return Status::success();
}

}  // namespace gpprobe
