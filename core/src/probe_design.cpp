#include "probe_design.h"

#include <Eigen/QR>

namespace gpprobe {

using Eigen::Index;

ProbeDesign probe_design(const MatrixView& observations) {
  const Index O = Index(observations.rows()), d = Index(observations.cols());
  RowMatrix X(O, d);
  observations.copy_rows(0, observations.rows(), X.data());
  ProbeDesign design;
  if (O >= d) {
    design.Z = std::move(X);
    return design;
  }
  // X' = Q R P': the first r columns of Q span the rows of X (r = numerical rank, Eigen's default
  // threshold: pivots below eps * min(d, O) * |largest pivot| count as zero).
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(X.transpose());
  const Index r = qr.rank();
  const Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(d, r);
  design.basis = Q;
  design.Z = X * Q;
  design.reduced = true;
  return design;
}

Eigen::VectorXd expand_solution(const ProbeDesign& design, const Eigen::VectorXd& theta) {
  const Index r = theta.size() - 1;
  if (!design.reduced) return theta;
  const Index d = design.basis.rows();
  Eigen::VectorXd full(d + 1);
  full.head(d).noalias() = design.basis * theta.head(r);
  full[d] = theta[r];
  return full;
}

}  // namespace gpprobe
