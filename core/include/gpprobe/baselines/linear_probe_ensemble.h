// The LPE baseline: an ensemble of linear probes (linear_probe.h) fitted on bootstrap resamples of the
// observations (Kim et al. 2018, as the GPP paper uses it), read as samples g_m = sigmoid(t_m) of a
// distribution over classifiers, t_m = w_m'q + b_m, m = 1..M:
//
//   judged_probability  mean_m g_m
//   variance            (1/M) Σ_m (g_m - mean g)²     ood_score = -variance (the paper's LPE OOD score)
//   alea                mean_m H_b(g_m),  H_b(g) = g softplus(-t) + (1 - g) softplus(t)
//   episteme            -H[g] with the paper's change of variables H[g] = H[f] - E[f] - 2 E[softplus(-f)]
//                       (exact for any f), the expectations as ensemble means over f = t_m and H[f] the
//                       entropy ½ log(2 pi e s²) of a Gaussian with the ensemble's logit variance s²
//                       (population, 1/M). When every member agrees (O = 2: each admissible resample is
//                       the pair itself) s² = 0 and H[f] = -inf; s² is then floored at 1e-12, the smallest
//                       variance the probe supports (docs/design/probe.md, "Judged probability,
//                       episteme, alea"), so episteme is large but finite.
//
// Resamples: member m draws O indices uniformly with replacement (RandomStream(seed), in member order,
// index(O) each); a resample without both labels is discarded and redrawn from the same stream. Each
// member is the weighted LP on the distinct rows (weight = multiplicity), identical to fitting the
// duplicated rows, warm-started from the LP on all observations.
//
//   observations  O by d, O >= 1, both labels present;  labels O values in {0, 1}
//   queries       n by d  ->  the five columns above (n values each)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

struct EnsembleOptions {
  std::size_t members = 100;  // M >= 1
  std::uint64_t seed = 0;
  double C = 1.0;  // of every member
};

// Caller-owned outputs of length queries.rows(); null pointers are skipped.
struct EnsembleScoreColumns {
  double* judged_probability = nullptr;
  double* variance = nullptr;
  double* ood_score = nullptr;
  double* episteme = nullptr;
  double* alea = nullptr;
};

// The multiplicity of each observation in each resample: members by O, row-major (each row sums to O).
Result<std::vector<std::uint32_t>> bootstrap_counts(const std::uint8_t* labels, std::size_t count, std::size_t members,
                                                    std::uint64_t seed);

class LinearProbeEnsemble {
 public:
  // Draws the resamples with bootstrap_counts and fits one member each (progress after each member).
  static Result<LinearProbeEnsemble> fit(const MatrixView& observations, const std::uint8_t* labels, std::size_t count,
                                         const EnsembleOptions& options = {}, const ProgressCallback& progress = {});
  // The same with given resamples: `counts` members by O (each row must hold both labels).
  static Result<LinearProbeEnsemble> fit_resamples(const MatrixView& observations, const std::uint8_t* labels,
                                                   std::size_t count, const std::uint32_t* counts, std::size_t members,
                                                   double C = 1.0, const ProgressCallback& progress = {});

  Status score(const MatrixView& queries, const EnsembleScoreColumns& out) const;

  std::size_t members() const { return std::size_t(W_.rows()); }
  std::size_t dimension() const { return std::size_t(W_.cols()) - 1; }
  const RowMatrix& weights() const { return W_; }  // members by d + 1: [w_m' b_m]

 private:
  // Members that came out bitwise identical (all of them at O = 2) are scored once with their share
  // of the ensemble: a blocked product may round equal rows differently, and that noise would turn an
  // exact variance of 0 into a random ranking of queries.
  void collapse_duplicates();

  RowMatrix W_;
  RowMatrix distinct_;          // distinct rows of W_
  std::vector<double> weight_;  // their multiplicities / M
};

}  // namespace gpprobe
