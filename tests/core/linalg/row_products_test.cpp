// The hot products against naive loops, over sizes that exercise every remainder of the blocking.
#include "gpprobe/linalg/row_products.h"

#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.h"

namespace gpprobe {
namespace {

using testing::random_values;

TEST(RowProducts, MultiplyTransposedMatchesNaiveLoops) {
  std::mt19937 rng(5);
  for (std::size_t m : {1u, 3u, 4u, 7u, 9u}) {
    for (std::size_t n : {1u, 2u, 5u, 67u}) {
      for (std::size_t k : {1u, 2u, 3u, 257u, 513u}) {
        const auto A = random_values(m * k, rng), B = random_values(n * k, rng);
        std::vector<double> C(m * n);
        multiply_transposed(A.data(), m, B.data(), n, k, C.data());
        for (std::size_t i = 0; i < m; ++i) {
          for (std::size_t j = 0; j < n; ++j) {
            double s = 0;
            for (std::size_t p = 0; p < k; ++p) s += A[i * k + p] * B[j * k + p];
            ASSERT_NEAR(C[i * n + j], s, 1e-12) << m << "x" << n << "x" << k;
          }
        }
      }
    }
  }
}

TEST(RowProducts, SelfTransposedIsTheFullProductExactlySymmetric) {
  std::mt19937 rng(8);
  for (std::size_t m : {1u, 2u, 63u, 64u, 65u, 130u}) {
    for (std::size_t k : {0u, 1u, 3u, 257u}) {
      const auto A = random_values(m * k, rng);
      std::vector<double> C(m * m, -1.0);
      multiply_self_transposed(A.data(), m, k, C.data());
      for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < m; ++j) {
          double s = 0;
          for (std::size_t p = 0; p < k; ++p) s += A[i * k + p] * A[j * k + p];
          ASSERT_NEAR(C[i * m + j], s, 1e-12) << m << "x" << k;
          ASSERT_EQ(C[i * m + j], C[j * m + i]) << m << "x" << k;
        }
      }
    }
  }
}

TEST(RowProducts, RowwiseDotAndMatrixVector) {
  std::mt19937 rng(6);
  const std::size_t m = 11, k = 37;
  const auto A = random_values(m * k, rng), B = random_values(m * k, rng), x = random_values(k, rng);
  std::vector<double> dots(m), Ax(m);
  rowwise_dot(A.data(), B.data(), m, k, dots.data());
  multiply_vector(A.data(), m, k, x.data(), Ax.data());
  for (std::size_t i = 0; i < m; ++i) {
    double s = 0, t = 0;
    for (std::size_t p = 0; p < k; ++p) {
      s += A[i * k + p] * B[i * k + p];
      t += A[i * k + p] * x[p];
    }
    EXPECT_NEAR(dots[i], s, 1e-13);
    EXPECT_NEAR(Ax[i], t, 1e-13);
  }
}

TEST(RowProducts, AddProductTransposedOnStridedBlocks) {
  std::mt19937 rng(8);
  // Blocks inside 300-column matrices, with every remainder of the 4-row / 2-column / 256-value blocking.
  const std::size_t ld = 300;
  for (std::size_t m : {1u, 4u, 7u}) {
    for (std::size_t n : {1u, 3u, 66u}) {
      for (std::size_t k : {0u, 1u, 5u, 259u}) {
        for (double sign : {1.0, -1.0}) {
          const auto A = random_values(m * ld, rng), B = random_values(n * ld, rng);
          std::vector<double> C = random_values(m * ld, rng), before = C;
          add_product_transposed(A.data() + 3, ld, B.data() + 2, ld, m, n, k, sign, C.data() + 1, ld);
          for (std::size_t i = 0; i < m; ++i) {
            for (std::size_t j = 0; j < ld; ++j) {
              double expected = before[i * ld + j];
              if (j >= 1 && j < 1 + n) {
                for (std::size_t p = 0; p < k; ++p) expected += sign * A[i * ld + 3 + p] * B[(j - 1) * ld + 2 + p];
              }
              ASSERT_NEAR(C[i * ld + j], expected, 1e-12) << m << "x" << n << "x" << k;
            }
          }
        }
      }
    }
  }
}

TEST(RowProducts, AccumulateTransposedProduct) {
  std::mt19937 rng(7);
  const std::size_t m = 13, k = 9, n = 5;
  const auto A = random_values(m * k, rng), B = random_values(m * n, rng);
  std::vector<double> C(k * n, 1.0);  // accumulates onto what is there
  accumulate_transposed_product(A.data(), B.data(), m, k, n, C.data());
  for (std::size_t p = 0; p < k; ++p) {
    for (std::size_t c = 0; c < n; ++c) {
      double s = 1.0;
      for (std::size_t i = 0; i < m; ++i) s += A[i * k + p] * B[i * n + c];
      EXPECT_NEAR(C[p * n + c], s, 1e-13);
    }
  }
}

}  // namespace
}  // namespace gpprobe
