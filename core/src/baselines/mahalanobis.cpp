#include "gpprobe/baselines/mahalanobis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Eigenvalues>

#include "gpprobe/linalg/row_products.h"

#include "common/input_checks.h"

namespace gpprobe {

using Eigen::Index;

namespace {
constexpr double kPinvCutoff = 1e-10;  // numpy.linalg.pinv's rcond
}

Result<MahalanobisDetector> MahalanobisDetector::fit(const MatrixView& observations, const std::uint8_t* labels,
                                                     std::size_t count) {
  GPPROBE_RETURN_IF_ERROR(check_observations(observations, labels, count));
  const Index O = Index(observations.rows()), d = Index(observations.cols());
  RowMatrix X(O, d);
  observations.copy_rows(0, observations.rows(), X.data());

  MahalanobisDetector detector;
  std::vector<Index> class_of(std::size_t(O), -1);
  for (std::uint8_t c : {std::uint8_t(0), std::uint8_t(1)}) {
    Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(d);
    Index n_c = 0;
    for (Index i = 0; i < O; ++i) {
      if (labels[i] != c) continue;
      sum += X.row(i);
      ++n_c;
    }
    if (n_c == 0) continue;
    const Index k = detector.means_.rows();
    detector.means_.conservativeResize(k + 1, d);
    detector.means_.row(k) = sum / double(n_c);
    for (Index i = 0; i < O; ++i)
      if (labels[i] == c) class_of[std::size_t(i)] = k;
  }
  // Centred rows, transposed (d by O) so that Sigma = C C' / O is one row product.
  RowMatrix Ct(d, O);
  for (Index i = 0; i < O; ++i) Ct.col(i) = (X.row(i) - detector.means_.row(class_of[std::size_t(i)])).transpose();
  RowMatrix Sigma(d, d);
  multiply_transposed(Ct.data(), std::size_t(d), Ct.data(), std::size_t(d), std::size_t(O), Sigma.data());
  Sigma /= double(O);

  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(Sigma);
  if (eigen.info() != Eigen::Success) {
    return Status(StatusCode::numerical_failure, "maha: the eigendecomposition of the pooled covariance failed");
  }
  const Eigen::VectorXd& lambda = eigen.eigenvalues();
  const double cutoff = kPinvCutoff * lambda.cwiseAbs().maxCoeff();
  std::vector<Index> kept;
  for (Index j = 0; j < d; ++j)
    if (std::fabs(lambda[j]) > cutoff && lambda[j] > 0) kept.push_back(j);
  detector.T_.resize(Index(kept.size()), d);
  for (std::size_t r = 0; r < kept.size(); ++r) {
    detector.T_.row(Index(r)) = eigen.eigenvectors().col(kept[r]).transpose() / std::sqrt(lambda[kept[r]]);
  }
  detector.means_T_ = detector.means_ * detector.T_.transpose();
  return detector;
}

Status MahalanobisDetector::score(const MatrixView& queries, double* distance, double* ood_score) const {
  GPPROBE_RETURN_IF_ERROR(check_queries(queries, std::size_t(means_.cols())));
  constexpr std::size_t kBlockRows = 256;
  const std::size_t n = queries.rows(), d = queries.cols(), r = rank(), classes = std::size_t(means_.rows());
  std::vector<double> block(kBlockRows * d), whitened(kBlockRows * std::max<std::size_t>(r, 1));
  for (std::size_t first = 0; first < n; first += kBlockRows) {
    const std::size_t count = std::min(kBlockRows, n - first);
    queries.copy_rows(first, count, block.data());
    if (r > 0) multiply_transposed(block.data(), count, T_.data(), r, d, whitened.data());
    for (std::size_t i = 0; i < count; ++i) {
      double best = std::numeric_limits<double>::infinity();
      for (std::size_t c = 0; c < classes; ++c) {
        double d2 = 0;
        for (std::size_t j = 0; j < r; ++j) {
          const double z = whitened[i * r + j] - means_T_(Index(c), Index(j));
          d2 += z * z;
        }
        best = std::min(best, d2);
      }
      if (distance) distance[first + i] = best;
      if (ood_score) ood_score[first + i] = -best;
    }
  }
  return Status::success();
}

}  // namespace gpprobe
