// Reader for NumPy's .npy format (versions 1-3): magic "\x93NUMPY", a little-endian header length,
// a Python dict header {'descr': '<f4', 'fortran_order': False, 'shape': (n, d)}, then raw data.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpprobe/status.h"

namespace gpprobe::cli {

struct NpyArray {
  std::string descr;       // e.g. "<f4", "|b1", ">i8"
  char kind = 0;           // 'f' float, 'i' signed, 'u' unsigned, 'b' bool
  std::size_t itemsize = 0;
  bool swap_bytes = false;  // stored big-endian
  bool fortran_order = false;
  std::vector<std::size_t> shape;
  std::vector<unsigned char> data;

  std::size_t size() const;
  // Element `index` (C order) as double, for any kind/itemsize accepted by read_npy.
  double value(std::size_t index) const;
};

// Errors are parse_error / io_error with messages starting with `path`.
gpprobe::Result<NpyArray> read_npy(const std::string& path);

}  // namespace gpprobe::cli
