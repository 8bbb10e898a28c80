// Shared by the libFuzzer harnesses of tests/fuzz (built by scripts/test/fuzz.sh with clang, ASan and UBSan):
// decoding small structured inputs from the fuzzer's bytes, and invariants that abort with a message,
// so that a wrong number is a finding just like a crash.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace gpprobe::fuzz {

// Aborts (a libFuzzer finding) when an invariant does not hold.
inline void require(bool holds, const char* what, double value = 0.0) {
  if (holds) return;
  std::fprintf(stderr, "fuzz invariant violated: %s (%.17g)\n", what, value);
  std::abort();
}

// Reads numbers off the input; past its end every read returns zeros, so any input decodes.
class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  bool flag() { return byte() & 1; }
  // An integer in [lo, hi].
  std::size_t in_range(std::size_t lo, std::size_t hi) { return lo + byte() % (hi - lo + 1); }
  // Any double, NaN, Inf and subnormals included.
  double raw_double() {
    std::uint64_t bits = 0;
    for (int k = 0; k < 8; ++k) bits |= std::uint64_t(byte()) << (8 * k);
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  // Mostly ordinary values (sign * 10^[-3, 3]), sometimes any double: edge cases without drowning the
  // ordinary ones.
  double value() {
    const std::uint8_t kind = byte();
    if (kind < 16) return raw_double();
    const double magnitude = std::pow(10.0, double(byte()) / 255.0 * 6.0 - 3.0);
    return (kind & 1 ? -1.0 : 1.0) * magnitude * (kind & 2 ? 1.0 : double(byte()) / 255.0);
  }
  // A positive value log-uniform in [10^lo, 10^hi].
  double positive(double lo, double hi) {
    const double t = double(byte() | (std::uint32_t(byte()) << 8)) / 65535.0;
    return std::pow(10.0, lo + t * (hi - lo));
  }
  // The unread rest of the input.
  std::string rest() {
    std::string s(reinterpret_cast<const char*>(data_) + pos_, size_ - pos_);
    pos_ = size_;
    return s;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace gpprobe::fuzz
