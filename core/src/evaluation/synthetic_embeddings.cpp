#include "gpprobe/evaluation/synthetic_embeddings.h"

#include <cmath>

#include "gpprobe/common/random_stream.h"

namespace gpprobe {

SyntheticEmbeddings synthetic_embeddings(std::size_t rows, std::size_t dimension, std::uint64_t seed,
                                         double separation) {
  RandomStream rng(seed);
  const Eigen::Index d = Eigen::Index(dimension);
  Eigen::VectorXd direction(d);
  for (Eigen::Index j = 0; j < d; ++j) direction[j] = rng.normal();
  if (d > 0) direction /= direction.norm();

  SyntheticEmbeddings out;
  out.x.resize(Eigen::Index(rows), d);
  out.labels.resize(rows);
  const double noise_scale = d > 0 ? 1.0 / std::sqrt(double(d)) : 0.0;
  for (std::size_t i = 0; i < rows; ++i) {
    const std::uint8_t y = rng.uniform() < 0.5 ? 1 : 0;
    out.labels[i] = y;
    const double shift = (2.0 * y - 1.0) * 0.5 * separation;
    for (Eigen::Index j = 0; j < d; ++j) {
      out.x(Eigen::Index(i), j) = shift * direction[j] + noise_scale * rng.normal();
    }
  }
  return out;
}

}  // namespace gpprobe
