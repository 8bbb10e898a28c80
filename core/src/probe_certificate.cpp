#include "gpprobe/probe_certificate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "gpprobe/measure_bounds.h"
#include "gpprobe/uncertainty_measures.h"
#include "input_checks.h"

namespace gpprobe {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.14159265358979323846;

double judged(const LatentValue& v) { return uncertainty_measures(v.mean, v.variance).judged_probability; }

Interval intersect(Interval a, Interval b) { return {std::max(a.lower, b.lower), std::min(a.upper, b.upper)}; }

double squared_norm(const std::vector<double>& x) {
  double s = 0.0;
  for (double v : x) s += v * v;
  return s;
}

// The set around a*, in offsets on the moving coordinates: its bounds, and points inside it to try.
class OffsetSet {
 public:
  OffsetSet(const QueryNeighbourhood& around, QueryNorm norm, double gamma)
      : around_(around), norm_(norm), gamma_(gamma), k_(around.size()) {
    root_.lower.assign(k_, -gamma);
    root_.upper.assign(k_, gamma);
    if (norm_ == QueryNorm::two) ball_ = around.over_ball(gamma);
  }

  const Box& root() const { return root_; }

  // Over the part of `box` inside the set; nullopt when that part is empty.
  std::optional<LatentBounds> bounds(const Box& box) const {
    if (norm_ == QueryNorm::two && squared_norm(nearest(box)) > gamma_ * gamma_) return std::nullopt;
    LatentBounds b = around_.over_box(box.lower.data(), box.upper.data(), norm_ == QueryNorm::two ? gamma_ : -1.0);
    if (norm_ == QueryNorm::two) b = {intersect(b.mean, ball_.mean), intersect(b.variance, ball_.variance)};
    return b;
  }

  // Candidates in box ∩ set: the centre, the box's corner that the linearised judged probability
  // prefers (rising for `maximum`), and for a ball the point of its sphere along that slope; points
  // outside the ball are pulled back towards the box's point nearest a*.
  std::vector<std::vector<double>> candidates(const Box& box, Extremum extremum) const {
    std::vector<std::vector<double>> points;
    const std::vector<double> centre = box.centre();
    const std::vector<double> inside = norm_ == QueryNorm::two ? nearest(box) : centre;
    const std::vector<double> slope = judged_slope(in_set(centre) ? centre : inside);
    const double sign = extremum == Extremum::maximum ? 1.0 : -1.0;
    std::vector<double> corner(k_), along(k_);
    double slope_norm = 0.0;
    for (double s : slope) slope_norm += s * s;
    slope_norm = std::sqrt(slope_norm);
    for (std::size_t j = 0; j < k_; ++j) {
      corner[j] = sign * slope[j] >= 0.0 ? box.upper[j] : box.lower[j];
      along[j] = slope_norm > 0.0 ? sign * gamma_ * slope[j] / slope_norm : 0.0;
    }
    points.push_back(in_set(centre) ? centre : inside);
    points.push_back(in_set(corner) ? corner : pull_into_ball(inside, corner));
    if (norm_ == QueryNorm::two && box.contains(along) && in_set(along)) points.push_back(along);
    return points;
  }

 private:
  bool in_set(const std::vector<double>& x) const {
    return norm_ == QueryNorm::inf || squared_norm(x) <= gamma_ * gamma_;
  }

  std::vector<double> nearest(const Box& box) const {
    std::vector<double> q(k_);
    for (std::size_t j = 0; j < k_; ++j) q[j] = std::clamp(0.0, box.lower[j], box.upper[j]);
    return q;
  }

  // The point of the segment from q (inside the ball) to p on the sphere, slightly inside.
  std::vector<double> pull_into_ball(const std::vector<double>& q, const std::vector<double>& p) const {
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
  std::vector<double> judged_slope(const std::vector<double>& at) const {
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

  const QueryNeighbourhood& around_;
  QueryNorm norm_;
  double gamma_;
  std::size_t k_;
  Box root_;
  LatentBounds ball_;
};

struct Found {
  double value;
  std::vector<double> offset;
};

// Judged-probability bounds of one box and its candidates, as the branch and bound's oracle sees them.
BoxBound bound_judged(const OffsetSet& set, const QueryNeighbourhood& around, const Box& box, Extremum extremum) {
  const std::optional<LatentBounds> latent = set.bounds(box);
  if (!latent) return {extremum == Extremum::minimum ? kInfinity : -kInfinity, {}};
  const Interval p = measure_bounds(latent->mean, latent->variance).judged_probability;
  BoxBound out{extremum == Extremum::minimum ? p.lower : p.upper, {}};
  for (std::vector<double>& x : set.candidates(box, extremum)) {
    const double value = judged(around.at(x.data()));
    out.candidates.push_back({std::move(x), value});
  }
  return out;
}

Found best_of(const BoxBound& b, Extremum extremum) {
  Found best{extremum == Extremum::minimum ? kInfinity : -kInfinity, {}};
  for (const BoxPoint& c : b.candidates)
    if (extremum == Extremum::minimum ? c.value < best.value : c.value > best.value) best = {c.value, c.point};
  return best;
}

}  // namespace

const char* norm_name(QueryNorm norm) { return norm == QueryNorm::inf ? "inf" : "2"; }

const char* verdict_flip_name(VerdictFlip flip) {
  switch (flip) {
    case VerdictFlip::no: return "no";
    case VerdictFlip::yes: return "yes";
    case VerdictFlip::unknown: return "unknown";
  }
  return "unknown";
}

Result<ProbeCertifier> ProbeCertifier::make(const Probe& probe, const CertifyOptions& options) {
  if (!std::isfinite(options.gamma) || options.gamma < 0.0) {
    return Status(StatusCode::invalid_argument, "gamma must be a finite number >= 0, got " + std::to_string(options.gamma));
  }
  if (!std::isfinite(options.tolerance) || options.tolerance < 0.0) {
    return Status(StatusCode::invalid_argument,
                  "tolerance must be a finite number >= 0, got " + std::to_string(options.tolerance));
  }
  if (probe.dimension() == 0) {
    return Status(StatusCode::invalid_argument, "the probe has no dimension yet: it has no observation");
  }
  auto weights = std::make_shared<const LatentWeights>(probe.latent_weights());
  Result<MovingCoordinates> moving = MovingCoordinates::make(std::move(weights), options.dims);
  if (!moving.ok()) return moving.status();
  return ProbeCertifier(options, std::move(moving).value());
}

Result<ProbeCertificate> ProbeCertifier::certify(const double* query, const ProgressCallback& progress) const {
  GPPROBE_RETURN_IF_ERROR(check_finite_values(query, moving_.weights().dimension(), "the query"));
  const QueryNeighbourhood around(moving_, query);
  const OffsetSet set(around, options_.norm, options_.gamma);
  ProbeCertificate cert;
  const std::vector<double> zero(around.size(), 0.0);
  cert.judged_probability = judged(around.at(zero.data()));

  const LatentBounds latent = *set.bounds(set.root());
  const MeasureBounds measures = measure_bounds(latent.mean, latent.variance);
  cert.latent_mean = latent.mean;
  cert.latent_variance = latent.variance;
  cert.episteme = measures.episteme;
  cert.judged_probability_bounds = measures.judged_probability;

  Found lowest = best_of(bound_judged(set, around, set.root(), Extremum::minimum), Extremum::minimum);
  Found highest = best_of(bound_judged(set, around, set.root(), Extremum::maximum), Extremum::maximum);
  if (options_.search) {
    BranchAndBoundOptions search;
    search.tolerance = options_.tolerance;
    search.max_iterations = options_.max_iterations;
    search.time_limit_seconds = options_.time_limit_seconds;
    search.progress = progress;
    cert.status = SearchStatus::converged;
    for (Extremum extremum : {Extremum::minimum, Extremum::maximum}) {
      const BoundOracle oracle = [&](const Box& box) { return bound_judged(set, around, box, extremum); };
      Result<BranchAndBoundResult> r = branch_and_bound(extremum, set.root(), oracle, search);
      if (!r.ok()) return r.status();
      const BranchAndBoundResult& s = r.value();
      cert.iterations += s.iterations;
      if (s.status != SearchStatus::converged) cert.status = s.status;
      if (extremum == Extremum::minimum) {
        cert.judged_probability_bounds.lower = std::max(cert.judged_probability_bounds.lower, s.lower);
        if (s.upper < lowest.value) lowest = {s.upper, s.witness};
      } else {
        cert.judged_probability_bounds.upper = std::min(cert.judged_probability_bounds.upper, s.upper);
        if (s.lower > highest.value) highest = {s.lower, s.witness};
      }
      if (s.status == SearchStatus::cancelled) break;
    }
  }
  cert.lowest_found = lowest.value;
  cert.highest_found = highest.value;
  cert.lowest_witness = around.query(lowest.offset.data());
  cert.highest_witness = around.query(highest.offset.data());

  const bool positive = cert.judged_probability >= 0.5;
  if (positive ? cert.lowest_found < 0.5 : cert.highest_found >= 0.5) {
    cert.verdict_can_flip = VerdictFlip::yes;
  } else if (positive ? cert.judged_probability_bounds.lower >= 0.5 : cert.judged_probability_bounds.upper < 0.5) {
    cert.verdict_can_flip = VerdictFlip::no;
  }
  return cert;
}

Result<std::vector<ProbeCertificate>> ProbeCertifier::certify(const MatrixView& queries,
                                                              const ProgressCallback& progress) const {
  GPPROBE_RETURN_IF_ERROR(check_queries(queries, moving_.weights().dimension()));
  const std::size_t n = queries.rows(), d = queries.cols();
  std::vector<ProbeCertificate> out;
  out.reserve(n);
  std::vector<double> row(d);
  for (std::size_t q = 0; q < n; ++q) {
    queries.copy_rows(q, 1, row.data());
    Result<ProbeCertificate> cert = certify(row.data());
    if (!cert.ok()) return cert.status();
    out.push_back(std::move(cert).value());
    if (!report_progress(progress, q + 1, n)) {
      return Status(StatusCode::cancelled, "certification cancelled after " + count_of(q + 1, "query", "queries") +
                                               " of " + std::to_string(n));
    }
  }
  return out;
}

}  // namespace gpprobe
