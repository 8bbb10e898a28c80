// The header of a NumPy .npy file (versions 1-3), parsed without trusting a byte of it:
//
//   "\x93NUMPY" major minor  header_len (2 bytes in v1, 4 in v2/v3, little-endian)
//   {'descr': '<f4', 'fortran_order': False, 'shape': (n, d), }   padded with spaces, ended by '\n'
//
// The dict is read by a small parser of exactly these Python literals (strings, True/False, tuples of
// non-negative integers), so a shape like (1.5, 2), (-1, 3) or ('', 4), a dtype '<f99999999999999999999'
// or an entry of 25 digits is a parse_error naming the file and the field, never an exception.
// Headers longer than kMaxNpyHeaderBytes are refused (numpy's own writer stays far below it).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpprobe/common/status.h"

namespace gpprobe::cli {

constexpr std::size_t kMaxNpyHeaderBytes = 65536;

struct NpyHeader {
  std::string descr;         // e.g. "<f4", "|b1", ">i8"
  char kind = 0;             // 'f' float, 'i' signed, 'u' unsigned, 'b' bool
  std::size_t itemsize = 0;  // 1, 2, 4 or 8 (f: 4 or 8; b: 1)
  bool swap_bytes = false;   // stored big-endian
  bool fortran_order = false;
  std::vector<std::size_t> shape;
  std::size_t data_offset = 0;  // where the array's bytes start in the file
};

// Parses the first `size` bytes of a file (at least up to the end of the header); `name` leads every
// message: "x.npy: the .npy header's shape (1.5, 2) is not a tuple of non-negative integers".
gpprobe::Result<NpyHeader> parse_npy_header(const unsigned char* bytes, std::size_t size, const std::string& name);

// "(3, 4)", "(5,)": a shape as numpy prints it.
std::string shape_text(const std::vector<std::size_t>& shape);

}  // namespace gpprobe::cli
