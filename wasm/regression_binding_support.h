// Helpers shared by the regression bindings (bindings_regression*.cpp): copies of heap arrays into JS
// typed arrays, statuses and ROC curves as JS objects, and kernels from their text form. Registration
// support only; no mathematics.
#pragma once

#include <emscripten/val.h>

#include <sstream>
#include <string>
#include <vector>

#include "gpprobe/gated_roc.h"
#include "gpprobe/kernel_expression.h"
#include "gpprobe/status.h"

namespace gpprobe::wasm {

using emscripten::val;

// A JS Float64Array / Uint8Array copy of n values.
template <class T>
inline val copy_out(const T* data, std::size_t n) {
  return val(emscripten::typed_memory_view(n, data)).call<val>("slice");
}

inline val status_object(const Status& s) {
  val out = val::object();
  out.set("code", std::string(gpprobe::code_name(s.code())));
  out.set("message", s.message());
  return out;
}

inline std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty()) names.push_back(name);
  return names;
}

// The kernel of `text` with the comma-separated `fixed` parameters held at their values.
inline Result<gpprobe::Kernel> kernel_of(const std::string& text, const std::string& fixed) {
  Result<gpprobe::Kernel> k = gpprobe::parse_kernel(text);
  if (!k.ok()) return k;
  return gpprobe::fix_parameters(k.value(), split_names(fixed));
}

inline val roc_object(const gpprobe::GatedRoc& c) {
  val out = val::object();
  out.set("rho", c.rho);
  out.set("points", double(c.points));
  out.set("positives", double(c.positives));
  out.set("negatives", double(c.negatives));
  out.set("defined", c.defined);
  out.set("auc", c.auc);
  out.set("falsePositiveRate", copy_out(c.false_positive_rate.data(), c.false_positive_rate.size()));
  out.set("truePositiveRate", copy_out(c.true_positive_rate.data(), c.true_positive_rate.size()));
  return out;
}

}  // namespace gpprobe::wasm
