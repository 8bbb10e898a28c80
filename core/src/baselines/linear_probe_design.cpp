#include "baselines/linear_probe_design.h"

#include <Eigen/QR>

namespace gpprobe {

using Eigen::Index;

ProbeDesign probe_design(const MatrixView& observations) {
  const Index O = Index(observations.rows()), d = Index(observations.cols());
  RowMatrix X(O, d);
  observations.copy_rows(0, observations.rows(), X.data());
  ProbeDesign design;
  design.dimension = d;
  if (O >= d) {
    for (Index j = 0; j < d; ++j)
      if ((X.col(j).array() != 0.0).any()) design.kept.push_back(j);
    if (Index(design.kept.size()) == d) {
      design.kept.clear();
      design.Z = std::move(X);
      return design;
    }
    const Index r = Index(design.kept.size());
    design.Z.resize(O, r);
    for (Index k = 0; k < r; ++k) design.Z.col(k) = X.col(design.kept[std::size_t(k)]);
    design.reduced = true;
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
  const Index d = design.dimension;
  Eigen::VectorXd full(d + 1);
  if (!design.kept.empty()) {  // the basis selects columns: place the weights, zeros elsewhere (exactly)
    full.head(d).setZero();
    for (Index k = 0; k < r; ++k) full[design.kept[std::size_t(k)]] = theta[k];
  } else {
    full.head(d).noalias() = design.basis * theta.head(r);
  }
  full[d] = theta[r];
  return full;
}

}  // namespace gpprobe
