// The native build's compiler flags give the code the language defines. Debian's GCC 12.2 with -mavx512f
// (turned on by -march=native on a CPU with AVX-512) at -O2 and above built std::vector<std::size_t>{3, 3,
// 3, 0} as {3, 3, 3, 3}; CMakeLists.txt turns AVX-512 off where the compiler does that. These lists are
// built in a file compiled with the core's flags, as every test is.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace {

TEST(Toolchain, InitializerListsOfSizesKeepEveryValue) {
  const std::vector<std::size_t> trailing_zero{3, 3, 3, 0};
  EXPECT_EQ(trailing_zero[0], 3u);
  EXPECT_EQ(trailing_zero[3], 0u);
  const std::vector<std::size_t> counts{5, 5, 5, 5, 5, 5, 5, 1};
  EXPECT_EQ(counts[7], 1u);
  const std::vector<std::uint64_t> leading{0, 7, 7, 7};
  EXPECT_EQ(leading[0], 0u);
  EXPECT_EQ(leading[1], 7u);
  std::size_t sum = 0;
  for (std::size_t v : trailing_zero) sum += v;
  EXPECT_EQ(sum, 9u);
}

TEST(Toolchain, InitializerListsOfDoublesKeepEveryValue) {
  const std::vector<double> values{2.5, 2.5, 2.5, 0.0};
  EXPECT_EQ(values[3], 0.0);
  const std::vector<int> ints{4, 4, 4, 4, 4, 4, 4, 0};
  EXPECT_EQ(ints[7], 0);
}

}  // namespace
