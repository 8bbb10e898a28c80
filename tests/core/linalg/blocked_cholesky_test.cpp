// The blocked factorisations against Eigen's LLT and dense products, over sizes on both sides of the
// 64-row blocks.
#include "gpprobe/linalg/blocked_cholesky.h"

#include <random>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <gtest/gtest.h>

#include "gpprobe/common/matrix_view.h"

namespace gpprobe {
namespace {

using Eigen::MatrixXd;

MatrixXd random_spd(int n, std::mt19937& rng) {
  std::normal_distribution<double> z;
  MatrixXd B(n, n + 3);
  for (int i = 0; i < B.size(); ++i) B.data()[i] = z(rng);
  return B * B.transpose() / n + 0.1 * MatrixXd::Identity(n, n);
}

constexpr int kSizes[] = {1, 2, 5, 63, 64, 65, 130, 200};

TEST(BlockedCholesky, FactorEqualsEigenAndClearsTheUpperTriangle) {
  std::mt19937 rng(11);
  for (int n : kSizes) {
    const MatrixXd A = random_spd(n, rng);
    RowMatrix L = A;
    L.triangularView<Eigen::StrictlyUpper>().setConstant(7.0);  // only the lower triangle is read
    ASSERT_TRUE(cholesky_in_place(L.data(), std::size_t(n), "A").ok()) << n;
    const MatrixXd expected = Eigen::LLT<MatrixXd>(A).matrixL();
    EXPECT_LT((L - expected).cwiseAbs().maxCoeff(), 1e-12) << n;
  }
}

TEST(BlockedCholesky, InverseOfTheFactorAndOfTheMatrix) {
  std::mt19937 rng(12);
  for (int n : kSizes) {
    const MatrixXd A = random_spd(n, rng);
    RowMatrix L = A;
    ASSERT_TRUE(cholesky_in_place(L.data(), std::size_t(n), "A").ok());
    RowMatrix U(n, n);
    invert_lower_transposed(L.data(), std::size_t(n), U.data());
    EXPECT_LT((U * L.transpose() - MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff(), 1e-11) << n;
    EXPECT_EQ(U.triangularView<Eigen::StrictlyLower>().toDenseMatrix().cwiseAbs().maxCoeff(), 0.0) << n;
    gram_of_upper_in_place(U.data(), std::size_t(n), true);
    const MatrixXd inverse = A.inverse();
    EXPECT_LT((U - inverse).cwiseAbs().maxCoeff(), 1e-10 * inverse.cwiseAbs().maxCoeff()) << n;
  }
}

TEST(BlockedCholesky, GramWithoutMirrorFillsTheUpperTriangle) {
  std::mt19937 rng(13);
  const int n = 70;
  const MatrixXd A = random_spd(n, rng);
  RowMatrix L = A;
  ASSERT_TRUE(cholesky_in_place(L.data(), n, "A").ok());
  RowMatrix W(n, n);
  invert_lower_transposed(L.data(), n, W.data());
  gram_of_upper_in_place(W.data(), n, false);
  const MatrixXd inverse = A.inverse();
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) EXPECT_NEAR(W(i, j), inverse(i, j), 1e-10 * inverse.cwiseAbs().maxCoeff());
}

TEST(BlockedCholesky, MultiplyLowerTransposedIgnoresTheUpperTriangle) {
  std::mt19937 rng(14);
  std::normal_distribution<double> z;
  // 769 = the probe's D at d = 768 (odd, 12 blocks and one row); m = 257 a block of queries and one.
  for (auto [m, n] : {std::pair{37, 3}, std::pair{37, 64}, std::pair{37, 97}, std::pair{257, 769}}) {
    RowMatrix B(m, n), L(n, n);
    for (int i = 0; i < B.size(); ++i) B.data()[i] = z(rng);
    for (int i = 0; i < L.size(); ++i) L.data()[i] = z(rng);
    const MatrixXd lower = L.triangularView<Eigen::Lower>();
    RowMatrix C(m, n);
    multiply_lower_transposed(B.data(), m, L.data(), n, C.data());
    EXPECT_LT((C - B * lower.transpose()).cwiseAbs().maxCoeff(), 1e-12) << n;
  }
}

TEST(BlockedCholesky, ReportsIndefiniteMatrices) {
  for (int n : {3, 100}) {
    RowMatrix A = RowMatrix::Identity(n, n);
    A(n - 1, n - 1) = -1.0;
    const Status s = cholesky_in_place(A.data(), std::size_t(n), "the kernel matrix");
    EXPECT_EQ(s.code(), StatusCode::numerical_failure);
    EXPECT_EQ(s.message(), "the kernel matrix is not positive definite");
  }
  RowMatrix nan = RowMatrix::Identity(2, 2);
  nan(1, 1) = std::nan("");
  EXPECT_EQ(cholesky_in_place(nan.data(), 2, "K").code(), StatusCode::numerical_failure);
}

}  // namespace
}  // namespace gpprobe
