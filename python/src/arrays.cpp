#include "arrays.h"

#include <sstream>

#include "gpprobe/common/number_text.h"

namespace gpprobe::python {

namespace {

// The exception types, created once at import and kept for the life of the process.
PyObject* error_type = nullptr;
PyObject* file_error_type = nullptr;

PyObject* python_type(StatusCode code) {
  switch (code) {
    case StatusCode::io_error:
      return file_error_type;
    case StatusCode::out_of_memory:
      return PyExc_MemoryError;
    case StatusCode::cancelled:
    case StatusCode::internal_error:
    case StatusCode::ok:
      return PyExc_RuntimeError;
    default:
      return error_type;
  }
}

void set_python_error(const Status& status) {
  PyObject* type = python_type(status.code());
  py::object exception = py::reinterpret_borrow<py::object>(type)(status.message());
  exception.attr("code") = code_name(status.code());
  PyErr_SetObject(type, exception.ptr());
}

std::string dtype_text(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

[[noreturn]] void invalid(const std::string& message) {
  throw CoreError(Status(StatusCode::invalid_argument, message));
}

// `value` as a numpy array: arrays as they are, other sequences converted by numpy to float64.
py::array as_array(const py::handle& value, const char* what, const char* expected) {
  if (py::isinstance<py::array>(value)) return py::reinterpret_borrow<py::array>(value);
  py::array converted = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  if (!converted) {
    throw py::type_error(std::string(what) + " must be " + expected + ", got " +
                         py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>());
  }
  return converted;
}

void check_ndim(const py::array& a, const char* what, py::ssize_t ndim) {
  if (a.ndim() != ndim) {
    invalid(std::string(what) + ": expected ndim = " + std::to_string(ndim) +
            ", got ndim = " + std::to_string(a.ndim()));
  }
}

}  // namespace

void register_errors(py::module_& m) {
  error_type = PyErr_NewExceptionWithDoc(
      "gpprobe._gpprobe.Error",
      "A bad input or a failed computation, with the core's message; `code` is the status name "
      "(invalid_argument, dimension_mismatch, non_finite, numerical_failure, parse_error).",
      PyExc_ValueError, nullptr);
  file_error_type =
      PyErr_NewExceptionWithDoc("gpprobe._gpprobe.FileError",
                                "A file that could not be opened or read; `code` is io_error.", PyExc_OSError, nullptr);
  if (!error_type || !file_error_type) throw py::error_already_set();
  m.attr("Error") = py::reinterpret_borrow<py::object>(error_type);
  m.attr("FileError") = py::reinterpret_borrow<py::object>(file_error_type);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const CoreError& e) {
      set_python_error(e.status());
    }
  });
}

MatrixArgument matrix_argument(const py::handle& value, const char* what) {
  py::array a = as_array(value, what, "a 2-D float32 or float64 array");
  check_ndim(a, what, 2);
  const py::dtype dtype = a.dtype();
  const bool single = dtype.kind() == 'f' && dtype.itemsize() == 4;
  const bool doubles = dtype.kind() == 'f' && dtype.itemsize() == 8;
  if (!single && !doubles)
    throw py::type_error(std::string(what) + " must be float32 or float64, got " + dtype_text(a));
  const py::dtype native = single ? py::dtype::of<float>() : py::dtype::of<double>();
  MatrixArgument out;
  const int needed = py::array::c_style | py::detail::npy_api::NPY_ARRAY_ALIGNED_;
  if ((a.flags() & needed) == needed && dtype.equal(native)) {
    out.array = a;
  } else {
    out.array = py::module_::import("numpy").attr("ascontiguousarray")(a, native);
    out.copied = true;
  }
  const std::size_t rows = std::size_t(out.array.shape(0)), cols = std::size_t(out.array.shape(1));
  if (single) out.view = MatrixView(static_cast<const float*>(out.array.data()), rows, cols);
  else out.view = MatrixView(static_cast<const double*>(out.array.data()), rows, cols);
  return out;
}

std::vector<std::uint8_t> label_argument(const py::handle& value, const char* what) {
  py::array a = as_array(value, what, "a 1-D array of 0/1 labels");
  check_ndim(a, what, 1);
  const char kind = a.dtype().kind();
  const std::size_t n = std::size_t(a.shape(0));
  std::vector<std::uint8_t> labels(n);
  if (kind == 'b' || (kind == 'u' && a.dtype().itemsize() == 1)) {
    py::array_t<std::uint8_t> bytes = py::module_::import("numpy").attr("ascontiguousarray")(a, "uint8");
    std::copy(bytes.data(), bytes.data() + n, labels.begin());
    return labels;
  }
  if (kind != 'i' && kind != 'u' && kind != 'f') {
    throw py::type_error(std::string(what) + " must be numbers (0 or 1), got " + dtype_text(a));
  }
  py::array_t<double> values = py::module_::import("numpy").attr("ascontiguousarray")(a, "float64");
  for (std::size_t i = 0; i < n; ++i) {
    const double v = values.data()[i];
    if (v != 0.0 && v != 1.0)
      invalid("label " + std::to_string(i) + " is " + number_text(v) + "; labels must be 0 or 1");
    labels[i] = v == 1.0 ? 1 : 0;
  }
  return labels;
}

py::array_t<double> vector_argument(const py::handle& value, const char* what) {
  py::array a = as_array(value, what, "a 1-D array of numbers");
  check_ndim(a, what, 1);
  const char kind = a.dtype().kind();
  if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f') {
    throw py::type_error(std::string(what) + " must be numbers, got " + dtype_text(a));
  }
  return py::module_::import("numpy").attr("ascontiguousarray")(a, "float64");
}

py::array_t<double> new_column(std::size_t n) { return py::array_t<double>(py::ssize_t(n)); }

py::array_t<double> new_matrix(std::size_t rows, std::size_t cols) {
  return py::array_t<double>({py::ssize_t(rows), py::ssize_t(cols)});
}

}  // namespace gpprobe::python
