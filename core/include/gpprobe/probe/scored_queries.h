// The scores of one fixed set of queries, kept up to date while the probe gains and loses observations:
// each add or remove changes every query's latent mean and variance by the rank-one update of
// observation_influence.h, O(D) per query, instead of scoring it again (O(D^2) or O(O D + O^2)).
//
//   ScoredQueries kept(queries);             // the view must outlive this object
//   kept.score(probe);                       // one full pass (or score_rows in chunks, in order)
//   kept.add_observation(&probe, row, 1);    // the probe is updated and every query with it
//   kept.remove_observation(&probe, 3);
//   kept.write(columns, 0, kept.rows());     // the measures from the kept latents
//
// Drift guard: after every update a few spread queries are scored afresh; if one differs from its kept
// latent by more than 1e-11 (plus what the posterior's condition estimate admits) or an updated latent
// leaves (0, 2v], every query is scored again (full_rescores() counts it). A probe changed behind this
// object's back (its revision differs) is likewise met by a full pass, never by stale numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/probe/probe.h"

namespace gpprobe {

class ScoredQueries {
 public:
  explicit ScoredQueries(const MatrixView& queries);

  // Scores rows [first, first + count) with `probe`: chunks must come in order from row 0 (a chunk at
  // row 0 starts a new pass), so a caller can yield and cancel between them.
  Status score_rows(const Probe& probe, std::size_t first, std::size_t count, const ProgressCallback& progress = {});
  Status score(const Probe& probe, const ProgressCallback& progress = {}) {
    return score_rows(probe, 0, rows(), progress);
  }
  // Every row scored by `probe` as it is now.
  bool current(const Probe& probe) const { return scored_ == rows() && revision_ == probe.revision(); }

  // The probe's add_observation / remove_observation and every query updated with it. On failure the
  // probe and the kept scores are unchanged.
  Status add_observation(Probe* probe, const MatrixView& observation, std::uint8_t label);
  Status remove_observation(Probe* probe, std::size_t index);

  // Another set kept for the same probe follows `leader`'s last add or remove: the same rank-one update
  // when this set was current just before it, else a full pass (nothing to do if already current).
  Status follow(const Probe& probe, const ScoredQueries& leader);

  // Rows [first, first + count) of the requested columns (probe.h), from the kept latents.
  // invalid_argument unless every row is scored.
  Status write(const ProbeScoreColumns& out, std::size_t first, std::size_t count) const;

  std::size_t rows() const { return queries_.rows(); }
  std::size_t full_rescores() const { return full_rescores_; }
  const std::vector<double>& latent_mean() const { return mean_; }
  const std::vector<double>& latent_variance() const { return variance_; }

 private:
  // Applies `sign` times the influence to every kept latent, then the drift guard.
  Status update(const Probe& probe, const ObservationInfluence& influence, double sign);
  bool agrees_with(const Probe& probe) const;
  Status rescore(const Probe& probe);

  MatrixView queries_;
  std::vector<double> scale_;  // sqrt(v / (|q|^2 + 1)): psi(q) = scale [q; 1]
  std::vector<double> mean_, variance_;
  std::size_t scored_ = 0;
  std::uint64_t revision_ = 0;
  double prior_variance_ = 0.0;  // 2v
  std::size_t full_rescores_ = 0;
  // The last change made through this object: its influence and sign, and the probe revisions around it.
  struct Change {
    ObservationInfluence influence;
    double sign = 0.0;
    std::uint64_t from = 0, to = 0;
  } last_change_;
};

}  // namespace gpprobe
