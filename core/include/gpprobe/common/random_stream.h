// A seeded random stream that gives the same numbers on every platform: std::mt19937_64 (whose output
// the C++ standard fixes bit for bit) with our own mappings. The library's distributions
// (std::normal_distribution, std::uniform_int_distribution, ...) are not used: libstdc++ (native)
// and libc++ (wasm) implement them differently.
//
//   uniform()   (x >> 11) * 2^-53                    in [0, 1), 53 random bits
//   index(n)    floor(uniform() * n)                 in [0, n), n >= 1 (bias below 2^-53 * n)
//   normal()    Box-Muller, pairs from one step      N(0, 1) (only libm's log/sin/cos may differ in the last bit)
//   shuffle     Fisher-Yates from the back: swap(v[i], v[index(i + 1)]) for i = n-1 .. 1
//
// Streams for independent pieces of work (trial t, observation count O, ...) come from derive_seed,
// a splitmix64 chain over the parent seed and the indices, so runs can be split across calls.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <utility>
#include <vector>

namespace gpprobe {

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed) : engine_(seed) {}

  std::uint64_t next() { return engine_(); }
  double uniform() { return double(engine_() >> 11) * 0x1.0p-53; }
  // Uniform in [lower, upper).
  double uniform(double lower, double upper) { return lower + (upper - lower) * uniform(); }
  std::size_t index(std::size_t n) { return std::size_t(uniform() * double(n)); }

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

  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[index(i)]);
  }

 private:
  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

std::uint64_t splitmix64(std::uint64_t x);

// A child seed: h = seed; for each part h = splitmix64(h ^ splitmix64(part + 1)).
std::uint64_t derive_seed(std::uint64_t seed, std::initializer_list<std::uint64_t> parts);

}  // namespace gpprobe
