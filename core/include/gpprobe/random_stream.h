// A seeded random stream that gives the same numbers on every platform: std::mt19937_64 (whose output
// the C++ standard fixes bit for bit) with our own mappings to indices and uniforms. The library's
// distributions (std::uniform_int_distribution, ...) are not used: libstdc++ and libc++ (wasm) differ.
//
//   uniform()   (x >> 11) * 2^-53                    in [0, 1), 53 random bits
//   index(n)    floor(uniform() * n)                 in [0, n), n >= 1 (bias below 2^-53 * n)
//   shuffle     Fisher-Yates from the back: swap(v[i], v[index(i + 1)]) for i = n-1 .. 1
//
// Streams for independent pieces of work (trial t, observation count O, ...) come from derive_seed,
// a splitmix64 chain over the parent seed and the indices, so runs can be split across calls.
#pragma once

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
  std::size_t index(std::size_t n) { return std::size_t(uniform() * double(n)); }

  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[index(i)]);
  }

 private:
  std::mt19937_64 engine_;
};

// splitmix64 finaliser of x (Steele, Lea & Flood 2014).
std::uint64_t splitmix64(std::uint64_t x);

// A child seed: h = seed; for each part h = splitmix64(h ^ splitmix64(part + 1)).
std::uint64_t derive_seed(std::uint64_t seed, std::initializer_list<std::uint64_t> parts);

}  // namespace gpprobe
