// The Python TypedDicts of the described results (gpprobe/common/fields.h), as python/src/described.h's
// py_dict gives them: a shown field under its own (snake_case) name, typed
//   float (double)   int (integers)   bool   str   Literal['a', 'b'] (an enum by its names table)
//   npt.NDArray[np.float64] (a vector of doubles)   List[int] (a vector of integers, GPPROBE_INDICES)
//   List[str]   XDict (a described struct)   List[XDict]   List[float] (GPPROBE_LIST)
// A TypedDict is named after the struct (Description<T>::type); the described structs inside a root are
// declared before it, each once. python/gpprobe/_gpprobe.pyi holds each root's TypedDicts between two marker
// lines; gpprobe_declarations rewrites them (`gpprobe_declarations --write python/gpprobe/_gpprobe.pyi`) and
// tests/core/common/result_declarations_test.cpp checks them byte for byte. Compiles natively.
#pragma once

#include <cstddef>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "gpprobe/common/fields.h"

#include "ts_declarations.h"

namespace gpprobe::declarations::py {

template <class T>
struct PyType;

template <class T>
std::string py_type() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_floating_point_v<T>) return "float";
  else if constexpr (std::is_integral_v<T>) return "int";
  else if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, const char*>) return "str";
  else return PyType<T>::name();
}

template <class T>
struct PyType<std::vector<T>> {
  static std::string name() {
    if constexpr (std::is_same_v<T, double>) return "npt.NDArray[np.float64]";
    else return "List[" + py_type<T>() + "]";
  }
};

template <class T>
struct PyType {
  static_assert(is_described<T>::value, "a result field is a number, a string, a vector or a described struct");
  static std::string name() { return Description<T>::type; }
};

template <class S, class M>
std::string field_type(const fields::Member<S, M>&) {
  return py_type<M>();
}
template <class S, class E, std::size_t N>
std::string field_type(const fields::Named<S, E, N>& f) {
  std::string out = "Literal[";
  for (std::size_t i = 0; i < N; ++i) out += (i ? ", '" : "'") + std::string((*f.names)[i].name) + "'";
  return out + "]";
}
template <class S>
std::string field_type(const fields::Indices<S>&) {
  return "List[int]";
}
template <class S>
std::string field_type(const fields::List<S>&) {
  return "List[float]";
}
template <class S, class V>
std::string field_type(const fields::Computed<S, V>&) {
  return py_type<V>();
}

template <class T>
void declare(std::ostream& out, std::set<std::string>& declared);

template <class T>
struct Nested {
  static void declare(std::ostream& out, std::set<std::string>& declared) {
    if constexpr (is_described<T>::value) py::declare<T>(out, declared);
  }
};
template <class T>
struct Nested<std::vector<T>> : Nested<T> {};

template <class S, class M>
void declare_field_types(std::ostream& out, std::set<std::string>& declared, const fields::Member<S, M>&) {
  Nested<M>::declare(out, declared);
}
template <class S, class V>
void declare_field_types(std::ostream& out, std::set<std::string>& declared, const fields::Computed<S, V>&) {
  Nested<V>::declare(out, declared);
}
template <class F>
void declare_field_types(std::ostream&, std::set<std::string>&, const F&) {}

// Declares T after the described structs its fields hold; `declared` holds the names already written.
template <class T>
void declare(std::ostream& out, std::set<std::string>& declared) {
  if (!declared.insert(Description<T>::type).second) return;
  fields::for_each_shown<T>([&](const auto& f) { declare_field_types(out, declared, f); });
  out << "\nclass " << Description<T>::type << "(TypedDict):\n";
  out << "    \"\"\"gpprobe::" << Description<T>::type << ": its header says what each field means.\"\"\"\n\n";
  fields::for_each_shown<T>([&](const auto& f) { out << "    " << f.name << ": " << field_type(f) << "\n"; });
}

// Each root of Roots (a std::tuple of described result types) in order, with its TypedDicts.
template <class Roots>
std::vector<Region> regions() {
  std::vector<Region> out;
  std::set<std::string> declared;
  std::apply(
      [&](auto... root) {
        auto one = [&](auto r) {
          using T = decltype(r);
          std::ostringstream text;
          py::declare<T>(text, declared);
          out.push_back({Description<T>::type, text.str() + "\n", "#"});
        };
        (one(root), ...);
      },
      Roots());
  return out;
}

}  // namespace gpprobe::declarations::py
