#include "gpprobe/probe/scored_queries.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "gpprobe/kernels/cosine_kernel.h"
#include "gpprobe/linalg/parallel_for.h"

#include "linalg/lanes.h"
#include "probe/score_columns.h"

namespace gpprobe {

namespace {

constexpr std::size_t kGuardRows = 8;
constexpr std::size_t kScoredQueriesBlockRows = 512;
constexpr std::size_t kScoredQueriesRoundBlocks = 2;  // per thread between progress reports
constexpr std::size_t kMinWriteRows = 256;            // per thread: the measures cost about a microsecond a row

typedef float Floats __attribute__((vector_size(16)));

inline Lanes widen(const double* p) { return load(p); }
inline Lanes widen(const float* p) {
  Floats f;
  std::memcpy(&f, p, sizeof f);
  return __builtin_convertvector(f, Lanes);
}

// a_i = [row_i; 1] . g and b_i = [row_i; 1] . h for `count` rows of d values (g, h: d + 1 values),
// one pass over the rows for both directions.
template <class T>
void augmented_products(const T* rows, std::size_t count, std::size_t d, const double* g, const double* h, double* a,
                        double* b) {
  for (std::size_t i = 0; i < count; ++i) {
    const T* r = rows + i * d;
    Lanes sa = splat(0.0), sb = splat(0.0);
    std::size_t j = 0;
    for (; j + kLaneCount <= d; j += kLaneCount) {
      const Lanes x = widen(r + j);
      sa = madd(x, load(g + j), sa);
      sb = madd(x, load(h + j), sb);
    }
    double ta = sum(sa) + g[d], tb = sum(sb) + h[d];
    for (; j < d; ++j) {
      ta += double(r[j]) * g[j];
      tb += double(r[j]) * h[j];
    }
    a[i] = ta;
    b[i] = tb;
  }
}

}  // namespace

ScoredQueries::ScoredQueries(const MatrixView& queries)
    : queries_(queries), scale_(queries.rows()), mean_(queries.rows()), variance_(queries.rows()) {}

Status ScoredQueries::score_rows(const Probe& probe, std::size_t first, std::size_t count,
                                 const ProgressCallback& progress) {
  if (first != 0 && (first != scored_ || revision_ != probe.revision())) {
    return Status(StatusCode::invalid_argument, "kept scores must be computed in order from row 0: row " +
                                                    std::to_string(first) + " asked, " + std::to_string(scored_) +
                                                    " scored for this probe");
  }
  if (first + count > rows() || count > rows()) {
    return Status(StatusCode::invalid_argument, "rows " + std::to_string(first) + " to " +
                                                    std::to_string(first + count) + " are outside the " +
                                                    std::to_string(rows()) + " queries");
  }
  if (first == 0) scored_ = 0;
  revision_ = probe.revision();
  prior_variance_ = 2.0 * probe.prior().variance;
  const std::size_t d = queries_.cols();
  ProbeScoreColumns out;
  out.latent_mean = mean_.data();
  out.latent_variance = variance_.data();
  // Probe::score writes row 0 of its view: offset the outputs so query first + i lands at its place.
  out.latent_mean += first;
  out.latent_variance += first;
  const auto score_blocks = [&](std::size_t begin, std::size_t end) -> Status {
    thread_local std::vector<double> block;  // per-thread scratch that only grows (probe.cpp, score)
    block.resize(std::min(count, kScoredQueriesBlockRows) * d);
    for (std::size_t b = begin; b < end; ++b) {
      const std::size_t start = first + b * kScoredQueriesBlockRows,
                        n = std::min(kScoredQueriesBlockRows, first + count - start);
      queries_.copy_rows(start, n, block.data());
      ProbeScoreColumns part = out;
      part.latent_mean += start - first;
      part.latent_variance += start - first;
      GPPROBE_RETURN_IF_ERROR(probe.score(MatrixView(block.data(), n, d), part));
      const double v = probe.prior().variance;
      for (std::size_t i = 0; i < n; ++i) {
        const double* q = block.data() + i * d;
        double norm = 0.0;
        for (std::size_t j = 0; j < d; ++j) norm += q[j] * q[j];
        scale_[start + i] = std::sqrt(v / (norm + 1.0));
      }
    }
    return Status::success();
  };
  return parallel_rounds((count + kScoredQueriesBlockRows - 1) / kScoredQueriesBlockRows, kScoredQueriesRoundBlocks,
                         score_blocks, [&](std::size_t blocks) {
                           const std::size_t done = first + std::min(count, blocks * kScoredQueriesBlockRows);
                           if (!report_progress(progress, done, rows())) {
                             return Status(StatusCode::cancelled, "scoring cancelled after " + std::to_string(done) +
                                                                      " of " + std::to_string(rows()) + " queries");
                           }
                           scored_ = done;
                           return Status::success();
                         });
}

Status ScoredQueries::rescore(const Probe& probe) {
  ++full_rescores_;
  return score(probe);
}

Status ScoredQueries::add_observation(Probe* probe, const MatrixView& observation, std::uint8_t label) {
  if (!current(*probe)) {
    GPPROBE_RETURN_IF_ERROR(probe->add_observation(observation, label));
    last_change_ = {};
    return rescore(*probe);
  }
  std::vector<double> features(probe->dimension() + 1);
  const bool shaped = observation.rows() == 1 && observation.cols() == probe->dimension();
  if (shaped) CosineKernel(probe->prior().variance).features(observation, 0, 1, features.data());
  // The influence of x on the posterior without it, taken before the add (checked there; a bad row fails
  // the add below before anything is used).
  const ObservationInfluence influence = shaped ? probe->influence(features.data(), label) : ObservationInfluence{};
  GPPROBE_RETURN_IF_ERROR(probe->add_observation(observation, label));
  if (influence.alpha.direction.empty()) {
    last_change_ = {};
    return rescore(*probe);
  }
  return update(*probe, influence, 1.0);
}

Status ScoredQueries::remove_observation(Probe* probe, std::size_t index) {
  if (!current(*probe) || index >= probe->observation_count()) {
    GPPROBE_RETURN_IF_ERROR(probe->remove_observation(index));
    last_change_ = {};
    return rescore(*probe);
  }
  const std::vector<double> features = probe->observation_features(index);
  const std::uint8_t label = probe->labels()[index];
  GPPROBE_RETURN_IF_ERROR(probe->remove_observation(index));
  // The same change taken back, from the posterior without the observation: the one after the removal.
  return update(*probe, probe->influence(features.data(), label), -1.0);
}

Status ScoredQueries::follow(const Probe& probe, const ScoredQueries& leader) {
  if (current(probe)) return Status::success();
  const Change& change = leader.last_change_;
  if (scored_ == rows() && change.sign != 0.0 && change.from == revision_ && change.to == probe.revision()) {
    return update(probe, change.influence, change.sign);
  }
  return rescore(probe);
}

Status ScoredQueries::update(const Probe& probe, const ObservationInfluence& influence, double sign) {
  last_change_ = {influence, sign, revision_, probe.revision()};
  const std::size_t n = rows(), d = queries_.cols();
  const double* g = influence.alpha.direction.data();
  const double* h = influence.beta.direction.data();
  // Each block of queries updated by the same code whichever thread takes it; the validity per block.
  std::vector<char> block_valid((n + kScoredQueriesBlockRows - 1) / kScoredQueriesBlockRows, 1);
  parallel_for(block_valid.size(), [&](std::size_t begin, std::size_t end) {
    std::vector<double> a(std::min(n, kScoredQueriesBlockRows)), b(a.size());
    for (std::size_t block = begin; block < end; ++block) {
      const std::size_t first = block * kScoredQueriesBlockRows, count = std::min(kScoredQueriesBlockRows, n - first);
      if (queries_.type() == ScalarType::float32) {
        augmented_products(static_cast<const float*>(queries_.data()) + first * d, count, d, g, h, a.data(), b.data());
      } else {
        augmented_products(static_cast<const double*>(queries_.data()) + first * d, count, d, g, h, a.data(), b.data());
      }
      bool valid = true;
      for (std::size_t i = 0; i < count; ++i) {
        const std::size_t q = first + i;
        const double pa = scale_[q] * a[i], pb = scale_[q] * b[i];
        mean_[q] += sign * (pa * influence.alpha.mean_step - pb * influence.beta.mean_step);
        variance_[q] -= sign * (pa * pa * influence.alpha.variance_step + pb * pb * influence.beta.variance_step);
        valid = valid && check_latent(q, mean_[q], variance_[q], prior_variance_, 1.0).ok();
      }
      block_valid[block] = valid;
    }
  });
  const bool valid = std::all_of(block_valid.begin(), block_valid.end(), [](char v) { return v != 0; });
  revision_ = probe.revision();
  if (!valid || !agrees_with(probe)) return rescore(probe);
  return Status::success();
}

bool ScoredQueries::agrees_with(const Probe& probe) const {
  const std::size_t n = rows(), d = queries_.cols();
  const double tolerance = 1e-11 + 1e-15 * probe.condition();
  std::vector<double> row(d);
  for (std::size_t k = 0; k < std::min(n, kGuardRows); ++k) {
    const std::size_t q = n <= kGuardRows ? k : k * (n - 1) / (kGuardRows - 1);
    queries_.copy_rows(q, 1, row.data());
    double mean = 0.0, variance = 0.0;
    ProbeScoreColumns out;
    out.latent_mean = &mean;
    out.latent_variance = &variance;
    if (!probe.score(MatrixView(row.data(), 1, d), out).ok()) return false;
    if (std::fabs(mean - mean_[q]) > tolerance * (1.0 + std::fabs(mean))) return false;
    if (std::fabs(variance - std::min(variance_[q], prior_variance_)) > tolerance * prior_variance_) return false;
  }
  return true;
}

Status ScoredQueries::write(const ProbeScoreColumns& out, std::size_t first, std::size_t count) const {
  if (scored_ != rows()) {
    return Status(StatusCode::invalid_argument, "the kept scores are incomplete: " + std::to_string(scored_) + " of " +
                                                    std::to_string(rows()) + " queries scored");
  }
  if (first + count > rows() || count > rows()) {
    return Status(StatusCode::invalid_argument, "rows " + std::to_string(first) + " to " +
                                                    std::to_string(first + count) + " are outside the " +
                                                    std::to_string(rows()) + " queries");
  }
  // Row first + i goes to index i of every column.
  parallel_for(
      count,
      [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
          write_score_columns(i, mean_[first + i], variance_[first + i], prior_variance_, out);
        }
      },
      kMinWriteRows);
  return Status::success();
}

}  // namespace gpprobe
