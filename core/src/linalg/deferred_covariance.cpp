#include "linalg/deferred_covariance.h"

#include <algorithm>

#include "gpprobe/linalg/row_products.h"

#include "classification/factor.h"

namespace gpprobe {

void DeferredCovariance::reset(RowMatrix sigma) {
  base_ = std::move(sigma);
  S_.resize(base_.rows(), Eigen::Index(block_));  // only the first pending_ columns are ever read
  scaled_.resize(base_.rows(), Eigen::Index(block_));
  pending_ = 0;
}

void DeferredCovariance::column(std::size_t i, double* out) const {
  const std::size_t n = std::size_t(base_.rows());
  // sum_k s_k kappa_k s_k[i] over the pending downdates only (the columns beyond them are stale).
  std::fill(out, out + n, 0.0);
  if (pending_ > 0)
    add_product_transposed(S_.data(), block_, scaled_.data() + i * block_, block_, n, 1, pending_, 1.0, out, 1);
  // Entry (j, i) of the symmetric matrix from the lower triangle: row i before the diagonal, column i after.
  const double* row = base_.data() + i * n;
  for (std::size_t j = 0; j < i; ++j) out[j] = row[j] - out[j];
  for (std::size_t j = i; j < n; ++j) out[j] = base_.data()[j * n + i] - out[j];
}

void DeferredCovariance::downdate(const double* s, double kappa) {
  const std::size_t n = std::size_t(base_.rows());
  for (std::size_t j = 0; j < n; ++j) {
    S_(Eigen::Index(j), Eigen::Index(pending_)) = s[j];
    scaled_(Eigen::Index(j), Eigen::Index(pending_)) = kappa * s[j];
  }
  if (++pending_ == block_) flush();
}

void DeferredCovariance::flush() {
  const std::size_t n = std::size_t(base_.rows());
  add_lower_product(scaled_.data(), block_, S_.data(), block_, n, pending_, -1.0, base_.data());
  pending_ = 0;  // the columns stay as they are: only the first pending_ are ever read
}

}  // namespace gpprobe
