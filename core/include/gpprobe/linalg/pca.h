// Principal components of the rows of X (the app's 2-D map of the embeddings), by randomized subspace
// iteration (Halko, Martinsson & Tropp 2011) so that 100,000 x 768 float32 rows are never widened or
// transposed whole:
//
//   Xc = X - 1 mean',  Omega ~ N(0, 1) of d by l (l = k + 8),
//   Y = Xc Omega;  q times: Y <- Xc orth(Xc' orth(Y));  Q = orth(Y)      (n by l, orthonormal columns)
//   B = Q' Xc = U S V'   (l by d, a small SVD)
//   components = first k rows of V',  scores = Q U S (first k columns) = Xc components',
//   explained_variance_j = S_j^2 / (n - 1).
//
// Each pass over X runs in blocks of rows (widened to float64 one block at a time); progress is
// reported once per pass. Signs are fixed so each component's largest-magnitude entry is positive.
//
//   X       n by d (n >= 2, d >= 1, finite)
//   k       number of components, 1 <= k <= min(n, d)
#pragma once

#include <cstdint>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

struct PrincipalComponents {
  RowMatrix components;                // k by d
  RowMatrix scores;                    // n by k: coordinates of each row
  Eigen::VectorXd explained_variance;  // k
  double total_variance = 0.0;         // trace of the sample covariance (for "explained %")
  Eigen::VectorXd mean;                // d
};

Result<PrincipalComponents> principal_components(const MatrixView& X, std::size_t k, std::uint64_t seed = 1,
                                                 int power_iterations = 3, const ProgressCallback& progress = {});

}  // namespace gpprobe
