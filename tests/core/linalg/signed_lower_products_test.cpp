// The centred variance bound's inner products (signed_lower_products.h) against naive loops: P = max(M, 0) V,
// N = min(M, 0) V over M's lower triangle and t = M' (M V[:, j]), at sizes where a row has fewer than four,
// exactly four and more than four entries (the four-accumulator loop and its tail) and the columns fill a
// lane group or leave a remainder. The mutation run's survivors here were the accumulators' sum (p0 + p1
// made p0 - p1, wrong from row 4 on) and the loops' bounds (docs/hostile-inputs.md).
#include "linalg/signed_lower_products.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.h"

namespace gpprobe {
namespace {

using testing::random_values;

TEST(SignedLowerProducts, MatchNaiveLoopsOverEveryRemainder) {
  std::mt19937 rng(11);
  for (std::size_t n : {1u, 3u, 4u, 5u, 9u, 17u}) {
    for (std::size_t m : {1u, 3u, 4u, 6u, 9u}) {
      const auto M = random_values(n * n, rng), V = random_values(n * m, rng);
      const std::size_t column = m - 1;
      std::vector<double> P(n * m, -7.0), N(n * m, -7.0), t(n, -7.0);
      signed_lower_products(M.data(), n, V.data(), m, P.data(), N.data(), column, t.data());
      std::vector<double> y(n, 0.0);
      for (std::size_t r = 0; r < n; ++r) {
        for (std::size_t j = 0; j < m; ++j) {
          double plus = 0, minus = 0;
          for (std::size_t i = 0; i <= r; ++i) {
            const double a = M[r * n + i];
            (a > 0 ? plus : minus) += a * V[i * m + j];
          }
          ASSERT_NEAR(P[r * m + j], plus, 1e-13) << "P " << n << "x" << m << " at " << r << "," << j;
          ASSERT_NEAR(N[r * m + j], minus, 1e-13) << "N " << n << "x" << m << " at " << r << "," << j;
          if (j == column) y[r] = plus + minus;
        }
      }
      for (std::size_t i = 0; i < n; ++i) {
        double s = 0;
        for (std::size_t r = i; r < n; ++r) s += M[r * n + i] * y[r];
        ASSERT_NEAR(t[i], s, 1e-12) << "t " << n << "x" << m << " at " << i;
      }
    }
  }
}

TEST(SignedLowerProducts, ReadsOnlyTheLowerTriangle) {
  // The strict upper triangle holds NaN: no product may read it.
  const std::size_t n = 6, m = 2;
  std::mt19937 rng(3);
  auto M = random_values(n * n, rng);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t i = r + 1; i < n; ++i) M[r * n + i] = std::numeric_limits<double>::quiet_NaN();
  const auto V = random_values(n * m, rng);
  std::vector<double> P(n * m), N(n * m), t(n);
  signed_lower_products(M.data(), n, V.data(), m, P.data(), N.data(), 1, t.data());
  for (double v : P) EXPECT_TRUE(std::isfinite(v));
  for (double v : N) EXPECT_TRUE(std::isfinite(v));
  for (double v : t) EXPECT_TRUE(std::isfinite(v));
}

}  // namespace
}  // namespace gpprobe
