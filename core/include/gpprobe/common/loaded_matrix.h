// A matrix read from a file, kept in the precision it was stored in (float32 embeddings stay float32):
// what the probe file reader (gpprobe/probe/probe_file.h) and the CLI's matrix readers return.
#pragma once

#include <cstddef>
#include <vector>

#include "gpprobe/common/matrix_view.h"

namespace gpprobe {

struct LoadedMatrix {
  std::vector<float> float32;   // used when type == float32
  std::vector<double> float64;  // used when type == float64
  ScalarType type = ScalarType::float64;
  std::size_t rows = 0;
  std::size_t cols = 0;

  MatrixView view() const {
    return type == ScalarType::float32 ? MatrixView(float32.data(), rows, cols)
                                       : MatrixView(float64.data(), rows, cols);
  }
};

}  // namespace gpprobe
