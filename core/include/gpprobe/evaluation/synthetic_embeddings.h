// Seeded synthetic embeddings for benchmarks and smoke data: two Gaussian classes in d dimensions,
//
//   y_i ~ Bernoulli(1/2),   x_i = (2 y_i - 1) (separation / 2) c + z_i / sqrt(d),   z_i ~ N(0, I),
//
// with c a fixed random unit direction. RandomStream makes the data the same on every platform (up to
// the last bit of libm's log/cos), so native and wasm time the same work.
#pragma once

#include <cstdint>
#include <vector>

#include "gpprobe/common/matrix_view.h"

namespace gpprobe {

struct SyntheticEmbeddings {
  RowMatrix x;                       // rows by dimension
  std::vector<std::uint8_t> labels;  // rows
};

SyntheticEmbeddings synthetic_embeddings(std::size_t rows, std::size_t dimension, std::uint64_t seed,
                                         double separation = 1.0);

}  // namespace gpprobe
