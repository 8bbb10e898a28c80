// Embind registration of the analyses behind the app's views: the PCA map, the beliefs of the
// hyperparameter panel and of a selected query (the exact Beta parameters and the prior come from the
// core, never from TS arithmetic), their densities, and the belief envelope (the rational region).
// Conventions of binding_support.h: heap pointers and shapes in, outputs into caller-allocated buffers
// or the result struct, one status shape out.
#include <cstdint>
#include <string>

#include <emscripten/bind.h>

#include "gpprobe/linalg/pca.h"
#include "gpprobe/probe/belief_densities.h"
#include "gpprobe/probe/belief_envelope.h"

#include "binding_support.h"

namespace gpprobe::wasm {
namespace {

// Writes scores (rows by k), components (k by cols), and k explained variances followed by the total
// variance (k + 1 values).
Status principal_components(std::uintptr_t x, std::size_t rows, std::size_t cols, int dtype, double k, double seed,
                            std::uintptr_t scores, std::uintptr_t components, std::uintptr_t explained, val progress) {
  gpprobe::MatrixView view;
  GPPROBE_RETURN_IF_ERROR(view_of(x, rows, cols, dtype, "embeddings", &view));
  std::size_t count = 0;
  GPPROBE_RETURN_IF_ERROR(count_argument("k", k, &count));
  std::uint64_t s = 0;
  GPPROBE_RETURN_IF_ERROR(seed_argument("seed", seed, &s));
  Result<gpprobe::PrincipalComponents> pc = gpprobe::principal_components(view, count, s, 3, progress_from(progress));
  if (!pc.ok()) return pc.status();
  const gpprobe::PrincipalComponents& p = pc.value();
  std::copy(p.scores.data(), p.scores.data() + p.scores.size(), doubles_out(scores));
  std::copy(p.components.data(), p.components.data() + p.components.size(), doubles_out(components));
  double* e = doubles_out(explained);
  for (std::size_t j = 0; j < count; ++j) e[j] = p.explained_variance[Eigen::Index(j)];
  e[count] = p.total_variance;
  return Status::success();
}

// The logit-normal density (mean, variance) at n points of (0, 1).
Status logit_normal_densities(std::uintptr_t grid, std::size_t n, double mean, double variance, std::uintptr_t out) {
  if (!(variance > 0.0)) return Status(StatusCode::invalid_argument, "a logit-normal density needs variance > 0");
  for (std::size_t i = 0; i < n; ++i)
    doubles_out(out)[i] = gpprobe::logit_normal_density(doubles(grid)[i], mean, variance);
  return Status::success();
}

// The Beta(a, b) density at n points of (0, 1).
Status beta_densities(std::uintptr_t grid, std::size_t n, double a, double b, std::uintptr_t out) {
  if (!(a > 0.0) || !(b > 0.0)) return Status(StatusCode::invalid_argument, "a Beta density needs parameters > 0");
  for (std::size_t i = 0; i < n; ++i) doubles_out(out)[i] = gpprobe::beta_density(doubles(grid)[i], a, b);
  return Status::success();
}

struct Belief : BindingStatus {
  double betaA = 0, betaB = 0;  // the exact Beta belief (not defined for the prior alone)
  double latentMean = 0, latentVariance = 0;
};

Belief belief_at_observed_point(double epsilon, double strength, int positives, int negatives) {
  Result<gpprobe::BeliefAtObservedPoint> b = gpprobe::belief_at_observed_point(epsilon, strength, positives, negatives);
  if (!b.ok()) return failed<Belief>(b.status());
  Belief r;
  r.betaA = b.value().beta_a;
  r.betaB = b.value().beta_b;
  r.latentMean = b.value().latent_mean;
  r.latentVariance = b.value().latent_variance;
  return r;
}

// The prior belief of f at any point (no strength involved); betaA = betaB = epsilon.
Belief prior_belief(double epsilon) {
  Result<gpprobe::LatentBelief> b = gpprobe::prior_belief(epsilon);
  if (!b.ok()) return failed<Belief>(b.status());
  Belief r;
  r.betaA = r.betaB = epsilon;
  r.latentMean = b.value().mean;
  r.latentVariance = b.value().variance;
  return r;
}

// Writes judged probability, least episteme and the variance attaining it as three columns of `points`.
Status belief_envelope(double epsilon, double points, double max_judged, std::uintptr_t out) {
  std::size_t n = 0;
  GPPROBE_RETURN_IF_ERROR(count_argument("points", points, &n));
  Result<std::vector<gpprobe::EnvelopePoint>> curve = gpprobe::belief_envelope(epsilon, n, max_judged);
  if (!curve.ok()) return curve.status();
  double* o = doubles_out(out);
  for (std::size_t i = 0; i < n; ++i) {
    o[i] = curve.value()[i].judged_probability;
    o[n + i] = curve.value()[i].episteme;
    o[2 * n + i] = curve.value()[i].latent_variance;
  }
  return Status::success();
}

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_analysis) {
  using namespace gpprobe::wasm;
  result_object<Belief>("Belief", [](auto& o) {
    o.field("betaA", &Belief::betaA)
        .field("betaB", &Belief::betaB)
        .field("latentMean", &Belief::latentMean)
        .field("latentVariance", &Belief::latentVariance);
  });
  bind_function<&principal_components>("principalComponents");
  bind_function<&logit_normal_densities>("logitNormalDensities");
  bind_function<&beta_densities>("betaDensities");
  bind_function<&belief_at_observed_point>("beliefAtObservedPoint");
  bind_function<&prior_belief>("priorBelief");
  bind_function<&belief_envelope>("beliefEnvelope");
}
