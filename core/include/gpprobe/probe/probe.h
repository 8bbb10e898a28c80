// The Gaussian process probe: a Beta GP with the cosine kernel, fitted once to labelled observations
// and queried many times (docs/design/probe.md).
//
//   observations  O by d   (O may be 0: the probe is then its prior)
//   labels        O values in {0, 1}
//   queries       n by d  ->  per query: judged_probability, episteme, alea, latent_mean,
//                            latent_variance, knowledge = 1 - variance/(2v), ood_score = -variance
//
// The posterior lives in function space or weight space, whichever is cheaper for O, d and the
// expected number of queries (both give the same numbers), unless that form is ill-conditioned and the
// other is not (posterior_choice.h). Adding or removing an observation updates it in place. Every input
// is validated here; failures come back as a Status naming the problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpprobe/common/enum_names.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/probe/beta_prior.h"
#include "gpprobe/probe/latent_weights.h"
#include "gpprobe/probe/observation_influence.h"

namespace gpprobe {

class LatentPosterior;
struct ChosenPosterior;

enum class PosteriorSpace { automatic, function, weight };
inline constexpr EnumNames<PosteriorSpace, 3> kPosteriorSpaceNames = {{{PosteriorSpace::automatic, "automatic"},
                                                                       {PosteriorSpace::function, "function"},
                                                                       {PosteriorSpace::weight, "weight"}}};

// "function" / "weight" / "automatic".
inline const char* space_name(PosteriorSpace space) { return name_of(kPosteriorSpaceNames, space); }
// The space called `name`; invalid_argument "space must be automatic, function or weight, got 'x'".
inline Result<PosteriorSpace> parse_space(const std::string& name) {
  return parse_name(kPosteriorSpaceNames, name, "space");
}

struct ProbeOptions {
  double epsilon = 0.1;
  double strength = 5.0;
  PosteriorSpace space = PosteriorSpace::automatic;
  std::size_t expected_queries = 10000;  // what "cheaper" is measured against
  // Score float32 queries with float32 products where that is accurate (weight space, passes of at
  // least D/2 queries: the variance's triangular product in f32x4, about twice as fast in wasm); each
  // query whose variance would cancel falls back to float64. Scores then differ from the exact ones by
  // the bound docs/performance.md "Accuracy of the probe's scores" states instead of 1e-9.
  // Float64 queries are never affected.
  bool float32_products = false;
};

// Caller-owned outputs, each of length queries.rows(). Any pointer may be null to skip that output
// (judged_probability, episteme and alea are only computed when one of them is requested).
struct ProbeScoreColumns {
  double* judged_probability = nullptr;
  double* episteme = nullptr;
  double* alea = nullptr;
  double* latent_mean = nullptr;
  double* latent_variance = nullptr;
  double* knowledge = nullptr;
  double* ood_score = nullptr;
};

class Probe {
 public:
  static Result<Probe> fit(const MatrixView& observations, const std::uint8_t* labels, std::size_t label_count,
                           const ProbeOptions& options = {});

  Probe(Probe&&) noexcept;
  Probe& operator=(Probe&&) noexcept;
  ~Probe();

  // Scores every query (blocks of 256, progress after each). Cancelled leaves outputs partly written, and
  // so does numerical_failure: a latent variance outside (0, 2v] or a non-finite mean is never output.
  Status score(const MatrixView& queries, const ProbeScoreColumns& out, const ProgressCallback& progress = {}) const;

  // One more observation (a 1 by d view) / one fewer; the posterior is updated, not refitted.
  // On failure the probe is unchanged.
  Status add_observation(const MatrixView& observation, std::uint8_t label);
  Status remove_observation(std::size_t index);

  std::size_t observation_count() const { return labels_.size(); }
  std::size_t dimension() const { return dimension_; }
  PosteriorSpace space() const { return space_; }
  bool float32_products() const { return float32_products_; }
  const BetaGpPrior& prior() const { return prior_; }
  const std::vector<std::uint8_t>& labels() const { return labels_; }
  // The observations' features psi(a_i) of the cosine kernel (O by d+1), in the probe's order.
  const RowMatrix& features() const { return psi_; }
  // Condition estimate of the posterior's linear systems: the latent mean and variance carry a relative
  // error of roughly 1e-16 times it. A form above 1e8 is replaced by the other (space() says which is in
  // use); above 1e11 fit, add and remove fail with numerical_failure instead.
  double condition() const;

  // A stamp that changes with every successful fit, add and remove, unique across probes: scores kept
  // for one revision (scored_queries.h) know when they are stale.
  std::uint64_t revision() const { return revision_; }
  // The features psi (d+1 values, cosine_kernel.h) of observation `index` < observation_count().
  std::vector<double> observation_features(std::size_t index) const;
  // What adding an observation with these features and label would change at every query
  // (observation_influence.h), from the current posterior. O(D^2) in weight space, O(O D + O^2) in
  // function space.
  ObservationInfluence influence(const double* features, std::uint8_t label) const;

  // The posterior's latent in weight space (latent_weights.h), for certified bounds: O(D^2) in weight
  // space, O(O^2 D + O D^2) in function space. With no observation, the prior of dimension().
  LatentWeights latent_weights() const;

 private:
  Probe();
  // Keeps an updated posterior (or the other form, if better conditioned) with the data it was updated to.
  Status commit(const Status& status, ChosenPosterior updated, RowMatrix psi, std::vector<std::uint8_t> labels);

  BetaGpPrior prior_;
  PosteriorSpace space_ = PosteriorSpace::function;
  std::size_t dimension_ = 0;      // d; 0 while unknown (no observation and no columns given)
  bool float32_products_ = false;  // ProbeOptions::float32_products
  RowMatrix psi_;                  // O by d+1 features of the observations
  std::vector<std::uint8_t> labels_;
  std::unique_ptr<LatentPosterior> posterior_;
  std::uint64_t revision_ = 0;
};

// The space `automatic` picks for O observations of dimension d and n expected queries:
// the smaller of the flop counts of fit + n queries in each form.
PosteriorSpace cheaper_space(std::size_t observations, std::size_t dimension, std::size_t queries);

}  // namespace gpprobe
