// The seeded stream is the same on every platform: pinned to an independent Python mirror of
// mt19937_64 / splitmix64 (scripts/fixtures/reference_random.py) and to the C++ standard's check value.
#include "gpprobe/common/random_stream.h"

#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include "evaluation/evaluation_fixtures.h"

namespace gpprobe {
namespace {

TEST(RandomStream, MatchesTheStandardAndThePythonMirror) {
  std::mt19937_64 standard;  // [rand.predef]: the 10000th output of a default-constructed engine
  standard.discard(9999);
  EXPECT_EQ(standard(), 9981545732273789042ULL);

  const auto f = testing::evaluation_fixture("random_stream.json");
  RandomStream raw(42);
  for (const auto& v : f["seed42_raw"]) EXPECT_EQ(raw.next(), std::stoull(v.get<std::string>()));
  RandomStream uniform(42);
  for (const auto& v : f["seed42_uniform"]) EXPECT_EQ(uniform.uniform(), v.get<double>());
  RandomStream index(3);
  for (const auto& v : f["seed3_index10"]) EXPECT_EQ(index.index(10), v.get<std::size_t>());
  std::vector<int> shuffled(12);
  std::iota(shuffled.begin(), shuffled.end(), 0);
  RandomStream(9).shuffle(shuffled);
  EXPECT_EQ(shuffled, f["seed9_shuffle12"].get<std::vector<int>>());
  EXPECT_EQ(splitmix64(0), std::stoull(f["splitmix64_of_0"].get<std::string>()));
  EXPECT_EQ(derive_seed(5, {1, 2}), std::stoull(f["derive_seed_5_of_1_2"].get<std::string>()));
}

TEST(RandomStream, IndexStaysInRangeAndCoversIt) {
  RandomStream r(1);
  std::vector<int> seen(7, 0);
  for (int i = 0; i < 7000; ++i) {
    const std::size_t k = r.index(7);
    ASSERT_LT(k, 7u);
    ++seen[k];
  }
  for (int count : seen) EXPECT_NEAR(count, 1000, 150);  // ~5 standard deviations
}

}  // namespace
}  // namespace gpprobe
