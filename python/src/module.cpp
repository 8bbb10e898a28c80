// gpprobe._gpprobe: the C++ core for Python. The package gpprobe (python/gpprobe/) wraps these handles
// in Python's conventions; see docs/python.md.
#include <pybind11/pybind11.h>

#include "gpprobe/linalg/row_products.h"

#include "arrays.h"
#include "bindings.h"

PYBIND11_MODULE(_gpprobe, m) {
  m.doc() = "The gpprobe core (C++): probe, certify, leave-one-out, GP classification and regression.";
  gpprobe::python::register_errors(m);
  gpprobe::python::register_probe(m);
  gpprobe::python::register_models(m);
  gpprobe::python::register_compare(m);
  gpprobe::python::register_evaluation(m);
  m.attr("row_products_backend") = gpprobe::row_products_backend();
}
