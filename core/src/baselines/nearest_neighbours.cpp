#include "gpprobe/baselines/nearest_neighbours.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gpprobe/linalg/row_products.h"

#include "common/input_checks.h"

namespace gpprobe {

void normalise_rows(double* x, std::size_t count, std::size_t d) {
  for (std::size_t i = 0; i < count; ++i) {
    double* row = x + i * d;
    double norm2 = 0;
    for (std::size_t j = 0; j < d; ++j) norm2 += row[j] * row[j];
    if (norm2 == 0) continue;
    const double scale = 1.0 / std::sqrt(norm2);
    for (std::size_t j = 0; j < d; ++j) row[j] *= scale;
  }
}

Result<NearestNeighbourDetector> NearestNeighbourDetector::fit(const MatrixView& observations, std::size_t k) {
  if (observations.rows() == 0) return Status(StatusCode::invalid_argument, "observations are empty (0 rows)");
  if (observations.cols() == 0) return Status(StatusCode::invalid_argument, "observations have 0 columns");
  GPPROBE_RETURN_IF_ERROR(check_finite(observations, "observations"));
  if (k == 0 || k > observations.rows()) {
    return Status(StatusCode::invalid_argument, "knn: k must be between 1 and the number of observations (" +
                                                    std::to_string(observations.rows()) + "), got " +
                                                    std::to_string(k));
  }
  NearestNeighbourDetector detector;
  detector.k_ = k;
  const std::size_t O = observations.rows(), d = observations.cols();
  detector.Z_.resize(Eigen::Index(O), Eigen::Index(d));
  observations.copy_rows(0, O, detector.Z_.data());
  normalise_rows(detector.Z_.data(), O, d);
  detector.norms2_ = detector.Z_.rowwise().squaredNorm();
  return detector;
}

Status NearestNeighbourDetector::score(const MatrixView& queries, double* distance, double* ood_score) const {
  GPPROBE_RETURN_IF_ERROR(check_queries(queries, std::size_t(Z_.cols())));
  constexpr std::size_t kBlockRows = 256;
  const std::size_t n = queries.rows(), d = queries.cols(), O = std::size_t(Z_.rows());
  std::vector<double> block(kBlockRows * d), products(kBlockRows * O), d2(O);
  for (std::size_t first = 0; first < n; first += kBlockRows) {
    const std::size_t count = std::min(kBlockRows, n - first);
    queries.copy_rows(first, count, block.data());
    normalise_rows(block.data(), count, d);
    multiply_transposed(block.data(), count, Z_.data(), O, d, products.data());
    for (std::size_t i = 0; i < count; ++i) {
      const double* q = &block[i * d];
      double q2 = 0;
      for (std::size_t j = 0; j < d; ++j) q2 += q[j] * q[j];
      for (std::size_t o = 0; o < O; ++o)
        d2[o] = std::max(0.0, q2 + norms2_[Eigen::Index(o)] - 2 * products[i * O + o]);
      std::nth_element(d2.begin(), d2.begin() + std::ptrdiff_t(k_ - 1), d2.end());
      const double dist = std::sqrt(d2[k_ - 1]);
      if (distance) distance[first + i] = dist;
      if (ood_score) ood_score[first + i] = -dist;
    }
  }
  return Status::success();
}

}  // namespace gpprobe
