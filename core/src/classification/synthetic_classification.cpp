#include "gpprobe/classification/synthetic_classification.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "gpprobe/common/random_stream.h"

namespace gpprobe {

SyntheticClassification synthetic_classification(std::size_t rows, std::size_t dimension, std::uint64_t seed) {
  RandomStream rng(seed);
  SyntheticClassification out;
  out.x.resize(Eigen::Index(rows), Eigen::Index(dimension));
  out.labels.resize(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < dimension; ++j) out.x(Eigen::Index(i), Eigen::Index(j)) = rng.normal();
    const double second = dimension > 1 ? out.x(Eigen::Index(i), 1) : 0.0;
    const double score = std::sin(2.0 * out.x(Eigen::Index(i), 0)) + 0.5 * second + 0.3 * rng.normal();
    out.labels[i] = score > 0.0 ? 1.0 : 0.0;
  }
  return out;
}

SeArdKernel synthetic_classification_kernel(std::size_t dimension) {
  return {2.0, std::vector<double>(dimension, std::sqrt(0.5 * double(dimension)))};
}

SyntheticSplit synthetic_2d_blobs(std::size_t train, std::size_t test, std::uint64_t seed) {
  constexpr std::size_t kPerClass = 600, kRows = 2 * kPerClass;
  RandomStream rng(seed);
  RowMatrix x(Eigen::Index(kRows), 2);
  std::vector<double> labels(kRows);
  for (std::size_t i = 0; i < kRows; ++i) {
    const bool first_class = i < kPerClass;
    x(Eigen::Index(i), 0) = rng.normal() + (first_class ? 5.0 : 0.0);
    x(Eigen::Index(i), 1) = rng.normal() + (first_class ? 0.0 : 5.0);
    labels[i] = first_class ? 1.0 : 0.0;
  }
  for (Eigen::Index j = 0; j < 2; ++j) {
    const double mean = x.col(j).mean();
    const double sd = std::sqrt((x.col(j).array() - mean).square().sum() / double(kRows - 1));
    x.col(j) = (x.col(j).array() - mean) / sd;
  }
  std::vector<std::size_t> order(kRows);
  std::iota(order.begin(), order.end(), std::size_t(0));
  rng.shuffle(order);
  const auto take = [&](std::size_t first, std::size_t count) {
    SyntheticClassification part;
    part.x.resize(Eigen::Index(count), 2);
    part.labels.resize(count);
    for (std::size_t r = 0; r < count; ++r) {
      part.x.row(Eigen::Index(r)) = x.row(Eigen::Index(order[first + r]));
      part.labels[r] = labels[order[first + r]];
    }
    return part;
  };
  const std::size_t n = std::min(train, kRows);
  return {take(0, n), take(n, std::min(test, kRows - n))};
}

}  // namespace gpprobe
