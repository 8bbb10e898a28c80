// Described results (gpprobe/common/fields.h) as Python values: a described struct becomes a dict keyed by
// its fields' names (snake_case, as the core spells them), with
//   double -> float   integers -> int   bool -> bool   std::string, enum name -> str
//   std::vector<double> -> a numpy array (a copy)   std::vector of integers -> list of int
//   std::vector<std::string> -> list of str          std::vector of described structs -> list of dicts
//   GPPROBE_LIST -> list of float
// A binding that shapes a result further (a matrix, the CLI's words) starts from py_value(result).
#pragma once

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "gpprobe/common/fields.h"

namespace gpprobe::python {

namespace py = pybind11;

template <class T>
py::object py_value(const T& value);

template <class T>
py::object py_value(const std::vector<T>& values) {
  if constexpr (std::is_same_v<T, double>) {
    py::array_t<double> out(py::ssize_t(values.size()));
    std::copy(values.begin(), values.end(), out.mutable_data());
    return std::move(out);
  } else {
    py::list out;
    for (const T& v : values) out.append(py_value(v));
    return std::move(out);
  }
}

template <class T>
py::object py_value(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return py::bool_(value);
  } else if constexpr (std::is_floating_point_v<T>) {
    return py::float_(double(value));
  } else if constexpr (std::is_integral_v<T>) {
    return py::int_(value);
  } else if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, const char*>) {
    return py::str(std::string(value));
  } else {
    static_assert(is_described<T>::value, "a result field is a number, a string, a vector or a described struct");
    py::dict out;
    fields::for_each_shown<T>([&](const auto& f) {
      if constexpr (std::is_same_v<std::decay_t<decltype(f)>, fields::List<T>>) {
        py::list items;
        for (double v : f.of(value)) items.append(py::float_(v));
        out[f.name] = std::move(items);
      } else {
        out[f.name] = py_value(f.of(value));  // indices: a list
      }
    });
    return std::move(out);
  }
}

// A described struct as a dict.
template <class T>
py::dict py_dict(const T& value) {
  return py_value(value).template cast<py::dict>();
}

}  // namespace gpprobe::python
