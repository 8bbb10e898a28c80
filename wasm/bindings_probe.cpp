// Embind registration of the probe for JavaScript: the ProbeHandle the TS engine fits, scores and
// updates (probe_handle.h), the observation draw, and the synthetic benchmark data. No mathematics here: each binding
// views the heap buffers the TypeScript engine filled (row-major, whole arrays; matrices as pointer,
// rows, cols, dtype 32/64), calls the core and returns the one result shape of binding_support.h.
// Also registered here, once: BindingStatus, and the two test hooks of the guard (registeredBindings,
// armFault).
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include <emscripten/bind.h>

#include "gpprobe/evaluation/synthetic_embeddings.h"
#include "gpprobe/probe/observation_draw.h"

#include "binding_support.h"
#include "probe_handle.h"

namespace gpprobe::wasm {
namespace {

// Seeded synthetic embeddings (the benchmark's workload): x as float64 rows*dim at `x`, labels at `labels`.
Status synthetic_embeddings(double rows, double dimension, double seed, std::uintptr_t x, std::uintptr_t labels) {
  std::size_t n = 0, d = 0;
  GPPROBE_RETURN_IF_ERROR(count_argument("rows", rows, &n));
  GPPROBE_RETURN_IF_ERROR(count_argument("dimension", dimension, &d));
  std::uint64_t s = 0;
  GPPROBE_RETURN_IF_ERROR(seed_argument("seed", seed, &s));
  const gpprobe::SyntheticEmbeddings data = gpprobe::synthetic_embeddings(n, d, s);
  std::copy(data.x.data(), data.x.data() + data.x.size(), doubles_out(x));
  std::copy(data.labels.begin(), data.labels.end(), reinterpret_cast<std::uint8_t*>(labels));
  return Status::success();
}

struct DrawnRows : BindingStatus {
  val rows = val::null();  // Uint32Array, ascending
};

DrawnRows draw_observations(std::uintptr_t labels, std::size_t n, double per_class, double seed) {
  std::size_t per = 0;
  std::uint64_t s = 0;
  for (const Status& checked : {count_argument("perClass", per_class, &per), seed_argument("seed", seed, &s)}) {
    if (!checked.ok()) return failed<DrawnRows>(checked);
  }
  Result<std::vector<std::size_t>> rows = gpprobe::draw_observations(bytes(labels), n, per, s);
  if (!rows.ok()) return failed<DrawnRows>(rows.status());
  const std::vector<std::uint32_t> out(rows.value().begin(), rows.value().end());
  DrawnRows r;
  r.rows = copy_out(out);
  return r;
}

struct BindingNames : BindingStatus {
  val names = val::null();  // string[]
};

BindingNames registered_binding_names() {
  BindingNames r;
  r.names = array_of(registered_bindings());
  return r;
}

// Test hook: the next guarded call throws `fault` ("bad_alloc", "exception" or "none") before its body.
Status arm_fault(const std::string& fault) {
  if (fault == "bad_alloc") armed_fault() = Fault::bad_alloc;
  else if (fault == "exception") armed_fault() = Fault::exception;
  else if (fault == "none") armed_fault() = Fault::none;
  else return Status(StatusCode::invalid_argument, "fault must be bad_alloc, exception or none, got '" + fault + "'");
  return Status::success();
}

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_probe) {
  using namespace gpprobe::wasm;
  emscripten::value_object<BindingStatus>("BindingStatus")
      .field("code", &BindingStatus::code)
      .field("message", &BindingStatus::message);
  result_object<ProbeState>("ProbeState", [](auto& o) {
    o.field("observationCount", &ProbeState::observationCount)
        .field("dimension", &ProbeState::dimension)
        .field("space", &ProbeState::space)
        .field("labels", &ProbeState::labels);
  });
  reply_object<gpprobe::LeaveOneOut>();
  result_object<DrawnRows>("DrawnRows", [](auto& o) { o.field("rows", &DrawnRows::rows); });
  result_object<BindingNames>("BindingNames", [](auto& o) { o.field("names", &BindingNames::names); });

  emscripten::class_<ProbeHandle> probe("ProbeHandle");
  probe.constructor<>();
  bind_method<&ProbeHandle::fit>(probe, "ProbeHandle", "fit");
  bind_method<&ProbeHandle::score>(probe, "ProbeHandle", "score");
  bind_method<&ProbeHandle::add_observation>(probe, "ProbeHandle", "addObservation");
  bind_method<&ProbeHandle::remove_observation>(probe, "ProbeHandle", "removeObservation");
  bind_method<&ProbeHandle::state>(probe, "ProbeHandle", "state");
  bind_method<&ProbeHandle::certify>(probe, "ProbeHandle", "certify");
  bind_method<&ProbeHandle::explain>(probe, "ProbeHandle", "explain");
  bind_method<&ProbeHandle::leave_one_out>(probe, "ProbeHandle", "leaveOneOut");
  bind_method<&ProbeHandle::knowledge_gain>(probe, "ProbeHandle", "knowledgeGain");

  bind_function<&synthetic_embeddings>("syntheticEmbeddings");
  bind_function<&draw_observations>("drawObservations");
  bind_function<&registered_binding_names>("registeredBindings");
  bind_function<&arm_fault>("armFault");
}
