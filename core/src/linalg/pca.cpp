#include "gpprobe/linalg/pca.h"

#include <algorithm>
#include <string>

#include <Eigen/QR>
#include <Eigen/SVD>

#include "gpprobe/common/random_stream.h"
#include "gpprobe/linalg/row_products.h"

namespace gpprobe {

namespace {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr std::size_t kPcaBlockRows = 512;

// Walks X in blocks of centred float64 rows: visit(first, count, block) with block count by d.
class CenteredBlocks {
 public:
  CenteredBlocks(const MatrixView& X, const VectorXd& mean) : X_(X), mean_(mean), block_(kPcaBlockRows * X.cols()) {}

  template <class Visit>
  void for_each(Visit&& visit) {
    const std::size_t n = X_.rows(), d = X_.cols();
    for (std::size_t first = 0; first < n; first += kPcaBlockRows) {
      const std::size_t count = std::min(kPcaBlockRows, n - first);
      X_.copy_rows(first, count, block_.data());
      for (std::size_t i = 0; i < count; ++i) {
        Eigen::Map<Eigen::RowVectorXd>(block_.data() + i * d, Index(d)) -= mean_.transpose();
      }
      visit(first, count, block_.data());
    }
  }

 private:
  const MatrixView& X_;
  const VectorXd& mean_;
  std::vector<double> block_;
};

// Orthonormal columns spanning the columns of A (thin Householder QR).
MatrixXd orthonormal_columns(const MatrixXd& A) {
  Eigen::HouseholderQR<MatrixXd> qr(A);
  return qr.householderQ() * MatrixXd::Identity(A.rows(), A.cols());
}

}  // namespace

Result<PrincipalComponents> principal_components(const MatrixView& X, std::size_t k, std::uint64_t seed,
                                                 int power_iterations, const ProgressCallback& progress) {
  const std::size_t n = X.rows(), d = X.cols();
  if (n < 2) return Status(StatusCode::invalid_argument, "PCA needs at least 2 rows, got " + std::to_string(n));
  if (k < 1 || k > std::min(n, d)) {
    return Status(StatusCode::invalid_argument, "PCA of a " + std::to_string(n) + " by " + std::to_string(d) +
                                                    " matrix cannot have " + std::to_string(k) + " components");
  }
  GPPROBE_RETURN_IF_ERROR(check_finite(X, "embeddings"));
  const std::size_t l = std::min({k + 8, n, d});
  const std::size_t passes = 3 + 2 * std::size_t(std::max(power_iterations, 0));
  std::size_t pass = 0;
  auto next_pass = [&]() -> Status {
    ++pass;
    if (!report_progress(progress, pass, passes)) return Status(StatusCode::cancelled, "PCA cancelled");
    return Status::success();
  };

  PrincipalComponents pc;
  pc.mean = VectorXd::Zero(Index(d));
  {
    std::vector<double> block(kPcaBlockRows * d);
    for (std::size_t first = 0; first < n; first += kPcaBlockRows) {
      const std::size_t count = std::min(kPcaBlockRows, n - first);
      X.copy_rows(first, count, block.data());
      pc.mean += Eigen::Map<const RowMatrix>(block.data(), Index(count), Index(d)).colwise().sum().transpose();
    }
    pc.mean /= double(n);
  }
  GPPROBE_RETURN_IF_ERROR(next_pass());

  CenteredBlocks blocks(X, pc.mean);
  RandomStream rng(seed);
  RowMatrix omega_t(static_cast<Index>(l), static_cast<Index>(d));  // Omega', so Xc Omega is a row product
  for (Index i = 0; i < omega_t.size(); ++i) omega_t.data()[i] = rng.normal();

  RowMatrix Y(static_cast<Index>(n), static_cast<Index>(l));
  pc.total_variance = 0.0;
  blocks.for_each([&](std::size_t first, std::size_t count, const double* block) {
    multiply_transposed(block, count, omega_t.data(), l, d, Y.data() + first * l);
    pc.total_variance += Eigen::Map<const VectorXd>(block, Index(count * d)).squaredNorm();
  });
  pc.total_variance /= double(n - 1);
  GPPROBE_RETURN_IF_ERROR(next_pass());

  // Xc' Y accumulated block by block into a d by l row-major matrix.
  auto transposed_times = [&](const RowMatrix& Yn) {
    RowMatrix Z = RowMatrix::Zero(Index(d), Index(l));
    blocks.for_each([&](std::size_t first, std::size_t count, const double* block) {
      accumulate_transposed_product(block, Yn.data() + first * l, count, d, l, Z.data());
    });
    return Z;
  };
  RowMatrix Q = orthonormal_columns(Y);
  for (int q = 0; q < power_iterations; ++q) {
    const RowMatrix Z = orthonormal_columns(transposed_times(Q));  // d by l
    GPPROBE_RETURN_IF_ERROR(next_pass());
    const RowMatrix Zt = Z.transpose();
    blocks.for_each([&](std::size_t first, std::size_t count, const double* block) {
      multiply_transposed(block, count, Zt.data(), l, d, Y.data() + first * l);
    });
    Q = orthonormal_columns(Y);
    GPPROBE_RETURN_IF_ERROR(next_pass());
  }

  // B' = Xc' Q (d by l); its SVD B' = V S U' gives the right singular vectors V of B directly.
  const MatrixXd Bt = transposed_times(Q);
  GPPROBE_RETURN_IF_ERROR(next_pass());
  Eigen::JacobiSVD<MatrixXd> svd(Bt, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const MatrixXd V = svd.matrixU().leftCols(Index(k));  // d by k: the components
  const MatrixXd U = svd.matrixV().leftCols(Index(k));  // l by k
  const VectorXd S = svd.singularValues().head(Index(k));

  pc.components = V.transpose();
  pc.scores = Q * U * S.asDiagonal();
  pc.explained_variance = S.array().square() / double(n - 1);
  for (Index j = 0; j < Index(k); ++j) {
    Index largest = 0;
    pc.components.row(j).cwiseAbs().maxCoeff(&largest);
    if (pc.components(j, largest) < 0) {
      pc.components.row(j) *= -1.0;
      pc.scores.col(j) *= -1.0;
    }
  }
  return pc;
}

}  // namespace gpprobe
