// The float32 products against long-double loops over the same float inputs, within the stated bound
// 66 u sum_p |a_p b_p| (u = 2^-24), over sizes that exercise every remainder of the 4 x 2 blocking, the
// 4-value steps and the 256-value chunks; d = 1 and empty sizes; and a sum that pure float32
// accumulation over k would lose but the per-chunk float64 sums keep.
#include "core/src/linalg/float32_products.h"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace gpprobe {
namespace {

constexpr long double kUnit = 1.0L / 16777216.0L;  // 2^-24

std::vector<float> random_floats(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

// |got - sum| within the bound for terms whose absolute values sum to `magnitude`.
void expect_within_bound(double got, long double exact, long double magnitude, const std::string& where) {
  const long double bound = 66.0L * kUnit * magnitude + 1e-15L * (1.0L + std::fabs(exact));
  ASSERT_LE(std::fabs((long double)got - exact), bound) << where << ": got " << got << ", exact " << double(exact);
}

TEST(Float32Products, AddProductTransposedOnStridedBlocks) {
  std::mt19937 rng(21);
  const std::size_t ld = 700;
  for (std::size_t m : {0u, 1u, 2u, 3u, 4u, 5u, 9u}) {
    for (std::size_t n : {0u, 1u, 2u, 3u, 67u, 130u}) {
      for (std::size_t k : {0u, 1u, 3u, 4u, 5u, 255u, 256u, 257u, 515u}) {
        const std::vector<float> A = random_floats(std::max<std::size_t>(m, 1) * ld, rng);
        const std::vector<float> B = random_floats(std::max<std::size_t>(n, 1) * ld, rng);
        std::vector<double> C(std::max<std::size_t>(m, 1) * 200);
        for (double& c : C) c = std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
        const std::vector<double> before = C;
        add_product_transposed(A.data() + 3, ld, B.data() + 5, ld, m, n, k, C.data() + 1, 200);
        for (std::size_t i = 0; i < m; ++i) {
          for (std::size_t j = 0; j < 200; ++j) {
            long double exact = before[i * 200 + j], magnitude = 0.0L;
            if (j >= 1 && j < 1 + n) {
              for (std::size_t p = 0; p < k; ++p) {
                const long double t = (long double)A[i * ld + 3 + p] * (long double)B[(j - 1) * ld + 5 + p];
                exact += t;
                magnitude += std::fabs(t);
              }
            }
            expect_within_bound(C[i * 200 + j], exact, magnitude,
                                std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k));
            if (::testing::Test::HasFatalFailure()) return;
          }
        }
      }
    }
  }
}

TEST(Float32Products, LowerTransposedMatchesLongDouble) {
  std::mt19937 rng(22);
  for (std::size_t n : {1u, 2u, 3u, 5u, 63u, 64u, 65u, 255u, 256u, 257u, 261u, 600u}) {
    for (std::size_t m : {0u, 1u, 3u, 4u, 7u, 33u}) {
      const std::vector<float> B = random_floats(m * n, rng);
      std::vector<float> L = random_floats(n * n, rng);
      for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = r + 1; c < n; ++c) L[r * n + c] = 0.0f;  // the contract: zeros above the diagonal
      std::vector<double> C(m * n, -7.0);
      multiply_lower_transposed(B.data(), m, L.data(), n, C.data());
      for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
          long double exact = 0.0L, magnitude = 0.0L;
          for (std::size_t p = 0; p <= j; ++p) {
            const long double t = (long double)B[i * n + p] * (long double)L[j * n + p];
            exact += t;
            magnitude += std::fabs(t);
          }
          expect_within_bound(C[i * n + j], exact, magnitude, std::to_string(m) + " by " + std::to_string(n));
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(Float32Products, ChunkSumsInFloat64KeepWhatFloat32WouldLose) {
  // Each lane sees 2^24 first and then ones: 2^24 + 1 rounds back to 2^24 in float32, so float32
  // accumulation over all k = 4 * 2048 values would lose 2047 per lane (8,188 in all, far outside the
  // bound of 66 u (2^24 + 8188) ~ 66); summed per chunk in float64 only each chunk's first ones can
  // be lost: 63 per lane of the first chunk.
  const std::size_t k = 4 * 2048;
  std::vector<float> a(k, 1.0f), b(k, 1.0f);
  for (std::size_t lane = 0; lane < 4; ++lane) b[lane] = 16777216.0f;
  double c = 0.0;
  add_product_transposed(a.data(), k, b.data(), k, 1, 1, k, &c, 1);
  const long double exact = 4.0L * 16777216.0L + (k - 4);
  expect_within_bound(c, exact, exact, "2^24 then ones");
  EXPECT_GE(c, double(exact) - 4 * 63);
}

}  // namespace
}  // namespace gpprobe
