// The deep nearest-neighbour OOD baseline (Sun et al. 2022, "NN"/kNN in the GPP paper): embeddings are
// L2-normalised, and a query's score is minus its distance to the k-th nearest observation:
//
//   z = x / |x|   (a zero row stays zero, like sklearn.preprocessing.normalize)
//   distance(q) = |z_q - z_(k)|,  z_(k) the k-th nearest normalised observation,  ood_score = -distance
//
// Distances come from |a - b|² = |a|² + |b|² - 2 a'b with the products a'b as one row product per block
// of 256 queries (memory O(256 O), never n by O), clamped at 0 against rounding.
//
//   observations  O by d, O >= k (labels are not used)
//   queries       n by d  ->  distance and ood_score (n values each)
#pragma once

#include <cstddef>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

class NearestNeighbourDetector {
 public:
  // k >= 1 and k <= O.
  static Result<NearestNeighbourDetector> fit(const MatrixView& observations, std::size_t k = 1);

  // Either pointer may be null.
  Status score(const MatrixView& queries, double* distance, double* ood_score) const;

  std::size_t k() const { return k_; }

 private:
  RowMatrix Z_;             // O by d, normalised
  Eigen::VectorXd norms2_;  // |z_i|², 1 or 0
  std::size_t k_ = 1;
};

// Row i of `x` (count by d, row-major) divided by its norm, in place; zero rows stay zero.
void normalise_rows(double* x, std::size_t count, std::size_t d);

}  // namespace gpprobe
