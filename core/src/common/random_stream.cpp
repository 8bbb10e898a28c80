#include "gpprobe/common/random_stream.h"

namespace gpprobe {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t derive_seed(std::uint64_t seed, std::initializer_list<std::uint64_t> parts) {
  std::uint64_t h = seed;
  for (std::uint64_t part : parts) h = splitmix64(h ^ splitmix64(part + 1));
  return h;
}

}  // namespace gpprobe
