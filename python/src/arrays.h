// What every binding of the Python module shares: numpy arrays in and out, and the core's Status as a
// Python exception. Bookkeeping only; the numbers are the core's.
//
// Matrices in. A 2-D float32 or float64 array that is C-contiguous, aligned and in native byte order is
// read in place (MatrixView over its buffer: no copy). Any other 2-D float32/float64 array (Fortran
// order, a strided slice, unaligned or byte-swapped) is copied once into a C-order array of the same
// precision, through numpy, because the core reads whole rows. Anything else is a TypeError (another
// dtype) or a ValueError (another number of dimensions), naming the input.
//
// Columns out. Float64 numpy arrays allocated before the GIL is released, written by the core.
//
// Errors. A Status that is not ok becomes
//   gpprobe.Error (a ValueError) for invalid_argument, dimension_mismatch, non_finite,
//                 numerical_failure and parse_error;
//   gpprobe.FileError (an OSError) for io_error; MemoryError for out_of_memory; RuntimeError otherwise;
// each with the core's message and `.code`, the StatusCode's name (as the wasm binding's JS errors carry).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"

namespace gpprobe::python {

namespace py = pybind11;

// Thrown by raise(); the module's exception translator turns it into the Python exception above.
class CoreError : public std::runtime_error {
 public:
  explicit CoreError(Status status) : std::runtime_error(status.message()), status_(std::move(status)) {}
  const Status& status() const { return status_; }

 private:
  Status status_;
};

// Throws CoreError unless `status` is ok.
inline void raise_if_failed(const Status& status) {
  if (!status.ok()) throw CoreError(status);
}

// Creates gpprobe._gpprobe.Error and FileError and registers the translator (once, at import).
void register_errors(py::module_& m);

// A matrix argument: the array read (the caller's, or its C-order copy) kept alive, and the view of it.
struct MatrixArgument {
  py::array array;
  MatrixView view;
  bool copied = false;  // whether the layout needed a copy
};

// `value` as a 2-D float32/float64 matrix named `what` in messages ("queries").
MatrixArgument matrix_argument(const py::handle& value, const char* what);

// A 1-D array of `what` ("labels") as 0/1 bytes: bool and uint8 arrays as they are (the core names a
// byte above 1), other numbers when each is exactly 0 or 1; ValueError "label 3 is 0.5; labels must be 0
// or 1" otherwise (the core's wording).
std::vector<std::uint8_t> label_argument(const py::handle& value, const char* what);

// A 1-D float64 array (numbers of any dtype are converted by numpy); ValueError naming `what` when the
// value is not one-dimensional.
py::array_t<double> vector_argument(const py::handle& value, const char* what);

// A new float64 array of n values (n by cols when cols > 0).
py::array_t<double> new_column(std::size_t n);
py::array_t<double> new_matrix(std::size_t rows, std::size_t cols);

}  // namespace gpprobe::python
