// solve_lower_rows against Eigen's triangular solve, over sizes and right-hand-side counts on both sides
// of the 64-column panels, with an ill-conditioned factor among them.
#include "core/src/linalg/triangular_solve.h"

#include <cmath>
#include <random>

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <gtest/gtest.h>

#include "gpprobe/common/matrix_view.h"

namespace gpprobe {
namespace {

using Eigen::MatrixXd;

RowMatrix random_lower(int n, double spread, std::mt19937& rng) {
  std::normal_distribution<double> z;
  MatrixXd B(n, n + 3);
  for (int i = 0; i < B.size(); ++i) B.data()[i] = z(rng);
  MatrixXd A = B * B.transpose() / n + 0.1 * MatrixXd::Identity(n, n);
  // Scale rows and columns over `spread` decades: a factor with widely ranging diagonal.
  for (int i = 0; i < n; ++i) {
    const double s = std::pow(10.0, -spread * i / std::max(1, n - 1));
    A.row(i) *= s;
    A.col(i) *= s;
  }
  return Eigen::LLT<MatrixXd>(A).matrixL().toDenseMatrix();
}

TEST(TriangularSolve, RowsSolvedAsEigenSolvesColumns) {
  std::mt19937 rng(21);
  for (int n : {1, 2, 5, 63, 64, 65, 130, 200}) {
    for (int k : {1, 3, 64, 97}) {
      for (double spread : {0.0, 4.0}) {
        const RowMatrix L = random_lower(n, spread, rng);
        RowMatrix stored = L;
        stored.triangularView<Eigen::StrictlyUpper>().setConstant(7.0);  // only the lower triangle is read
        std::normal_distribution<double> z;
        RowMatrix B(k, n);
        for (int i = 0; i < B.size(); ++i) B.data()[i] = z(rng);
        const MatrixXd expected = L.triangularView<Eigen::Lower>().solve(MatrixXd(B.transpose())).transpose();
        RowMatrix X = B;
        solve_lower_rows(stored.data(), std::size_t(n), X.data(), std::size_t(k));
        // Relative to the solution's size and the factor's conditioning (forward-stable either way).
        const double scale = expected.cwiseAbs().maxCoeff();
        EXPECT_LT((X - expected).cwiseAbs().maxCoeff(), 1e-12 * scale * (1.0 + std::pow(10.0, spread)))
            << "n " << n << " k " << k << " spread " << spread;
        // The residual L x = b row by row, independent of Eigen's solve.
        const MatrixXd residual = L.triangularView<Eigen::Lower>() * MatrixXd(X.transpose()) - MatrixXd(B.transpose());
        const MatrixXd size =
            MatrixXd(L.cwiseAbs()) * MatrixXd(X.transpose().cwiseAbs()) + MatrixXd(B.transpose().cwiseAbs());
        EXPECT_LT(residual.cwiseAbs().maxCoeff(), 1e-13 * size.maxCoeff()) << "n " << n << " k " << k;
      }
    }
  }
}

TEST(TriangularSolve, IdentityRightHandSidesGiveTheTransposedInverse) {
  std::mt19937 rng(22);
  const int n = 150;
  const RowMatrix L = random_lower(n, 1.0, rng);
  RowMatrix X = RowMatrix::Identity(n, n);
  solve_lower_rows(L.data(), std::size_t(n), X.data(), std::size_t(n));
  // Row i of X solves L x = e_i: X = (L^-1)', so L X' = I.
  EXPECT_LT((L * X.transpose() - MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff(), 1e-11);
  EXPECT_EQ(X.triangularView<Eigen::StrictlyLower>().toDenseMatrix().cwiseAbs().maxCoeff(), 0.0);
}

}  // namespace
}  // namespace gpprobe
