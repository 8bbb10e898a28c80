// What every Embind bindings file shares: the one return convention, the one guard, and the ways
// arrays and kernels cross. Registration only; no mathematics.
//
// Return convention. Every binding returns a BindingStatus {code, message} (code "ok" or a
// StatusCode name) or a result struct derived from it and registered with result_object, whose
// first fields are code and message: JavaScript checks `r.code` the same way after every call
// (engine/errors.ts throwIfFailed) and reads the outputs from the same object. A core function that
// returns a Status is registered as is: the guard turns it into a BindingStatus.
// A result the core describes (gpprobe/common/fields.h) is returned as the core's own struct,
// Reply<T> (described_values.h), registered with reply_object<T>(); the others still copy their
// outputs into a struct of their own registered with result_object.
//
// Guard. Every function and method is registered through bind_function / bind_method, which run it
// inside guarded_call: std::bad_alloc becomes "out_of_memory" and any other exception
// "internal_error", so nothing a binding does ends in a trap. The list of what was registered this way
// (registered_bindings) and a fault a test can arm for the next guarded call (arm_fault: the call
// throws before its body runs) let tests/wasm/bindings.test.ts check every export structurally.
// Constructors of handles are the one exception: they build empty handles (no input, a few bytes).
//
// Arrays: large inputs and outputs stay pointers into the wasm heap that the TS engine allocates
// (whole arrays, row-major); variable-length outputs come back as typed-array copies (copy_out) in the
// result struct; lists of names cross as JS arrays of strings (strings_of / string_array).
// Kernels: KernelValue {name, parameters, values} (kernel_of / kernel_value), never text.
#pragma once

#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/number_text.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"

namespace gpprobe::wasm {

using emscripten::val;

struct BindingStatus {
  std::string code = "ok";
  std::string message;
};

inline BindingStatus to_binding(const Status& s) { return {code_name(s.code()), s.message()}; }

// A result struct R (derived from BindingStatus) carrying status `s` and default outputs.
template <class R>
R failed(const Status& s) {
  R r{};
  r.code = code_name(s.code());
  r.message = s.message();
  return r;
}

// ---- the guard ----

enum class Fault { none, bad_alloc, exception };

inline Fault& armed_fault() {
  static Fault fault = Fault::none;
  return fault;
}

// Where every guarded call starts: an armed fault fires here, once.
inline void fault_point() {
  const Fault f = armed_fault();
  armed_fault() = Fault::none;
  if (f == Fault::bad_alloc) throw std::bad_alloc();
  if (f == Fault::exception) throw std::runtime_error("injected fault");
}

template <class R, class Body>
R guarded_call(Body&& body) {
  static_assert(std::is_base_of_v<BindingStatus, R>, "a binding returns a BindingStatus or a struct derived from it");
  try {
    fault_point();
    return body();
  } catch (const std::bad_alloc&) {
    return failed<R>(
        Status(StatusCode::out_of_memory, "out of memory: the wasm heap cannot grow further (4 GB at most)"));
  } catch (const std::exception& e) {
    return failed<R>(Status(StatusCode::internal_error, std::string("internal error: ") + e.what()));
  }
}

// What JavaScript receives for a C++ return type: a Status becomes a BindingStatus.
template <class R>
using Returned = std::conditional_t<std::is_same_v<R, Status>, BindingStatus, R>;

template <class R>
Returned<R> returned(R r) {
  if constexpr (std::is_same_v<R, Status>) return to_binding(r);
  else return r;
}

template <auto F>
struct Guard;

template <class R, class... A, R (*F)(A...)>
struct Guard<F> {
  static Returned<R> call(A... a) {
    return guarded_call<Returned<R>>([&] { return returned(F(a...)); });
  }
};

template <class C, class R, class... A, R (C::*F)(A...)>
struct Guard<F> {
  static Returned<R> call(C& self, A... a) {
    return guarded_call<Returned<R>>([&] { return returned((self.*F)(a...)); });
  }
};

template <class C, class R, class... A, R (C::*F)(A...) const>
struct Guard<F> {
  static Returned<R> call(const C& self, A... a) {
    return guarded_call<Returned<R>>([&] { return returned((self.*F)(a...)); });
  }
};

// "principalComponents", "ProbeHandle.score", ...: every binding registered through the helpers below.
inline std::vector<std::string>& registered_bindings() {
  static std::vector<std::string> names;
  return names;
}

template <auto F>
void bind_function(const char* name) {
  emscripten::function(name, &Guard<F>::call);
  registered_bindings().push_back(name);
}

template <auto F, class Class>
void bind_method(Class& registration, const char* class_name, const char* name) {
  registration.function(name, &Guard<F>::call);
  registered_bindings().push_back(std::string(class_name) + "." + name);
}

// Registers R as a JS object whose first fields are code and message; `fields(object)` adds R's own.
template <class R, class Fields>
void result_object(const char* name, Fields fields) {
  static_assert(std::is_base_of_v<BindingStatus, R>, "a result derives from BindingStatus");
  emscripten::value_object<R> object(name);
  object.field("code", &BindingStatus::code).field("message", &BindingStatus::message);
  fields(object);
}

// ---- numbers that become counts ----

// A JS number that the core takes as a count or an index (std::size_t, 32 bits here): a whole number
// from 0 to SIZE_MAX. Anything else (-1, NaN, 1.5, 1e20, 2^32 + k) cannot be converted without
// wrapping or trapping, so it is an invalid_argument naming `name` and the value.
inline Status count_argument(const char* name, double value, std::size_t* out) {
  constexpr double limit = double(std::numeric_limits<std::size_t>::max());
  if (!(value >= 0.0 && value <= limit && std::floor(value) == value)) {
    std::ostringstream os;
    os << name << " must be a whole number from 0 to " << std::numeric_limits<std::size_t>::max() << ", got "
       << number_text(value);
    return Status(StatusCode::invalid_argument, os.str());
  }
  *out = std::size_t(value);
  return Status::success();
}

// A JS number used as a random seed: a whole number from 0 to 2^53 (every such number is exact in a
// double, so the same seed gives the same draw in the CLI and the app). -1, NaN, 1.5 and 1e30 would be
// converted to some other seed without a word: invalid_argument naming `name` and the value.
inline Status seed_argument(const char* name, double value, std::uint64_t* out) {
  constexpr double limit = 9007199254740992.0;  // 2^53
  if (!(value >= 0.0 && value <= limit && std::floor(value) == value)) {
    std::ostringstream os;
    os << name << " must be a whole number from 0 to 9007199254740992, got " << number_text(value);
    return Status(StatusCode::invalid_argument, os.str());
  }
  *out = std::uint64_t(value);
  return Status::success();
}

// ---- arrays ----

// dtype 32 = float32, 64 = float64.
inline Status view_of(std::uintptr_t ptr, std::size_t rows, std::size_t cols, int dtype, const char* what,
                      MatrixView* view) {
  if (dtype == 32) *view = MatrixView(reinterpret_cast<const float*>(ptr), rows, cols);
  else if (dtype == 64) *view = MatrixView(reinterpret_cast<const double*>(ptr), rows, cols);
  else return Status(StatusCode::invalid_argument, std::string(what) + " must be float32 or float64");
  return Status::success();
}

inline const double* doubles(std::uintptr_t ptr) { return reinterpret_cast<const double*>(ptr); }
inline double* doubles_out(std::uintptr_t ptr) { return reinterpret_cast<double*>(ptr); }
inline const std::uint8_t* bytes(std::uintptr_t ptr) { return reinterpret_cast<const std::uint8_t*>(ptr); }

// A JS typed-array copy (Float64Array, Uint8Array, Uint32Array, ...) of n values.
template <class T>
val copy_out(const T* data, std::size_t n) {
  return val(emscripten::typed_memory_view(n, data)).call<val>("slice");
}

template <class T>
val copy_out(const std::vector<T>& v) {
  return copy_out(v.data(), v.size());
}

// A JS array of the given values (strings, numbers or registered structs).
template <class T>
val array_of(const std::vector<T>& items) {
  val out = val::array();
  for (const T& item : items) out.call<void>("push", item);
  return out;
}

// The strings of a JS array of strings.
inline std::vector<std::string> strings_of(const val& list) { return emscripten::vecFromJSArray<std::string>(list); }

// The JS `progress(done, total)` when it is a function (returning false cancels), else none.
inline ProgressCallback progress_from(const val& progress) {
  if (progress.typeOf().as<std::string>() != "function") return {};
  return [progress](std::size_t done, std::size_t total) { return progress(double(done), double(total)).as<bool>(); };
}

// ---- hyperparameter optimisation ----
// What the classifiers' optimize() report (binary and softmax alike): each run's best log marginal
// likelihood, the best run's iterations, the log marginal likelihood at the start and whether it converged.
struct OptimizeRunsReport : BindingStatus {
  val runValues = val::null();  // Float64Array: each run's best log marginal likelihood
  double iterations = 0, startLogMarginalLikelihood = 0;
  double logPrior = 0;  // the log prior at the optimum (0 without a prior: maximum likelihood)
  bool converged = false;
};

// Settings' restarts, seed and maxIterations (at least 1) into the core's options (any struct with
// restarts, seed, max_iterations), each refused by name.
template <class Settings, class Options>
Status optimizer_counts(const Settings& s, Options* options) {
  for (const Status& checked :
       {count_argument("restarts", s.restarts, &options->restarts), seed_argument("seed", s.seed, &options->seed),
        count_argument("maxIterations", s.maxIterations, &options->max_iterations)}) {
    GPPROBE_RETURN_IF_ERROR(checked);
  }
  if (options->max_iterations < 1)
    return Status(StatusCode::invalid_argument, "maxIterations must be at least 1, got 0");
  return Status::success();
}

// The report of a finished fit (any struct with run_values, iterations, start_log_marginal_likelihood, log_prior,
// converged).
template <class Report, class Fit>
Report optimize_runs_report(const Fit& fit) {
  Report r;
  r.runValues = copy_out(fit.run_values);
  r.iterations = double(fit.iterations);
  r.startLogMarginalLikelihood = fit.start_log_marginal_likelihood;
  r.logPrior = fit.log_prior;
  r.converged = fit.converged;
  return r;
}

// Registers Report (derived from OptimizeRunsReport) under `name`.
template <class Report>
void optimize_runs_result(const char* name) {
  static_assert(std::is_base_of_v<OptimizeRunsReport, Report>, "an optimize report derives from OptimizeRunsReport");
  result_object<Report>(name, [](auto& o) {
    o.field("runValues", &OptimizeRunsReport::runValues)
        .field("iterations", &OptimizeRunsReport::iterations)
        .field("startLogMarginalLikelihood", &OptimizeRunsReport::startLogMarginalLikelihood)
        .field("logPrior", &OptimizeRunsReport::logPrior)
        .field("converged", &OptimizeRunsReport::converged);
  });
}

// ---- kernels ----

// A kernel as a value: `name` a named kernel ("rbf", "locally-periodic", named_kernels.h) or a kernel
// expression (kernel_expression.h) giving its form, and its parameter values by their names (doubles,
// taken bit for bit; a parameter not named keeps the form's value).
struct KernelValue {
  std::string name;
  val parameters = val::array();  // string[]
  val values = val::array();      // Float64Array (or number[])
};

Result<Kernel> kernel_of(const KernelValue& value);
// The kernel's form `name` with every parameter of `kernel` by name.
KernelValue kernel_value(const std::string& name, const Kernel& kernel);

}  // namespace gpprobe::wasm
