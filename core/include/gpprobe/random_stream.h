// Seeded random numbers that are the same on every platform: std::mt19937_64 is fully specified by
// the standard, while std::normal_distribution and std::uniform_int_distribution differ between
// libstdc++ (native) and libc++ (wasm). So uniforms are taken from the top 53 bits and normals by a
// hand-written Box-Muller; only libm's log/sin/cos may differ in the last bit.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace gpprobe {

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed) : engine_(seed) {}

  // Uniform on [0, 1), 53 random bits.
  double uniform() { return double(engine_() >> 11) * 0x1.0p-53; }

  // Uniform in [lower, upper).
  double uniform(double lower, double upper) { return lower + (upper - lower) * uniform(); }

  // Uniform integer in [0, n) for 0 < n <= 2^32: floor(n u) with 53-bit u, bias below n / 2^53.
  std::uint64_t below(std::uint64_t n) { return std::uint64_t(uniform() * double(n)); }

  // Standard normal.
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    constexpr double kTwoPi = 6.283185307179586;
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

}  // namespace gpprobe
