// A seeded stream of uniform and standard normal numbers that is the same on every platform:
// std::mt19937_64 (fully specified by the standard) with uniforms from its top 53 bits and a
// hand-written Box-Muller transform. std::normal_distribution is not used because libstdc++ and
// libc++ (the wasm build) implement it differently; with this stream native and wasm draw the same
// numbers up to the last bit of libm's log/sin/cos.
//
//   uniform()  in [0, 1)
//   normal()   N(0, 1); pairs come from one Box-Muller step, the second is kept for the next call
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace gpprobe {

class NormalStream {
 public:
  explicit NormalStream(std::uint64_t seed) : engine_(seed) {}

  double uniform() { return double(engine_() >> 11) * 0x1.0p-53; }  // [0, 1) on 53 bits

  // Uniform in [lower, upper).
  double uniform(double lower, double upper) { return lower + (upper - lower) * uniform(); }

  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    constexpr double kTwoPi = 6.283185307179586;
    const double u1 = 1.0 - uniform();  // (0, 1]: log(u1) is finite
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
