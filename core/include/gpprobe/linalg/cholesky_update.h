// Cholesky factors that change with the data instead of being refactorised: A = L L', L lower.
//
//   append_row     A grows by one row/column [A b; b' c]           O(n^2)
//   delete_row     A loses row/column i                             O(n^2)
//   rank_one_update A + x x'                                         O(n^2)
//   cholesky_factor A = L L' with a status instead of a silent failure
//   inverse_from_cholesky A^-1 = L^-T L^-1, blocked through the hot row products (blocked_cholesky.h)
#pragma once

#include <string>

#include <Eigen/Core>

#include "gpprobe/common/status.h"

namespace gpprobe {

// L (n by n, lower) of the symmetric positive definite A. numerical_failure naming `what` if A is not
// positive definite to working precision (no jitter is added silently).
Status cholesky_factor(const Eigen::MatrixXd& A, Eigen::MatrixXd* L, const std::string& what);

// Extends L for A' = [A b; b' c]. numerical_failure naming `what` if the new pivot c - |L^-1 b|^2 <= 0.
Status append_row(Eigen::MatrixXd* L, const Eigen::VectorXd& b, double c, const std::string& what);

// L for A with row and column i removed.
void delete_row(Eigen::MatrixXd* L, Eigen::Index i);

// L for A + x x' (x is consumed).
void rank_one_update(Eigen::Ref<Eigen::MatrixXd> L, Eigen::VectorXd x);

// A^-1 = L^-T L^-1 as a symmetric row-major n by n matrix written to `inverse`.
void inverse_from_cholesky(const Eigen::MatrixXd& L, double* inverse);

}  // namespace gpprobe
