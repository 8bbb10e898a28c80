// A set of queries around a* in offsets on the moving coordinates (the L-inf box [-gamma, gamma]^k or
// the L2 ball of radius gamma), as branch and bound sees it: the root box, sound latent and
// judged-probability bounds over a box's part inside the set, and candidate points there. Private to
// core/src (probe_certificate.cpp).
//
// For the ball, boxes cover it: a box that misses the ball holds nothing (an infinite bound); one that
// meets it is bounded over its part inside the ball (box bounds with the ball's limit on the linear
// term, intersected with the whole ball's bounds); candidates always lie inside the ball.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "gpprobe/certify/branch_and_bound.h"
#include "gpprobe/certify/query_neighbourhood.h"

namespace gpprobe {

class QuerySet {
 public:
  // `around` must outlive this object.
  QuerySet(const QueryNeighbourhood& around, QueryNorm norm, double gamma);

  const Box& root() const { return root_; }

  // Latent bounds over the part of `box` inside the set; nullopt when that part is empty.
  std::optional<LatentBounds> bounds(const Box& box) const;

  // For branch and bound: the judged probability's bound over `box` (lower for a minimum) and its
  // candidates with their exact judged probabilities.
  BoxBound judged_bound(const Box& box, Extremum extremum) const;

 private:
  // In box ∩ set: the centre, the box's corner the linearised judged probability prefers (rising for
  // a maximum), and for a ball the point of its sphere along that slope; points outside the ball are
  // pulled back towards the box's point nearest a*.
  std::vector<std::vector<double>> candidates(const Box& box, Extremum extremum) const;
  bool in_set(const std::vector<double>& x) const;
  std::vector<double> nearest(const Box& box) const;
  std::vector<double> pull_into_ball(const std::vector<double>& q, const std::vector<double>& p) const;
  std::vector<double> judged_slope(const std::vector<double>& at) const;

  const QueryNeighbourhood& around_;
  QueryNorm norm_;
  double gamma_;
  std::size_t k_;
  Box root_;
  LatentBounds ball_;
};

}  // namespace gpprobe
