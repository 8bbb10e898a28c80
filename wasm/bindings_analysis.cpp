// Embind registration of the analyses behind the app's views: PCA map, belief densities (prior
// preview, selected query), and the belief envelope (the rational region). Same conventions as bindings.cpp: heap
// pointers and shapes in, BindingStatus out, outputs written to caller-allocated buffers.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "binding_support.h"

#include "gpprobe/belief_densities.h"
#include "gpprobe/belief_envelope.h"
#include "gpprobe/pca.h"

namespace {

using emscripten::val;
using gpprobe::Status;
using gpprobe::StatusCode;
using gpprobe::wasm::BindingStatus;
using gpprobe::wasm::guarded;

// Writes scores (rows by k), components (k by cols), and k explained variances followed by the total
// variance (k + 1 values).
BindingStatus principal_components(std::uintptr_t x, std::size_t rows, std::size_t cols, int dtype, std::size_t k,
                                    double seed, std::uintptr_t scores, std::uintptr_t components,
                                    std::uintptr_t explained, val progress) {
  return guarded([&]() -> Status {
    gpprobe::MatrixView view;
    if (!gpprobe::wasm::make_view(x, rows, cols, dtype, &view)) {
      return Status(StatusCode::invalid_argument, "embeddings must be float32 or float64");
    }
    gpprobe::Result<gpprobe::PrincipalComponents> pc =
        gpprobe::principal_components(view, k, std::uint64_t(seed), 3, gpprobe::wasm::progress_from(progress));
    if (!pc.ok()) return pc.status();
    const gpprobe::PrincipalComponents& p = pc.value();
    std::copy(p.scores.data(), p.scores.data() + p.scores.size(), reinterpret_cast<double*>(scores));
    std::copy(p.components.data(), p.components.data() + p.components.size(), reinterpret_cast<double*>(components));
    double* e = reinterpret_cast<double*>(explained);
    for (std::size_t j = 0; j < k; ++j) e[j] = p.explained_variance[Eigen::Index(j)];
    e[k] = p.total_variance;
    return Status::success();
  });
}

// The logit-normal density (mean, variance) and the Beta(a, b) density at n points of (0, 1).
BindingStatus belief_densities(std::uintptr_t grid, std::size_t n, double mean, double variance, double a, double b,
                                std::uintptr_t logit_normal, std::uintptr_t beta) {
  return guarded([&]() -> Status {
    if (!(variance > 0.0) || !(a > 0.0) || !(b > 0.0)) {
      return Status(StatusCode::invalid_argument, "densities need variance > 0 and Beta parameters > 0");
    }
    const double* y = reinterpret_cast<const double*>(grid);
    double* ln = reinterpret_cast<double*>(logit_normal);
    double* be = reinterpret_cast<double*>(beta);
    for (std::size_t i = 0; i < n; ++i) {
      ln[i] = gpprobe::logit_normal_density(y[i], mean, variance);
      be[i] = gpprobe::beta_density(y[i], a, b);
    }
    return Status::success();
  });
}

// Writes beta_a, beta_b, latent_mean, latent_variance.
BindingStatus belief_at_observed_point(double epsilon, double strength, int positives, int negatives,
                                        std::uintptr_t out) {
  return guarded([&]() -> Status {
    gpprobe::Result<gpprobe::BeliefAtObservedPoint> b =
        gpprobe::belief_at_observed_point(epsilon, strength, positives, negatives);
    if (!b.ok()) return b.status();
    double* o = reinterpret_cast<double*>(out);
    o[0] = b.value().beta_a;
    o[1] = b.value().beta_b;
    o[2] = b.value().latent_mean;
    o[3] = b.value().latent_variance;
    return Status::success();
  });
}

// Writes judged probability, least episteme and the variance attaining it as three columns of `points`.
BindingStatus belief_envelope(double epsilon, std::size_t points, double max_judged, std::uintptr_t out) {
  return guarded([&]() -> Status {
    gpprobe::Result<std::vector<gpprobe::EnvelopePoint>> curve = gpprobe::belief_envelope(epsilon, points, max_judged);
    if (!curve.ok()) return curve.status();
    double* o = reinterpret_cast<double*>(out);
    for (std::size_t i = 0; i < points; ++i) {
      o[i] = curve.value()[i].judged_probability;
      o[points + i] = curve.value()[i].episteme;
      o[2 * points + i] = curve.value()[i].latent_variance;
    }
    return Status::success();
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(gpprobe_analysis) {
  emscripten::function("principalComponents", &principal_components);
  emscripten::function("beliefDensities", &belief_densities);
  emscripten::function("beliefAtObservedPoint", &belief_at_observed_point);
  emscripten::function("beliefEnvelope", &belief_envelope);
}
