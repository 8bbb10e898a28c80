// The linear baselines' scoring loop (linear_scores, blocks of 256 rows widened to float64) against a naive
// dot product, at row counts below, at and across block boundaries and for float32 and float64 views. The
// mutation run's survivor here processed only the first block (first += 256 made -=): every test's queries
// fitted in one block (docs/hostile-inputs.md).
#include <cstddef>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/baselines/linear_probe.h"

#include "test_support.h"

namespace gpprobe {
namespace {

using testing::random_values;

template <class T>
void check_rows(std::size_t n, std::size_t d, std::mt19937& rng) {
  const auto values = random_values(n * d, rng), w = random_values(d, rng);
  const std::vector<T> queries(values.begin(), values.end());
  const double b = 0.375;
  std::vector<double> out(n, -99.0);
  linear_scores(MatrixView(queries.data(), n, d), w.data(), b, out.data());
  for (std::size_t i = 0; i < n; ++i) {
    double s = b;
    for (std::size_t j = 0; j < d; ++j) s += double(queries[i * d + j]) * w[j];
    ASSERT_NEAR(out[i], s, 1e-12) << n << " x " << d << ", row " << i;
  }
}

TEST(LinearScores, EveryRowOfEveryBlockMatchesTheDotProduct) {
  std::mt19937 rng(17);
  for (std::size_t n : {1u, 255u, 256u, 257u, 700u}) {
    for (std::size_t d : {1u, 5u, 33u}) {
      check_rows<double>(n, d, rng);
      check_rows<float>(n, d, rng);
    }
  }
}

}  // namespace
}  // namespace gpprobe
