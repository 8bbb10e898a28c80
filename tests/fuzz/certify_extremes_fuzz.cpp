// The probe's certificate (ProbeCertifier) at extreme magnitudes (issue 23, item 1): queries, radii and
// observations from 1e-300 to the largest double, zeros, either norm, some or all coordinates moving,
// with and without branch and bound. A certificate is sound or refused: refusals are invalid_argument,
// non_finite or numerical_failure values, never a crash; a certificate has finite bounds in order
// (the episteme's upper end may be +inf), the judged probability at the query equals the probe's own
// score, and the query, the witnesses and sampled points of the set, scored by the probe
// (Probe::score, another evaluation path), lie inside its bounds.
#include <algorithm>
#include <vector>

#include "gpprobe/certify/probe_certificate.h"
#include "gpprobe/probe/probe.h"

#include "fuzz_support.h"

using namespace gpprobe;

namespace {

// Mostly extreme magnitudes: +-10^[-300, 308], zero, or an ordinary value.
double extreme(fuzz::Input& in) {
  const std::uint8_t kind = in.byte();
  if (kind < 24) return 0.0;
  if (kind < 96) return in.value();
  const double magnitude = in.positive(-300.0, 308.0);
  return kind & 1 ? -magnitude : magnitude;
}

struct Scored {
  double judged = 0, episteme = 0, mean = 0, variance = 0;
};

bool score(const Probe& probe, const std::vector<double>& a, Scored* s) {
  ProbeScoreColumns c;
  c.judged_probability = &s->judged;
  c.episteme = &s->episteme;
  c.latent_mean = &s->mean;
  c.latent_variance = &s->variance;
  return probe.score(MatrixView(a.data(), 1, a.size()), c).ok();
}

void require_inside(const ProbeCertificate& c, const Scored& s, const char* what) {
  fuzz::require(c.judged_probability_bounds.contains(s.judged), what, s.judged);
  fuzz::require(c.latent_mean.contains(s.mean), what, s.mean);
  fuzz::require(c.latent_variance.contains(s.variance), what, s.variance);
  fuzz::require(c.episteme.contains(s.episteme), what, s.episteme);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input in(data, size);
  const std::size_t O = in.in_range(1, 6), d = in.in_range(1, 3);
  RowMatrix X{Eigen::Index(O), Eigen::Index(d)};
  for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = in.byte() < 128 ? in.value() : extreme(in);
  std::vector<std::uint8_t> y(O);
  for (auto& label : y) label = in.flag();
  ProbeOptions options;
  options.epsilon = in.positive(-3, 0);
  options.strength = in.positive(-1, 2);
  options.space = in.flag() ? PosteriorSpace::function : PosteriorSpace::weight;
  Result<Probe> fitted = Probe::fit(MatrixView(X), y.data(), y.size(), options);
  if (!fitted.ok()) return 0;
  const Probe& probe = fitted.value();

  CertifyOptions certify;
  const std::uint8_t radius = in.byte();
  certify.gamma = radius < 16    ? in.raw_double()
                  : radius < 48  ? 0.0
                  : radius < 128 ? in.positive(-3, 1)
                                 : std::fabs(extreme(in));
  certify.norm = in.flag() ? QueryNorm::two : QueryNorm::inf;
  for (std::size_t j = 0; j < d; ++j)
    if (in.flag()) certify.dims.push_back(j);
  certify.search = in.flag();
  certify.max_iterations = in.in_range(0, 40);
  certify.tolerance = in.positive(-6, -1);
  Result<ProbeCertifier> certifier = ProbeCertifier::make(probe, certify);
  if (!certifier.ok()) {
    fuzz::require(certifier.status().code() == StatusCode::invalid_argument, "a bad gamma is invalid_argument");
    return 0;
  }
  std::vector<double> query(d);
  for (double& v : query) v = extreme(in);

  Result<ProbeCertificate> result = certifier.value().certify(query.data());
  if (!result.ok()) {
    const StatusCode code = result.status().code();
    fuzz::require(
        code == StatusCode::invalid_argument || code == StatusCode::numerical_failure || code == StatusCode::non_finite,
        "certify refuses with a value, not a crash");
    return 0;
  }
  const ProbeCertificate& c = result.value();
  for (const Interval& i : {c.judged_probability_bounds, c.latent_mean, c.latent_variance}) {
    fuzz::require(std::isfinite(i.lower) && std::isfinite(i.upper) && i.lower <= i.upper, "finite bounds in order",
                  i.upper - i.lower);
  }
  fuzz::require(!std::isnan(c.episteme.lower) && !std::isnan(c.episteme.upper) && c.episteme.lower <= c.episteme.upper,
                "episteme bounds in order");
  fuzz::require(c.judged_probability_bounds.lower >= 0.0 && c.judged_probability_bounds.upper <= 1.0,
                "judged probability bounds in [0, 1]");
  fuzz::require(c.judged_probability_bounds.lower <= c.lowest_found && c.lowest_found <= c.highest_found &&
                    c.highest_found <= c.judged_probability_bounds.upper,
                "found values inside the bounds");

  Scored at;
  fuzz::require(score(probe, query, &at), "the query scores");
  fuzz::require(std::fabs(at.judged - c.judged_probability) <= 1e-9, "the certificate's value is the probe's score",
                at.judged - c.judged_probability);
  require_inside(c, at, "the query's own values inside its certificate");

  // The witnesses and sampled points of the set: offsets on the moving coordinates, kept in the set
  // after rounding a* + D.
  std::vector<std::size_t> moving = certify.dims;
  if (moving.empty())
    for (std::size_t j = 0; j < d; ++j) moving.push_back(j);
  std::vector<std::vector<double>> points = {c.lowest_witness, c.highest_witness};
  for (int s = 0; s < 4; ++s) {
    std::vector<double> a = query;
    for (std::size_t j : moving) a[j] += certify.gamma * (double(in.byte()) / 127.5 - 1.0);
    points.push_back(a);
  }
  for (const std::vector<double>& a : points) {
    double norm2 = 0.0, largest = 0.0;
    for (std::size_t j : moving) {
      const double offset = std::fabs(a[j] - query[j]);
      norm2 += offset * offset;
      largest = std::max(largest, offset);
    }
    const bool inside = certify.norm == QueryNorm::inf ? largest <= certify.gamma : std::sqrt(norm2) <= certify.gamma;
    if (!inside || !std::isfinite(norm2)) continue;
    Scored s;
    fuzz::require(score(probe, a, &s), "a point of the set scores");
    require_inside(c, s, "a point of the set inside the certificate");
  }
  return 0;
}
