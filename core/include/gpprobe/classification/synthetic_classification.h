// Seeded synthetic data for GP classification benchmarks: a curved class boundary in the first two
// coordinates, the others pure nuisance,
//
//   x_i ~ N(0, I_d),   y_i = 1 if sin(2 x_i1) + 0.5 x_i2 + 0.3 e_i > 0 else 0,   e_i ~ N(0, 1)
//
// (for d = 1 the x_i2 term is absent), with the SE-ARD kernel the benchmark fits it with: s2 = 2 and
// every length-scale sqrt(d / 2) (so typical distances stay comparable as d grows). RandomStream makes
// the data the same in the native and the wasm build; the native bench also writes it to CSV for
// scikit-learn (scripts/bench/bench_gpc.mjs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/classification/common_form.h"
#include "gpprobe/common/matrix_view.h"

namespace gpprobe {

struct SyntheticClassification {
  RowMatrix x;                 // rows by dimension
  std::vector<double> labels;  // rows, 0 or 1
};

SyntheticClassification synthetic_classification(std::size_t rows, std::size_t dimension, std::uint64_t seed);

// s2 = 2, l_j = sqrt(d / 2) for j = 1..d.
SeArdKernel synthetic_classification_kernel(std::size_t dimension);

// The robustness paper's Synthetic2D (Blaas et al., App. F; the authors' generate_2d_synthetic_datasets):
// 600 points per class from N(0, I_2), class 1 shifted by 5 along the first coordinate and class 0 along
// the second, drawn in that order (class 1's 600 points, then class 0's, x_1 then x_2 for each point),
// standardised per column (mean 0, sample standard deviation 1), shuffled (RandomStream::shuffle of the
// row numbers, same stream); the first `train` rows train, the next `test` rows test.
struct SyntheticSplit {
  SyntheticClassification train, test;
};

// train + test <= 1200.
SyntheticSplit synthetic_2d_blobs(std::size_t train, std::size_t test, std::uint64_t seed);

}  // namespace gpprobe
