// The design matrix the linear baselines (LP, LPE) are solved on. An L2-penalised linear model has its
// weight vector in the span of the observations (representer theorem: every gradient of
// ½‖w‖² + loss(Xw + b) lies there), so with fewer observations than dimensions (O < d) we solve in
// coordinates of that span and expand afterwards; this is exact and makes each Newton step cost
// O(O·r² + r³) with r = rank(X) <= O instead of O(O·d² + d³).
//
//   X      O by d observations (float64 copy)
//   basis  d by r orthonormal columns spanning the rows of X (column-pivoted Householder QR of X'),
//          or empty when not reduced (O >= d): then Z = X
//   Z      O by r coordinates, Z = X basis
//
// A solution theta = [u; b] (r + 1 values) in Z's coordinates is the weight vector w = basis u
// (d values) with the same intercept b.
#pragma once

#include <Eigen/Core>

#include "gpprobe/matrix_view.h"

namespace gpprobe {

struct ProbeDesign {
  RowMatrix Z;
  RowMatrix basis;
  bool reduced = false;
};

ProbeDesign probe_design(const MatrixView& observations);

// [w; b] (d + 1 values) of a solution theta = [u; b] on the design.
Eigen::VectorXd expand_solution(const ProbeDesign& design, const Eigen::VectorXd& theta);

}  // namespace gpprobe
