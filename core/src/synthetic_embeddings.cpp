#include "gpprobe/synthetic_embeddings.h"

#include <cmath>
#include <random>

namespace gpprobe {

namespace {

constexpr double kTwoPi = 6.283185307179586;

class NormalStream {
 public:
  explicit NormalStream(std::uint64_t seed) : engine_(seed) {}
  double uniform() { return double(engine_() >> 11) * 0x1.0p-53; }  // [0, 1) on 53 bits
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1.0 - uniform();  // (0, 1]
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    spare_ = r * std::sin(kTwoPi * u2);
    has_spare_ = true;
    return r * std::cos(kTwoPi * u2);
  }

 private:
  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace

SyntheticEmbeddings synthetic_embeddings(std::size_t rows, std::size_t dimension, std::uint64_t seed,
                                         double separation) {
  NormalStream rng(seed);
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
