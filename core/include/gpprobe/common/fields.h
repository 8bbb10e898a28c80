// One description per result: the fields a result struct shows to the other faces, listed once next to
// the struct, by the member's own name. Every face reads the same list:
//
//   wasm/described_values.h             Embind registration: the struct crosses to JavaScript as an object
//                                       whose keys are the camelCase of these names
//   python/src/described.h              the Python dict, keyed by these names (snake_case, as here)
//   wasm/declarations/ts_declarations.h the TypeScript interfaces of wasm/gpprobe.d.mts, printed by the
//                                       native target gpprobe_declarations and checked byte for byte by
//                                       tests/core/common/result_declarations_test.cpp
//
// A description, in the struct's namespace after the struct:
//
//   GPPROBE_DESCRIBE(DrawnComparison, "DrawnComparisonValue",
//                    GPPROBE_NAMED(mode, kDrawModeNames),   // an enum, shown by its name in the table
//                    GPPROBE_FIELD(draws), GPPROBE_FIELD(probes), ...);
//
// The second argument is the name of the TypeScript interface. Each member appears once, in one of these:
//   GPPROBE_FIELD(m)            shown as it is: numbers, bools, strings, vectors of them, described structs
//                               and vectors of them
//   GPPROBE_NAMED(m, table)     an enum shown by its name in an EnumNames table (enum_names.h)
//   GPPROBE_INDICES(m)          row indices (std::vector<std::size_t>): Uint32Array in JS, list of int
//   GPPROBE_LIST(m)             a std::vector<double> shown as a plain list: number[] in JS, list of float
//                               (a short table, e.g. a default's values, rather than a column of results)
//   GPPROBE_COVERED(m)          shown through GPPROBE_COMPUTED fields, or not shown (say why beside it)
// and GPPROBE_COMPUTED("name", function) adds a field computed from the struct (a function or a lambda
// without captures taking `const T&`).
//
// GPPROBE_DESCRIBE fails to compile when the struct has more members than its description lists (a member
// added to the struct and not here): the struct must be an aggregate, and its members are counted by
// aggregate initialisation. Nothing else has to be written for a new member to reach JS, TS and Python.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpprobe/common/enum_names.h"

namespace gpprobe {

// Specialised by GPPROBE_DESCRIBE: `name` (the TS interface), `type` (the struct's name) and `fields` (a
// tuple of the kinds below).
template <class T>
struct Description;

template <class T, class = void>
struct is_described : std::false_type {};
template <class T>
struct is_described<T, std::void_t<decltype(Description<T>::fields)>> : std::true_type {};

namespace fields {

// A member shown as it is.
template <class S, class M>
struct Member {
  const char* name;
  M S::*member;
  const M& of(const S& s) const { return s.*member; }
};

// An enum member shown by its name.
template <class S, class E, std::size_t N>
struct Named {
  const char* name;
  E S::*member;
  const EnumNames<E, N>* names;
  const char* of(const S& s) const { return name_of(*names, s.*member); }
};

// Row indices (std::vector<std::size_t>) shown as indices: a Uint32Array in JavaScript, a list of int in Python.
template <class S>
struct Indices {
  const char* name;
  std::vector<std::size_t> S::*member;
  const std::vector<std::size_t>& of(const S& s) const { return s.*member; }
};

// A vector of doubles shown as a plain list (number[] in JavaScript, a list of float in Python), not as a
// typed array or a numpy array.
template <class S>
struct List {
  const char* name;
  std::vector<double> S::*member;
  const std::vector<double>& of(const S& s) const { return s.*member; }
};

// A member shown only through computed fields, or not at all.
template <class S, class M>
struct Covered {
  const char* name;
  M S::*member;
};

// A field computed from the struct.
template <class S, class V>
struct Computed {
  const char* name;
  V (*get)(const S&);
  V of(const S& s) const { return get(s); }
};

template <class F>
struct is_covered : std::false_type {};
template <class S, class M>
struct is_covered<Covered<S, M>> : std::true_type {};
template <class F>
struct is_computed : std::false_type {};
template <class S, class V>
struct is_computed<Computed<S, V>> : std::true_type {};

template <class S, class M>
constexpr Member<S, M> member(const char* name, M S::*m) {
  return {name, m};
}
template <class S, class E, std::size_t N>
constexpr Named<S, E, N> named(const char* name, E S::*m, const EnumNames<E, N>& names) {
  return {name, m, &names};
}
template <class S>
constexpr Indices<S> indices(const char* name, std::vector<std::size_t> S::*m) {
  return {name, m};
}
template <class S>
constexpr List<S> list(const char* name, std::vector<double> S::*m) {
  return {name, m};
}
template <class S, class M>
constexpr Covered<S, M> covered(const char* name, M S::*m) {
  return {name, m};
}
template <class S, class V>
constexpr Computed<S, V> computed(const char* name, V (*get)(const S&)) {
  return {name, get};
}

// ---- counting an aggregate's members ----

// Converts to any member type (declared only: used in unevaluated contexts).
struct AnyMember {
  template <class T>
  operator T() const;
};

template <class T, class Sequence, class = void>
struct initializable_from : std::false_type {};
template <class T, std::size_t... I>
struct initializable_from<T, std::index_sequence<I...>, std::void_t<decltype(T{(void(I), AnyMember{})...})>>
    : std::true_type {};

// The number of members of the aggregate T: the most initializers T{...} takes (counted down from 64, so
// that a member with no default, e.g. a Kernel, which makes every shorter T{...} fail, is counted too).
template <class T, std::size_t N = 64>
constexpr std::size_t member_count() {
  if constexpr (N == 0 || initializable_from<T, std::make_index_sequence<N>>::value) return N;
  else return member_count<T, N - 1>();
}

// The members a description lists (every kind but the computed fields).
template <class Tuple, std::size_t... I>
constexpr std::size_t listed_members(std::index_sequence<I...>) {
  return (std::size_t(0) + ... + std::size_t(!is_computed<std::tuple_element_t<I, Tuple>>::value));
}

constexpr bool same_name(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

// No member listed twice (so that the count below means every member is listed once), and no name shown
// twice (a computed field may take the name of a covered member it replaces).
template <class T>
constexpr bool distinct_names() {
  constexpr auto listed = std::apply(
      [](const auto&... f) {
        return std::array<const char*, sizeof...(f)>{(is_computed<std::decay_t<decltype(f)>>::value ? "" : f.name)...};
      },
      Description<T>::fields);
  constexpr auto shown = std::apply(
      [](const auto&... f) {
        return std::array<const char*, sizeof...(f)>{(is_covered<std::decay_t<decltype(f)>>::value ? "" : f.name)...};
      },
      Description<T>::fields);
  for (std::size_t i = 0; i < listed.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if ((*listed[i] && same_name(listed[i], listed[j])) || (*shown[i] && same_name(shown[i], shown[j]))) return false;
  return true;
}

template <class T>
constexpr bool complete() {
  using Tuple = std::remove_cv_t<decltype(Description<T>::fields)>;
  return std::is_aggregate_v<T> && distinct_names<T>() &&
         listed_members<Tuple>(std::make_index_sequence<std::tuple_size_v<Tuple>>()) == member_count<T>();
}

// Calls f(field) for each field of T's description that is shown (every kind but Covered).
template <class T, class F>
void for_each_shown(F&& f) {
  std::apply(
      [&](const auto&... field) {
        auto one = [&](const auto& x) {
          if constexpr (!is_covered<std::decay_t<decltype(x)>>::value) f(x);
        };
        (one(field), ...);
      },
      Description<T>::fields);
}

// "loo_auroc_lower" -> "looAurocLower": the JavaScript name of a field.
inline std::string camel_case(const char* name) {
  std::string out;
  bool upper = false;
  for (const char* c = name; *c; ++c) {
    if (*c == '_') {
      upper = true;
    } else {
      out += upper && *c >= 'a' && *c <= 'z' ? char(*c - 'a' + 'A') : *c;
      upper = false;
    }
  }
  return out;
}

}  // namespace fields
}  // namespace gpprobe

// Inside GPPROBE_DESCRIBE, `Described` is the struct described.
#define GPPROBE_FIELD(m) ::gpprobe::fields::member(#m, &Described::m)
#define GPPROBE_NAMED(m, table) ::gpprobe::fields::named(#m, &Described::m, table)
#define GPPROBE_INDICES(m) ::gpprobe::fields::indices(#m, &Described::m)
#define GPPROBE_LIST(m) ::gpprobe::fields::list(#m, &Described::m)
#define GPPROBE_COVERED(m) ::gpprobe::fields::covered(#m, &Described::m)
#define GPPROBE_COMPUTED(name, ...) ::gpprobe::fields::computed<Described>(name, +__VA_ARGS__)

#define GPPROBE_DESCRIBE(Type, ts_name, ...)                                                                 \
  template <>                                                                                                \
  struct Description<Type> {                                                                                 \
    using Described = Type;                                                                                  \
    static constexpr const char* name = ts_name;                                                             \
    static constexpr const char* type = #Type;                                                               \
    static constexpr auto fields = std::make_tuple(__VA_ARGS__);                                             \
  };                                                                                                         \
  static_assert(::gpprobe::fields::complete<Type>(),                                                         \
                #Type " has a member its description does not list once: list it in GPPROBE_DESCRIBE(" #Type \
                      ", ...) (gpprobe/common/fields.h)")
