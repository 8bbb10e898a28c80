#include "gpprobe/certify/probe_certificate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "gpprobe/certify/measure_bounds.h"
#include "gpprobe/probe/uncertainty_measures.h"
#include "common/input_checks.h"
#include "certify/query_set.h"
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

}  // namespace

Result<ProbeCertifier> ProbeCertifier::make(const Probe& probe, const CertifyOptions& options) {
  if (!std::isfinite(options.gamma) || options.gamma < 0.0) {
    return Status(StatusCode::invalid_argument, "gamma must be a finite number >= 0, got " + number_text(options.gamma));
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
  GPPROBE_RETURN_IF_ERROR(check_finite_values(query, moving_.weights().dimension(), "the query"));
  const QueryNeighbourhood around(moving_, query);
  const QuerySet set(around, options_.norm, options_.gamma);
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
