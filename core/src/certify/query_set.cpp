#include "certify/query_set.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpprobe/certify/measure_bounds.h"
#include "gpprobe/probe/uncertainty_measures.h"

#include "common/numeric_constants.h"

namespace gpprobe {

namespace {

double squared_norm(const std::vector<double>& x) {
  double s = 0.0;
  for (double v : x) s += v * v;
  return s;
}

}  // namespace

QuerySet::QuerySet(const QueryNeighbourhood& around, QueryNorm norm, double gamma)
    : around_(around), norm_(norm), gamma_(gamma), k_(around.size()) {
  root_.lower.assign(k_, -gamma);
  root_.upper.assign(k_, gamma);
  if (norm_ == QueryNorm::two) ball_ = around.over_ball(gamma);
}

std::optional<LatentBounds> QuerySet::bounds(const Box& box) const {
  if (norm_ == QueryNorm::inf) return around_.over_box(box.lower.data(), box.upper.data());
  if (squared_norm(nearest(box)) > gamma_ * gamma_) return std::nullopt;
  const LatentBounds b = around_.over_box(box.lower.data(), box.upper.data(), gamma_);
  return LatentBounds{intersect(b.mean, ball_.mean), intersect(b.variance, ball_.variance)};
}

BoxBound QuerySet::judged_bound(const Box& box, Extremum extremum) const {
  const std::optional<LatentBounds> latent = bounds(box);
  if (!latent) return {extremum == Extremum::minimum ? kInfinity : -kInfinity, {}};
  const Interval p = measure_bounds(latent->mean, latent->variance).judged_probability;
  BoxBound out{extremum == Extremum::minimum ? p.lower : p.upper, {}};
  for (std::vector<double>& x : candidates(box, extremum)) {
    const LatentValue at = around_.at(x.data());
    out.candidates.push_back({std::move(x), uncertainty_measures(at.mean, at.variance).judged_probability});
  }
  return out;
}

std::vector<std::vector<double>> QuerySet::candidates(const Box& box, Extremum extremum) const {
  const std::vector<double> centre = box.centre();
  const std::vector<double> inside = norm_ == QueryNorm::two ? nearest(box) : centre;
  const std::vector<double> slope = judged_slope(in_set(centre) ? centre : inside);
  const double sign = extremum == Extremum::maximum ? 1.0 : -1.0;
  const double slope_norm = std::sqrt(squared_norm(slope));
  std::vector<double> corner(k_), along(k_);
  for (std::size_t j = 0; j < k_; ++j) {
    corner[j] = sign * slope[j] >= 0.0 ? box.upper[j] : box.lower[j];
    along[j] = slope_norm > 0.0 ? sign * gamma_ * slope[j] / slope_norm : 0.0;
  }
  std::vector<std::vector<double>> points;
  points.push_back(in_set(centre) ? centre : inside);
  points.push_back(in_set(corner) ? corner : pull_into_ball(inside, corner));
  if (norm_ == QueryNorm::two && box.contains(along) && in_set(along)) points.push_back(along);
  return points;
}

bool QuerySet::in_set(const std::vector<double>& x) const {
  return norm_ == QueryNorm::inf || squared_norm(x) <= gamma_ * gamma_;
}

std::vector<double> QuerySet::nearest(const Box& box) const {
  std::vector<double> q(k_);
  for (std::size_t j = 0; j < k_; ++j) q[j] = std::clamp(0.0, box.lower[j], box.upper[j]);
  return q;
}

// The point of the segment from q (inside the ball) to p on the sphere, slightly inside.
std::vector<double> QuerySet::pull_into_ball(const std::vector<double>& q, const std::vector<double>& p) const {
  double dd = 0.0, qd = 0.0;
  for (std::size_t j = 0; j < k_; ++j) dd += (p[j] - q[j]) * (p[j] - q[j]), qd += q[j] * (p[j] - q[j]);
  const double c = squared_norm(q) - gamma_ * gamma_;  // <= 0
  double t = dd > 0.0 ? (-qd + std::sqrt(std::max(0.0, qd * qd - dd * c))) / dd : 0.0;
  t = std::clamp(t * (1.0 - 1e-12), 0.0, 1.0);
  std::vector<double> x(k_);
  for (std::size_t j = 0; j < k_; ++j) x[j] = q[j] + t * (p[j] - q[j]);
  return in_set(x) ? x : q;
}

// The gradient of the judged probability in the offsets, through MacKay's approximation
// sigmoid(kappa m), kappa = (1 + pi s2 / 8)^-1/2: only its direction matters here.
std::vector<double> QuerySet::judged_slope(const std::vector<double>& at) const {
  std::vector<double> dm(k_), ds(k_), slope(k_);
  around_.slopes(at.data(), dm.data(), ds.data());
  const LatentValue v = around_.at(at.data());
  const double kappa = 1.0 / std::sqrt(1.0 + kPi * v.variance / 8.0);
  const double g = 1.0 / (1.0 + std::exp(-kappa * v.mean));
  const double density = g * (1.0 - g);
  for (std::size_t j = 0; j < k_; ++j)
    slope[j] = density * (kappa * dm[j] - v.mean * (kPi / 16.0) * kappa * kappa * kappa * ds[j]);
  return slope;
}

}  // namespace gpprobe
