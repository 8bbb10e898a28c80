// The coordinates J of a query that a certified set lets move (the others stay fixed), with what the
// bounds of query_neighbourhood.h need from the probe's weights restricted to them, shared by every
// query: u_J, M_JJ, |M_JJ| (entrywise) and lambda >= the largest eigenvalue of M_JJ (its own, computed
// with a backward-error margin, for up to 256 coordinates; beyond, the whole M's, by interlacing).
//
//   weights  the probe's latent in weight space (latent_weights.h), dimension d
//   dims     k distinct coordinates < d in any order (the offsets of a set follow this order);
//            empty means all d
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "gpprobe/common/status.h"
#include "gpprobe/probe/latent_weights.h"

namespace gpprobe {

class MovingCoordinates {
 public:
  // invalid_argument "coordinate 9 is out of range: ..." / "coordinate 3 is listed twice".
  static Result<MovingCoordinates> make(std::shared_ptr<const LatentWeights> weights, std::vector<std::size_t> dims);

  const LatentWeights& weights() const { return *weights_; }
  const std::vector<std::size_t>& dims() const { return dims_; }
  std::size_t size() const { return dims_.size(); }

  const Eigen::VectorXd& u_J() const { return u_J_; }            // k
  const Eigen::MatrixXd& M_JJ() const { return M_JJ_; }          // k by k
  const Eigen::MatrixXd& abs_M_JJ() const { return abs_M_JJ_; }  // k by k
  double lambda() const { return lambda_; }

 private:
  std::shared_ptr<const LatentWeights> weights_;
  std::vector<std::size_t> dims_;
  Eigen::VectorXd u_J_;
  Eigen::MatrixXd M_JJ_, abs_M_JJ_;
  double lambda_ = 0.0;
};

}  // namespace gpprobe
