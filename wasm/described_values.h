// Described results (gpprobe/common/fields.h) crossing to JavaScript: the core's own struct is returned,
// no copy struct is written. A field is shown under the camelCase of its name, as
//   numbers (double, integers) -> number         bool -> boolean            std::string, enum name -> string
//   std::vector of numbers -> Float64Array       std::vector<std::string> -> string[]
//   described struct -> object                   std::vector of described structs -> array of objects
//   GPPROBE_INDICES (row indices) -> Uint32Array     GPPROBE_LIST (a list of doubles) -> number[]
//   std::vector<std::uint8_t> -> Uint8Array
// (wasm/declarations/ts_declarations.h declares the same mapping in TypeScript).
//
//   Reply<T>: a described T returned by a binding, as {code, message, ...T's fields} (binding_support.h's
//   return convention); register it once with reply_object<T>() and return it from a binding as
//   reply(value) or failed<Reply<T>>(status).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "gpprobe/common/fields.h"

#include "binding_support.h"

namespace gpprobe::wasm {

template <class T>
val js_value(const T& value);

template <class T>
val js_value(const std::vector<T>& values) {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::uint8_t>) {
    return copy_out(values);
  } else if constexpr (std::is_arithmetic_v<T>) {
    return copy_out(std::vector<double>(values.begin(), values.end()));
  } else {
    val out = val::array();
    for (const T& v : values) out.call<void>("push", js_value(v));
    return out;
  }
}

// The JS names of T's shown fields, in the description's order (made once).
template <class T>
const std::vector<std::string>& js_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    fields::for_each_shown<T>([&](const auto& f) { out.push_back(fields::camel_case(f.name)); });
    return out;
  }();
  return names;
}

// Row indices: a Uint32Array.
inline val js_indices(const std::vector<std::size_t>& rows) {
  return copy_out(std::vector<std::uint32_t>(rows.begin(), rows.end()));
}

template <class S, class F>
val js_field(const F& f, const S& s) {
  if constexpr (std::is_same_v<F, fields::Indices<S>>) return js_indices(f.of(s));
  else if constexpr (std::is_same_v<F, fields::List<S>>) return array_of(f.of(s));
  else return js_value(f.of(s));
}

template <class T>
val js_value(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return val(value);
  } else if constexpr (std::is_arithmetic_v<T>) {
    return val(double(value));
  } else if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, const char*>) {
    return val(std::string(value));
  } else {
    static_assert(is_described<T>::value, "a result field is a number, a string, a vector or a described struct");
    val out = val::object();
    std::size_t i = 0;
    fields::for_each_shown<T>([&](const auto& f) { out.set(js_names<T>()[i++], js_field(f, value)); });
    return out;
  }
}

template <class T>
struct Reply : BindingStatus {
  T value{};
};

template <class T>
Reply<T> reply(T value) {
  Reply<T> r;
  r.value = std::move(value);
  return r;
}

namespace detail {

template <class T, std::size_t I>
val reply_field(const Reply<T>& r) {
  return js_field(std::get<I>(Description<T>::fields), r.value);
}

// Results travel from C++ to JavaScript only: a reply given back to a binding is not read.
template <class T, std::size_t I>
void ignore_field(Reply<T>&, val) {}

template <class T, class Object, std::size_t... I>
void reply_fields(Object& object, std::index_sequence<I...>) {
  auto one = [&](auto index) {
    constexpr std::size_t k = decltype(index)::value;
    using F = std::decay_t<std::tuple_element_t<k, std::remove_cv_t<decltype(Description<T>::fields)>>>;
    if constexpr (!fields::is_covered<F>::value) {
      static const std::string name = fields::camel_case(std::get<k>(Description<T>::fields).name);
      object.field(name.c_str(), &reply_field<T, k>, &ignore_field<T, k>);
    }
  };
  (one(std::integral_constant<std::size_t, I>()), ...);
}

}  // namespace detail

// Registers Reply<T> under T's description name: code, message, then T's shown fields.
template <class T>
void reply_object() {
  emscripten::value_object<Reply<T>> object(Description<T>::name);
  object.field("code", &BindingStatus::code).field("message", &BindingStatus::message);
  detail::reply_fields<T>(
      object, std::make_index_sequence<std::tuple_size_v<std::remove_cv_t<decltype(Description<T>::fields)>>>());
}

}  // namespace gpprobe::wasm
