// Reader for NumPy's .npy format (versions 1-3): the header (npy_header.h), then the raw data.
// The data size is shape product times itemsize, each product checked for overflow and the total
// checked against the bytes the file holds before anything is allocated for it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpprobe/common/status.h"

#include "readers/npy_header.h"

namespace gpprobe::cli {

struct NpyArray : NpyHeader {
  std::vector<unsigned char> data;  // exactly size() * itemsize bytes

  std::size_t size() const;
  // Element `index` (C order) as double, for any kind/itemsize accepted by read_npy.
  double value(std::size_t index) const;
};

// Errors are parse_error / io_error / out_of_memory with messages starting with `path`.
gpprobe::Result<NpyArray> read_npy(const std::string& path);

// The same from a file's bytes already in memory (consumed); `name` stands for the file in messages.
gpprobe::Result<NpyArray> parse_npy(std::vector<unsigned char> bytes, const std::string& name);

}  // namespace gpprobe::cli
