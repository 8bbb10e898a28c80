// The Mahalanobis OOD baseline (Lee et al. 2018, "Maha" in the GPP paper): one Gaussian per class with
// a shared covariance, and a query's score is minus its smallest squared Mahalanobis distance:
//
//   mu_c   = mean of the observations with label c                       (c in the labels present)
//   Sigma  = (1/O) Σ_c Σ_{i in c} (x_i - mu_c)(x_i - mu_c)'              (pooled, weighted by class size)
//   d_c(q) = (q - mu_c)' Sigma⁺ (q - mu_c),   ood_score(q) = -min_c d_c(q)
//
// Sigma⁺ is the Moore-Penrose pseudo-inverse (numpy.linalg.pinv(Sigma, rcond=1e-10, hermitian=True)):
// eigenvalues with |lambda| <= 1e-10 max|lambda| count as 0, which is the usual case with fewer
// observations than dimensions (the paper notes the estimate is then degenerate). We keep the whitening
// map T = Lambda_+^{-1/2} V_+' (r by d), so d_c(q) = |T q - T mu_c|² costs one row product per block.
//
//   observations  O by d, O >= 1;  labels O values in {0, 1} (one class alone is allowed)
//   queries       n by d  ->  distance = min_c d_c (n values), ood_score = -distance
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

class MahalanobisDetector {
 public:
  static Result<MahalanobisDetector> fit(const MatrixView& observations, const std::uint8_t* labels, std::size_t count);

  // Either pointer may be null.
  Status score(const MatrixView& queries, double* distance, double* ood_score) const;

  const RowMatrix& class_means() const { return means_; }  // classes present (0 first) by d
  std::size_t rank() const { return std::size_t(T_.rows()); }

 private:
  RowMatrix means_;    // classes by d
  RowMatrix T_;        // r by d whitening map
  RowMatrix means_T_;  // classes by r: T mu_c
};

}  // namespace gpprobe
