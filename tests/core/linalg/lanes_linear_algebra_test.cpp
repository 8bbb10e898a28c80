// The four-lane kernels of the logistic fits (lanes.h dot/axpy, lanes_cholesky.h with its dot4,
// add_weighted_rows of row_products.h) against plain loops in long double, over sizes that leave every
// remainder of the lanes (and of add_weighted_rows' strips of 16 columns).
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/linalg/row_products.h"

#include "core/src/linalg/lanes.h"
#include "core/src/linalg/lanes_cholesky.h"
#include "test_support.h"

namespace gpprobe {
namespace {

using testing::random_values;

TEST(LanesLinearAlgebra, DotAndAxpyMatchLongDoubleLoops) {
  std::mt19937 rng(11);
  for (std::size_t n = 0; n <= 21; ++n) {
    const auto a = random_values(n, rng), b = random_values(n, rng);
    long double dot = 0;
    for (std::size_t i = 0; i < n; ++i) dot += (long double)a[i] * b[i];
    EXPECT_NEAR(lanes_dot(a.data(), b.data(), n), double(dot), 1e-15 * double(n)) << n;

    std::vector<double> y = b;
    lanes_axpy(-0.75, a.data(), y.data(), n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(y[i], double(b[i] - 0.75L * a[i]), 4e-16) << n << " " << i;
  }
}

TEST(LanesLinearAlgebra, DotOfFourRowsMatchesLongDoubleLoops) {
  std::mt19937 rng(14);
  for (std::size_t n = 0; n <= 13; ++n) {
    const auto x = random_values(n, rng), rows = random_values(4 * n, rng);
    double out[4];
    lanes_dot4(x.data(), &rows[0], &rows[n], &rows[2 * n], &rows[3 * n], n, out);
    for (std::size_t a = 0; a < 4; ++a) {
      long double dot = 0;
      for (std::size_t i = 0; i < n; ++i) dot += (long double)x[i] * rows[a * n + i];
      EXPECT_NEAR(out[a], double(dot), 1e-15 * double(n)) << n << " row " << a;
    }
  }
}

TEST(LanesLinearAlgebra, AddWeightedRowsIsTheSumOfScaledRows) {
  std::mt19937 rng(12);
  for (std::size_t m : {0u, 1u, 2u, 3u, 4u, 5u, 9u, 130u}) {
    for (std::size_t k : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 15u, 16u, 17u, 18u, 19u, 33u, 35u, 64u, 67u}) {
      const auto A = random_values(m * k, rng), w = random_values(m, rng), start = random_values(k, rng);
      std::vector<double> out = start;
      add_weighted_rows(w.data(), A.data(), m, k, out.data());
      for (std::size_t j = 0; j < k; ++j) {
        long double expected = start[j];
        for (std::size_t i = 0; i < m; ++i) expected += (long double)w[i] * A[i * k + j];
        ASSERT_NEAR(out[j], double(expected), 1e-15 * double(m + 1)) << m << "x" << k << " column " << j;
      }
    }
  }
}

// A = B B' + n I for a random B: symmetric positive definite, well conditioned.
std::vector<double> spd_matrix(std::size_t n, std::mt19937& rng) {
  const auto B = random_values(n * n, rng);
  std::vector<double> A(n * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double s = i == j ? double(n) : 0.0;
      for (std::size_t q = 0; q < n; ++q) s += B[i * n + q] * B[j * n + q];
      A[i * n + j] = s;
    }
  }
  return A;
}

TEST(LanesLinearAlgebra, CholeskyRowsReproducesTheMatrixAndSolves) {
  std::mt19937 rng(13);
  for (std::size_t n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 65u}) {
    const std::size_t ld = n + 3;  // a row stride wider than the matrix
    const std::vector<double> A = spd_matrix(n, rng);
    std::vector<double> L(n * ld, 7.0);  // the strict upper triangle must be neither read nor written
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j <= i; ++j) L[i * ld + j] = A[i * n + j];
    std::vector<double> inverse(n);
    ASSERT_TRUE(lanes_cholesky_rows(L.data(), n, ld, inverse.data())) << n;
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_GT(L[i * ld + i], 0.0);
      EXPECT_EQ(inverse[i], 1.0 / L[i * ld + i]);
      for (std::size_t j = i + 1; j < ld; ++j) EXPECT_EQ(L[i * ld + j], 7.0);
      for (std::size_t j = 0; j <= i; ++j) {  // (L L')_ij in long double against A
        long double s = 0;
        for (std::size_t q = 0; q <= j; ++q) s += (long double)L[i * ld + q] * L[j * ld + q];
        ASSERT_NEAR(double(s), A[i * n + j], 1e-13 * double(n)) << n << " " << i << "," << j;
      }
    }
    const std::vector<double> b = random_values(n, rng);
    std::vector<double> x = b;
    lanes_cholesky_solve(L.data(), n, ld, inverse.data(), x.data());
    for (std::size_t i = 0; i < n; ++i) {  // A x = b in long double
      long double s = 0;
      for (std::size_t j = 0; j < n; ++j) s += (long double)A[i * n + j] * x[j];
      EXPECT_NEAR(double(s), b[i], 1e-13 * double(n)) << n << " " << i;
    }
  }
}

TEST(LanesLinearAlgebra, CholeskyRowsRefusesAnIndefiniteMatrix) {
  // [[1, 2], [2, 1]] has eigenvalues 3 and -1: the second pivot is 1 - 4 < 0. NaN is refused too.
  std::vector<double> A = {1.0, 0.0, 2.0, 1.0}, inverse(2);
  EXPECT_FALSE(lanes_cholesky_rows(A.data(), 2, 2, inverse.data()));
  std::vector<double> nan = {std::nan(""), 0.0, 0.0, 1.0};
  EXPECT_FALSE(lanes_cholesky_rows(nan.data(), 2, 2, inverse.data()));
}

}  // namespace
}  // namespace gpprobe
