#include "gpprobe/certify/moving_coordinates.h"

#include <algorithm>
#include <string>

#include "common/input_checks.h"

namespace gpprobe {

using Eigen::Index;

namespace {

// Moving coordinates up to this many get their own eigenvalue bound; beyond, lambda_max(M) bounds
// lambda_max(M_JJ) (interlacing) at no cost.
constexpr std::size_t kOwnEigenvalueLimit = 256;

}  // namespace

Result<MovingCoordinates> MovingCoordinates::make(std::shared_ptr<const LatentWeights> weights,
                                                  std::vector<std::size_t> dims) {
  const std::size_t d = weights->dimension();
  GPPROBE_RETURN_IF_ERROR(check_coordinates(
      &dims, d,
      "queries have " + count_of(d, "column") + " (coordinates 0 to " + std::to_string(d == 0 ? 0 : d - 1) + ")"));
  MovingCoordinates moving;
  const Index k = Index(dims.size());
  moving.u_J_.resize(k);
  moving.M_JJ_.resize(k, k);
  for (Index a = 0; a < k; ++a) {
    moving.u_J_[a] = weights->u[Index(dims[std::size_t(a)])];
    for (Index b = 0; b < k; ++b)
      moving.M_JJ_(a, b) = weights->M(Index(dims[std::size_t(a)]), Index(dims[std::size_t(b)]));
  }
  moving.abs_M_JJ_ = moving.M_JJ_.cwiseAbs();
  moving.lambda_ = weights->rayleigh_max;
  if (dims.size() <= kOwnEigenvalueLimit)
    moving.lambda_ = std::min(moving.lambda_, largest_eigenvalue_bound(moving.M_JJ_));
  moving.weights_ = std::move(weights);
  moving.dims_ = std::move(dims);
  return moving;
}

}  // namespace gpprobe
