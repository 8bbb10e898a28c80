// What every Embind registration file shares: the BindingStatus value returned to JavaScript (registered
// once, in bindings.cpp), the guard that turns escaping exceptions into statuses, heap views, and the
// optional JS progress function. No mathematics.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <exception>
#include <new>
#include <string>

#include "gpprobe/matrix_view.h"
#include "gpprobe/progress.h"
#include "gpprobe/status.h"

namespace gpprobe::wasm {

struct BindingStatus {
  std::string code;
  std::string message;
};

inline BindingStatus to_binding(const Status& s) { return {code_name(s.code()), s.message()}; }

inline BindingStatus invalid(const std::string& message) { return {"invalid_argument", message}; }

// Runs `body` (returning a Status) and converts what escapes it into a status.
template <class Body>
BindingStatus guarded(Body&& body) {
  try {
    return to_binding(body());
  } catch (const std::bad_alloc&) {
    return {"out_of_memory", "out of memory: the wasm heap cannot grow further (4 GB at most)"};
  } catch (const std::exception& e) {
    return {"internal_error", std::string("internal error: ") + e.what()};
  }
}

// A view of `rows` by `cols` values at `ptr`; dtype 32 = float32, 64 = float64. False for another dtype.
inline bool make_view(std::uintptr_t ptr, std::size_t rows, std::size_t cols, int dtype, MatrixView* view) {
  if (dtype == 32) *view = MatrixView(reinterpret_cast<const float*>(ptr), rows, cols);
  else if (dtype == 64) *view = MatrixView(reinterpret_cast<const double*>(ptr), rows, cols);
  else return false;
  return true;
}

// The core's progress callback over an optional JS function(done, total) returning false to cancel.
// `progress` must outlive the callback.
inline ProgressCallback progress_of(const emscripten::val& progress) {
  if (progress.typeOf().as<std::string>() != "function") return {};
  return [&progress](std::size_t done, std::size_t total) { return progress(double(done), double(total)).as<bool>(); };
}

}  // namespace gpprobe::wasm
