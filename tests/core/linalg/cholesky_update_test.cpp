// Updated factors against a fresh Eigen LLT of the changed matrix.
#include "gpprobe/linalg/cholesky_update.h"

#include <random>

#include <Eigen/Cholesky>
#include <gtest/gtest.h>

namespace gpprobe {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

MatrixXd random_spd(int n, std::mt19937& rng) {
  std::normal_distribution<double> z;
  MatrixXd B(n, n + 3);
  for (int i = 0; i < B.size(); ++i) B.data()[i] = z(rng);
  return B * B.transpose() + 0.1 * MatrixXd::Identity(n, n);
}

TEST(CholeskyUpdate, AppendRowEqualsFactorOfTheGrownMatrix) {
  std::mt19937 rng(1);
  const MatrixXd A = random_spd(7, rng);
  MatrixXd L;
  ASSERT_TRUE(cholesky_factor(A.topLeftCorner(6, 6), &L, "A").ok());
  ASSERT_TRUE(append_row(&L, A.col(6).head(6), A(6, 6), "A").ok());
  const MatrixXd expected = Eigen::LLT<MatrixXd>(A).matrixL();
  EXPECT_LT((L - expected).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(CholeskyUpdate, DeleteRowEqualsFactorOfTheShrunkMatrix) {
  std::mt19937 rng(2);
  const MatrixXd A = random_spd(8, rng);
  for (int i : {0, 3, 7}) {
    MatrixXd L = Eigen::LLT<MatrixXd>(A).matrixL();
    delete_row(&L, i);
    MatrixXd shrunk(7, 7);
    for (int r = 0, rr = 0; r < 8; ++r) {
      if (r == i) continue;
      for (int c = 0, cc = 0; c < 8; ++c) {
        if (c == i) continue;
        shrunk(rr, cc++) = A(r, c);
      }
      ++rr;
    }
    const MatrixXd expected = Eigen::LLT<MatrixXd>(shrunk).matrixL();
    EXPECT_LT((L - expected).cwiseAbs().maxCoeff(), 1e-12) << "row " << i;
  }
}

TEST(CholeskyUpdate, RankOneUpdate) {
  std::mt19937 rng(3);
  const MatrixXd A = random_spd(6, rng);
  VectorXd x = VectorXd::LinSpaced(6, -1.0, 2.0);
  MatrixXd L = Eigen::LLT<MatrixXd>(A).matrixL();
  rank_one_update(L, x);
  const MatrixXd expected = Eigen::LLT<MatrixXd>(A + x * x.transpose()).matrixL();
  EXPECT_LT((L - expected).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(CholeskyUpdate, InverseFromCholesky) {
  std::mt19937 rng(4);
  const MatrixXd A = random_spd(9, rng);
  const MatrixXd L = Eigen::LLT<MatrixXd>(A).matrixL();
  Eigen::Matrix<double, 9, 9, Eigen::RowMajor> inverse;
  inverse_from_cholesky(L, inverse.data());
  EXPECT_LT((inverse * A - MatrixXd::Identity(9, 9)).cwiseAbs().maxCoeff(), 1e-10);
}

TEST(CholeskyUpdate, ReportsIndefiniteMatrices) {
  MatrixXd L;
  const Status s = cholesky_factor(-MatrixXd::Identity(3, 3), &L, "the kernel matrix");
  EXPECT_EQ(s.code(), StatusCode::numerical_failure);
  EXPECT_EQ(s.message(), "the kernel matrix is not positive definite");
  MatrixXd L2 = MatrixXd::Identity(2, 2);
  const Status grow = append_row(&L2, VectorXd::Ones(2), 1.0, "K");  // pivot 1 - 2 < 0
  EXPECT_EQ(grow.code(), StatusCode::numerical_failure);
  EXPECT_EQ(L2.rows(), 2);  // unchanged
}

}  // namespace
}  // namespace gpprobe
