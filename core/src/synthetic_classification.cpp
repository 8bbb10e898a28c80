#include "gpprobe/synthetic_classification.h"

#include <cmath>

#include "gpprobe/random_stream.h"

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

}  // namespace gpprobe
