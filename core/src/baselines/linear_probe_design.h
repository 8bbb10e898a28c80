// The design matrix the linear baselines (LP, LPE) are solved on. An L2-penalised linear model has its
// weight vector in the span of the observations (representer theorem: every gradient of
// ½‖w‖² + loss(Xw + b) lies there), so with fewer observations than dimensions (O < d) we solve in
// coordinates of that span and expand afterwards; this is exact and makes each Newton step cost
// O(O·r² + r³) with r = rank(X) <= O instead of O(O·d² + d³). With O >= d the span is found only as far
// as it is free to: columns that are zero in every observation (dead ReLU units, padding) are left out,
// their weights being exactly 0 at the optimum (their gradient is the penalty's alone). On the demo's
// embeddings 8 of 64 units are dead, and the ensemble's 100 Newton fits per step cost a fifth less.
//
//   X      O by d observations (float64 copy)
//   basis  d by r orthonormal columns spanning the rows of X: from a column-pivoted Householder QR of X'
//          when O < d; empty when O >= d: then Z = X, or, when some columns are zero in every
//          observation, Z = X's other columns, which `kept` lists
//   Z      O by r coordinates, Z = X basis
//
// A solution theta = [u; b] (r + 1 values) in Z's coordinates is the weight vector w = basis u
// (d values) with the same intercept b.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "gpprobe/common/matrix_view.h"

namespace gpprobe {

struct ProbeDesign {
  RowMatrix Z;
  RowMatrix basis;
  std::vector<Eigen::Index> kept;  // O >= d with zero columns: the columns of X that Z holds
  Eigen::Index dimension = 0;      // d
  bool reduced = false;
};

ProbeDesign probe_design(const MatrixView& observations);

// [w; b] (d + 1 values) of a solution theta = [u; b] on the design.
Eigen::VectorXd expand_solution(const ProbeDesign& design, const Eigen::VectorXd& theta);

}  // namespace gpprobe
