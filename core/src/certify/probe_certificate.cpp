#include "gpprobe/certify/probe_certificate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "gpprobe/certify/measure_bounds.h"
#include "gpprobe/probe/uncertainty_measures.h"

#include "certify/query_set.h"
#include "common/input_checks.h"
#include "common/numeric_constants.h"

namespace gpprobe {

namespace {

struct Found {
  double value;
  std::vector<double> offset;
};

Found best_of(const BoxBound& b, Extremum extremum) {
  Found best{extremum == Extremum::minimum ? kInfinity : -kInfinity, {}};
  for (const BoxPoint& c : b.candidates)
    if (extremum == Extremum::minimum ? c.value < best.value : c.value > best.value) best = {c.value, c.point};
  return best;
}

// The certificate's arithmetic forms squares of the query's coordinates and of gamma (|ã|^2, ã'Mã,
// interval products of them): taken directly while max(|a*|_inf, gamma) stays below 2^448, where the
// largest of them (~2^900 times the dimension) cannot overflow. Past it the query is rescaled by a
// power of two t (query_neighbourhood.h), which needs the set to stay clear of the origin: the set's
// nearest query must keep 2^-32 of max(|a*|_inf, gamma) (else the 1 of [a; 1], then t < 2^-448,
// would have to be resolved beside coordinates 2^448 times larger, past double range).
constexpr int kDirectExponent = 448;
constexpr double kNearestSquared = 0x1p-64;  // (2^-32)^2, in units of the rescaled set

// The smallest |a|^2 over the set (without the augmentation), from the rescaled centre c and radius.
double nearest_squared(const std::vector<double>& c, const std::vector<std::size_t>& dims, QueryNorm norm,
                       double gamma) {
  std::vector<bool> moves(c.size(), false);
  double fixed = 0.0, moving = 0.0;
  for (std::size_t j : dims) moves[j] = true;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (!moves[i]) {
      fixed += c[i] * c[i];
    } else if (norm == QueryNorm::inf) {
      const double gap = std::max(0.0, std::fabs(c[i]) - gamma);
      moving += gap * gap;
    } else {
      moving += c[i] * c[i];
    }
  }
  if (norm == QueryNorm::two) {
    const double gap = std::max(0.0, std::sqrt(moving) - gamma);
    moving = gap * gap;
  }
  return fixed + moving;
}

bool finite(Interval i) { return std::isfinite(i.lower) && std::isfinite(i.upper); }

}  // namespace

Result<ProbeCertifier> ProbeCertifier::make(const Probe& probe, const CertifyOptions& options) {
  if (!std::isfinite(options.gamma) || options.gamma < 0.0) {
    return Status(StatusCode::invalid_argument,
                  "gamma must be a finite number >= 0, got " + number_text(options.gamma));
  }
  if (!std::isfinite(options.tolerance) || options.tolerance < 0.0) {
    return Status(StatusCode::invalid_argument,
                  "tolerance must be a finite number >= 0, got " + number_text(options.tolerance));
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
  const auto started = std::chrono::steady_clock::now();  // one clock for both searches of the query
  const std::size_t d = moving_.weights().dimension();
  GPPROBE_RETURN_IF_ERROR(check_finite_values(query, d, "the query"));
  double largest = 0.0;
  for (std::size_t i = 0; i < d; ++i) largest = std::max(largest, std::fabs(query[i]));
  const double gamma = options_.gamma;
  if (!std::isfinite(largest + gamma)) {
    return Status(StatusCode::invalid_argument,
                  "the set around the query reaches beyond the largest finite number: its largest coordinate " +
                      number_text(largest) + " plus gamma " + number_text(gamma) + " overflows");
  }
  // t = 1, or 2^-k with max(|a*|_inf, gamma) t in [1/2, 1): exact on every normal number; a coordinate
  // that becomes subnormal moves the set by < 2^-1074 in these units, ~2^-1040 of its nearest query,
  // far inside the weights' rounding allowances. gamma t is rounded up when it becomes subnormal (a
  // larger set: still sound).
  const int exponent = std::ilogb(std::max(largest, gamma));
  const double t = std::max(largest, gamma) < std::ldexp(1.0, kDirectExponent) ? 1.0 : std::ldexp(1.0, -exponent - 1);
  std::vector<double> centre(query, query + d);
  double radius = gamma;
  if (t != 1.0) {
    for (double& x : centre) x *= t;
    radius = gamma * t;
    if (radius / t < gamma) radius = std::nextafter(radius, kInfinity);
    if (nearest_squared(centre, moving_.dims(), options_.norm, radius) < kNearestSquared) {
      return Status(StatusCode::invalid_argument,
                    "cannot certify: the set around the query (largest coordinate " + number_text(largest) +
                        ", gamma " + number_text(gamma) +
                        ") comes within 2^-32 of its size of the origin; past 2^448 (7.3e134) in the query's "
                        "largest coordinate or gamma, a certified set must stay clear of the origin");
    }
  }
  const QueryNeighbourhood around(moving_, centre.data(), t);
  const QuerySet set(around, options_.norm, radius);
  // A witness offset (in units of t) as a query: a* + offset / t, kept inside the set.
  auto witness = [&](const std::vector<double>& offset) {
    if (t == 1.0) return around.query(offset.data());
    std::vector<double> D(offset.size());
    double norm2 = 0.0;
    for (std::size_t j = 0; j < D.size(); ++j) {
      D[j] = std::clamp(offset[j] / t, -gamma, gamma);
      norm2 += D[j] * D[j];
    }
    const double shrink = options_.norm == QueryNorm::two && std::sqrt(norm2) > gamma ? gamma / std::sqrt(norm2) : 1.0;
    std::vector<double> a(query, query + d);
    for (std::size_t j = 0; j < D.size(); ++j) a[moving_.dims()[j]] += shrink * D[j];
    return a;
  };
  ProbeCertificate cert;
  const std::vector<double> zero(around.size(), 0.0);
  const LatentValue at_centre = around.at(zero.data());
  cert.judged_probability = uncertainty_measures(at_centre.mean, at_centre.variance).judged_probability;

  const LatentBounds latent = *set.bounds(set.root());
  const MeasureBounds measures = measure_bounds(latent.mean, latent.variance);
  cert.latent_mean = latent.mean;
  cert.latent_variance = latent.variance;
  cert.episteme = measures.episteme;
  cert.judged_probability_bounds = measures.judged_probability;

  Found lowest = best_of(set.judged_bound(set.root(), Extremum::minimum), Extremum::minimum);
  Found highest = best_of(set.judged_bound(set.root(), Extremum::maximum), Extremum::maximum);
  if (options_.search) {
    BranchAndBoundOptions search;
    search.tolerance = options_.tolerance;
    search.max_iterations = options_.max_iterations;
    search.time_limit_seconds = options_.time_limit_seconds;
    search.started = started;
    search.progress = progress;
    cert.status = SearchStatus::converged;
    for (Extremum extremum : {Extremum::minimum, Extremum::maximum}) {
      const BoundOracle oracle = [&](const Box& box) { return set.judged_bound(box, extremum); };
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
  cert.lowest_witness = witness(lowest.offset);
  cert.highest_witness = witness(highest.offset);

  const bool positive = cert.judged_probability >= 0.5;
  if (positive ? cert.lowest_found < 0.5 : cert.highest_found >= 0.5) {
    cert.verdict_can_flip = VerdictFlip::yes;
  } else if (positive ? cert.judged_probability_bounds.lower >= 0.5 : cert.judged_probability_bounds.upper < 0.5) {
    cert.verdict_can_flip = VerdictFlip::no;
  }
  // Sound or refused: a bound that is not a number, or misses the query's own value, is never reported.
  const bool consistent =
      finite(cert.judged_probability_bounds) && finite(cert.latent_mean) && finite(cert.latent_variance) &&
      !std::isnan(cert.episteme.lower) && !std::isnan(cert.episteme.upper) && std::isfinite(cert.lowest_found) &&
      std::isfinite(cert.highest_found) && cert.judged_probability_bounds.contains(cert.judged_probability) &&
      cert.latent_mean.contains(at_centre.mean) && cert.latent_variance.contains(at_centre.variance);
  if (!consistent) {
    return Status(StatusCode::numerical_failure,
                  "the certificate of the query (largest coordinate " + number_text(largest) + ", gamma " +
                      number_text(gamma) + ") is not sound in double precision: refused rather than reported");
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
