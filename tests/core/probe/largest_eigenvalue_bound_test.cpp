// largest_eigenvalue_bound (latent_weights.h): at least the largest eigenvalue of a symmetric matrix whose
// eigenvalues are known by construction (Q diag(λ) Q' with an exact rotation), and above it by no more than
// its stated allowance; 0 for an empty matrix. The mutation run's survivor inverted the empty-matrix
// shortcut (every non-empty matrix got 0): no test called it directly (docs/hostile-inputs.md).
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "gpprobe/probe/latent_weights.h"

namespace gpprobe {
namespace {

TEST(LargestEigenvalueBound, BoundsTheLargestEigenvalueTightlyAndIsZeroWhenEmpty) {
  EXPECT_EQ(largest_eigenvalue_bound(Eigen::MatrixXd(0, 0)), 0.0);
  // A plane rotation by θ with cos θ = 3/5, sin θ = 4/5 (exact in binary to rounding of 0.6 and 0.8) in the
  // first two coordinates of diag(7, -2, 3, 0.5): eigenvalues 7, -2, 3, 0.5, the largest 7.
  Eigen::MatrixXd Q = Eigen::MatrixXd::Identity(4, 4);
  Q(0, 0) = 0.6, Q(0, 1) = -0.8, Q(1, 0) = 0.8, Q(1, 1) = 0.6;
  Eigen::VectorXd lambda(4);
  lambda << 7.0, -2.0, 3.0, 0.5;
  const Eigen::MatrixXd A = Q * lambda.asDiagonal() * Q.transpose();
  const double bound = largest_eigenvalue_bound(A);
  EXPECT_GE(bound, 7.0);
  EXPECT_LT(bound, 7.0 * (1.0 + 1e-12));
  // Every eigenvalue negative: the bound is the least negative one, not 0.
  const Eigen::MatrixXd B = -A - 10.0 * Eigen::MatrixXd::Identity(4, 4);  // eigenvalues -17, -8, -13, -10.5
  EXPECT_GE(largest_eigenvalue_bound(B), -8.0);
  EXPECT_LT(largest_eigenvalue_bound(B), -8.0 * (1.0 - 1e-12));
  // 1 x 1: the value itself.
  EXPECT_GE(largest_eigenvalue_bound(Eigen::MatrixXd::Constant(1, 1, 2.5)), 2.5);
  EXPECT_LT(largest_eigenvalue_bound(Eigen::MatrixXd::Constant(1, 1, 2.5)), 2.5 * (1.0 + 1e-12));
}

}  // namespace
}  // namespace gpprobe
