// Embind registration of the core for JavaScript. No mathematics here: each function views the wasm
// heap buffers the TypeScript engine filled (row-major, whole arrays), calls the core, and returns a
// BindingStatus {code, message}; code "ok" means success. No exception or abort reaches JavaScript for
// bad input: the core returns statuses, and memory exhaustion is caught at this boundary.
//
// Matrices arrive as (pointer, rows, cols, dtype) with dtype 32 = float32, 64 = float64. The shared
// helpers live in binding_support.h; other registration files (bindings_*.cpp) reuse BindingStatus,
// which is registered here once.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "binding_support.h"
#include "gpprobe/probe.h"
#include "gpprobe/row_products.h"
#include "gpprobe/synthetic_embeddings.h"

namespace {

using emscripten::val;
using gpprobe::MatrixView;
using gpprobe::Status;
using gpprobe::StatusCode;
using gpprobe::wasm::BindingStatus;
using gpprobe::wasm::guarded;
using gpprobe::wasm::invalid;
using gpprobe::wasm::make_view;

gpprobe::PosteriorSpace parse_space(const std::string& name, bool* ok) {
  *ok = true;
  if (name == "automatic") return gpprobe::PosteriorSpace::automatic;
  if (name == "function") return gpprobe::PosteriorSpace::function;
  if (name == "weight") return gpprobe::PosteriorSpace::weight;
  *ok = false;
  return gpprobe::PosteriorSpace::automatic;
}

// One fitted probe. JavaScript owns it and must call delete() (the TS Probe.dispose does).
class ProbeHandle {
 public:
  BindingStatus fit(std::uintptr_t observations, std::size_t rows, std::size_t cols, int dtype,
                    std::uintptr_t labels, std::size_t label_count, double epsilon, double strength,
                    const std::string& space, std::size_t expected_queries) {
    return guarded([&]() -> Status {
      MatrixView view;
      if (!make_view(observations, rows, cols, dtype, &view)) {
        return Status(StatusCode::invalid_argument, "observations must be float32 or float64");
      }
      gpprobe::ProbeOptions options;
      options.epsilon = epsilon;
      options.strength = strength;
      options.expected_queries = expected_queries;
      bool ok = false;
      options.space = parse_space(space, &ok);
      if (!ok) {
        return Status(StatusCode::invalid_argument, "space must be automatic, function or weight, got '" + space + "'");
      }
      gpprobe::Result<gpprobe::Probe> fitted =
          gpprobe::Probe::fit(view, reinterpret_cast<const std::uint8_t*>(labels), label_count, options);
      if (!fitted.ok()) return fitted.status();
      probe_ = std::make_unique<gpprobe::Probe>(std::move(fitted).value());
      return Status::success();
    });
  }

  // Writes 7 columns of `rows` doubles each, one after the other, at `out`: judged_probability,
  // episteme, alea, latent_mean, latent_variance, knowledge, ood_score. `progress(done, total)` is
  // called after each block when it is a function; returning false cancels.
  BindingStatus score(std::uintptr_t queries, std::size_t rows, std::size_t cols, int dtype, std::uintptr_t out,
                      val progress) const {
    if (!probe_) return invalid("the probe is not fitted");
    return guarded([&]() -> Status {
      MatrixView view;
      if (!make_view(queries, rows, cols, dtype, &view)) {
        return Status(StatusCode::invalid_argument, "queries must be float32 or float64");
      }
      double* base = reinterpret_cast<double*>(out);
      gpprobe::ProbeScoreColumns columns{base, base + rows, base + 2 * rows, base + 3 * rows,
                                         base + 4 * rows, base + 5 * rows, base + 6 * rows};
      return probe_->score(view, columns, gpprobe::wasm::progress_from(progress));
    });
  }

  BindingStatus add_observation(std::uintptr_t row, std::size_t cols, int dtype, int label) {
    if (!probe_) return invalid("the probe is not fitted");
    if (label != 0 && label != 1) return invalid("label must be 0 or 1, got " + std::to_string(label));
    return guarded([&]() -> Status {
      MatrixView view;
      if (!make_view(row, 1, cols, dtype, &view)) {
        return Status(StatusCode::invalid_argument, "the observation must be float32 or float64");
      }
      return probe_->add_observation(view, std::uint8_t(label));
    });
  }

  BindingStatus remove_observation(std::size_t index) {
    if (!probe_) return invalid("the probe is not fitted");
    return guarded([&]() { return probe_->remove_observation(index); });
  }

  std::size_t observation_count() const { return probe_ ? probe_->observation_count() : 0; }
  std::size_t dimension() const { return probe_ ? probe_->dimension() : 0; }
  std::string space() const { return probe_ ? gpprobe::space_name(probe_->space()) : ""; }
  // Labels in the probe's current order, written to `out` (observation_count bytes).
  void copy_labels(std::uintptr_t out) const {
    if (!probe_) return;
    std::uint8_t* dst = reinterpret_cast<std::uint8_t*>(out);
    for (std::uint8_t y : probe_->labels()) *dst++ = y;
  }

 private:
  std::unique_ptr<gpprobe::Probe> probe_;
};

// Seeded synthetic embeddings (the benchmark's workload): x as float64 rows*dim at `x`, labels at `labels`.
BindingStatus synthetic_embeddings(std::size_t rows, std::size_t dimension, double seed, std::uintptr_t x,
                                   std::uintptr_t labels) {
  return guarded([&]() -> Status {
    const gpprobe::SyntheticEmbeddings data = gpprobe::synthetic_embeddings(rows, dimension, std::uint64_t(seed));
    std::copy(data.x.data(), data.x.data() + data.x.size(), reinterpret_cast<double*>(x));
    std::copy(data.labels.begin(), data.labels.end(), reinterpret_cast<std::uint8_t*>(labels));
    return Status::success();
  });
}

std::string backend() { return gpprobe::row_products_backend(); }

}  // namespace

EMSCRIPTEN_BINDINGS(gpprobe_probe) {
  emscripten::value_object<BindingStatus>("BindingStatus")
      .field("code", &BindingStatus::code)
      .field("message", &BindingStatus::message);

  emscripten::class_<ProbeHandle>("ProbeHandle")
      .constructor<>()
      .function("fit", &ProbeHandle::fit)
      .function("score", &ProbeHandle::score)
      .function("addObservation", &ProbeHandle::add_observation)
      .function("removeObservation", &ProbeHandle::remove_observation)
      .function("observationCount", &ProbeHandle::observation_count)
      .function("dimension", &ProbeHandle::dimension)
      .function("space", &ProbeHandle::space)
      .function("copyLabels", &ProbeHandle::copy_labels);

  emscripten::function("syntheticEmbeddings", &synthetic_embeddings);
  emscripten::function("backend", &backend);
}
