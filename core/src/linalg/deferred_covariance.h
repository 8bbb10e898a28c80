// A symmetric n by n matrix under a stream of rank-one downdates, Sigma -= kappa s s', as EP's site
// updates make them (R&W Alg. 3.5; private to core/src). Only the lower triangle is stored and updated.
// The downdates are kept aside, as columns of S and kappa S, until `block` of them accumulate, then
// applied at once as one rank-block product on the lower triangle (add_lower_product: the SIMD kernel
// under wasm). A column of the current matrix is
//
//   Sigma[:, i] = Base[:, i] - S (kappa S)[i, :]'     O(n block) instead of a pass over n^2 entries,
//
// so a sweep over n sites costs n^3 flops in blocked products rather than n rank-one passes that each
// stream the whole matrix through memory.
#pragma once

#include <cstddef>

#include "gpprobe/common/matrix_view.h"

namespace gpprobe {

class DeferredCovariance {
 public:
  explicit DeferredCovariance(std::size_t block = 64) : block_(block) {}

  // Start again from a symmetric matrix given by its lower triangle (the upper one is never read).
  void reset(RowMatrix sigma);
  // Column i of the current matrix into out (n values).
  void column(std::size_t i, double* out) const;
  // Sigma -= kappa s s' (s: n values).
  void downdate(const double* s, double kappa);

 private:
  void flush();

  std::size_t block_;
  std::size_t pending_ = 0;
  RowMatrix base_;
  RowMatrix S_;       // n by block, column k = s_k (k < pending_; the rest is stale)
  RowMatrix scaled_;  // n by block, column k = kappa_k s_k
};

}  // namespace gpprobe
