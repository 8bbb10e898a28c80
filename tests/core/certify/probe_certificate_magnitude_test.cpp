// Certificates of queries of any finite magnitude are sound or refused (issue 23, item 1). The cosine
// kernel sees a query only through the direction of [a; 1]: a query 1e160 (1, 0) scores like (1, 0)'s
// direction with the augmentation below double precision. Before, |a*|^2 overflowed inside the bounds
// (past ~1e154): 1e160 gave a certified range that excluded the scored value, 1e308 gave NaN bounds.
//
// The reference is the probe's own scoring path (Probe::score: features of the rescaled augmented
// row, cosine_kernel.cpp), independent of the certificate's weight-space bounds, and, for the huge
// queries, the score of the same direction at 1e10, where nothing overflows and the augmentation is
// 1e-20 relative.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/certify/probe_certificate.h"
#include "gpprobe/probe/probe.h"
#include "gpprobe/probe/probe_file.h"

#include "cli/cli_runner.h"
#include "result_assertions.h"
#include "test_support.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::run_cli;
using testing::TempFile;

struct Scored {
  double judged = 0, episteme = 0, mean = 0, variance = 0;
};

Scored score(const Probe& probe, const std::vector<double>& query) {
  Scored s;
  ProbeScoreColumns c;
  c.judged_probability = &s.judged;
  c.episteme = &s.episteme;
  c.latent_mean = &s.mean;
  c.latent_variance = &s.variance;
  const Status status = probe.score(MatrixView(query.data(), 1, query.size()), c);
  EXPECT_TRUE(status.ok()) << status.message();
  return s;
}

// The probe: observations (1, 0) labelled 0 and (0, 1) labelled 1.
Probe two_point_probe(PosteriorSpace space) {
  const double X[] = {1.0, 0.0, 0.0, 1.0};
  const std::uint8_t y[] = {0, 1};
  ProbeOptions options;
  options.space = space;
  Result<Probe> probe = Probe::fit(MatrixView(X, 2, 2), y, 2, options);
  EXPECT_TRUE(probe.ok()) << probe.status().message();
  return ok_value(std::move(probe));
}

void expect_sound(const ProbeCertificate& cert, const Scored& at_centre, const std::string& where) {
  SCOPED_TRACE(where);
  for (double x : {cert.judged_probability_bounds.lower, cert.judged_probability_bounds.upper, cert.latent_mean.lower,
                   cert.latent_mean.upper, cert.latent_variance.lower, cert.latent_variance.upper, cert.episteme.lower,
                   cert.lowest_found, cert.highest_found}) {
    EXPECT_TRUE(std::isfinite(x)) << x;
  }
  EXPECT_NEAR(cert.judged_probability, at_centre.judged, 1e-12);
  EXPECT_TRUE(cert.judged_probability_bounds.contains(at_centre.judged))
      << cert.judged_probability_bounds.lower << " " << at_centre.judged << " " << cert.judged_probability_bounds.upper;
  EXPECT_TRUE(cert.latent_mean.contains(at_centre.mean)) << cert.latent_mean.lower << " " << at_centre.mean;
  EXPECT_TRUE(cert.latent_variance.contains(at_centre.variance));
  EXPECT_TRUE(cert.episteme.contains(at_centre.episteme));
  EXPECT_LE(cert.judged_probability_bounds.lower, cert.lowest_found);
  EXPECT_LE(cert.lowest_found, cert.judged_probability);
  EXPECT_LE(cert.judged_probability, cert.highest_found);
  EXPECT_LE(cert.highest_found, cert.judged_probability_bounds.upper);
}

TEST(TrustCertificate, HugeQueriesAreCertifiedLikeTheirDirection) {
  for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
    const Probe probe = two_point_probe(space);
    const Scored direction = score(probe, {1e10, 0.0});
    // 0.0297...: the value (the query's direction (1, 0) is an observation labelled 0).
    EXPECT_NEAR(direction.judged, 0.0297, 5e-4);
    for (double c : {1e100, 1e152, 1e155, 1e160, 1e200, 1e300, 1e308, 1.7976931348623157e308}) {
      const std::vector<double> query{c, 0.0};
      const Scored scored = score(probe, query);
      EXPECT_NEAR(scored.judged, direction.judged, 1e-10) << c;
      for (QueryNorm norm : {QueryNorm::inf, QueryNorm::two}) {
        for (bool search : {false, true}) {
          CertifyOptions options;
          options.gamma = 0.1;
          options.norm = norm;
          options.search = search;
          options.tolerance = 1e-6;
          Result<ProbeCertifier> certifier = ProbeCertifier::make(probe, options);
          ASSERT_TRUE(certifier.ok()) << certifier.status().message();
          Result<ProbeCertificate> cert = certifier.value().certify(query.data());
          ASSERT_TRUE(cert.ok()) << c << ": " << cert.status().message();
          expect_sound(cert.value(), scored, std::to_string(c) + (search ? " search" : ""));
          // A set of radius 0.1 around a query of norm >= 1e100 is one direction in double precision.
          EXPECT_LT(cert.value().judged_probability_bounds.width(), 1e-9) << c;
          EXPECT_EQ(cert.value().verdict_can_flip, VerdictFlip::no) << c;
          for (const std::vector<double>* w : {&cert.value().lowest_witness, &cert.value().highest_witness}) {
            ASSERT_EQ(w->size(), 2u);
            EXPECT_TRUE(std::isfinite((*w)[0]) && std::isfinite((*w)[1]));
          }
        }
      }
    }
  }
}

TEST(TrustCertificate, HugeSetsAroundHugeQueriesAreSoundOnSampledPoints) {
  // Radii comparable to the query: the set's directions really vary. Every sampled point of the set
  // (the scoring path) lies inside the certified bounds.
  const Probe probe = two_point_probe(PosteriorSpace::automatic);
  for (double c : {1e20, 1e160, 1e300}) {
    const std::vector<double> query{c, 0.25 * c};
    const double gamma = 0.5 * c;
    CertifyOptions options;
    options.gamma = gamma;
    Result<ProbeCertifier> certifier = ProbeCertifier::make(probe, options);
    ASSERT_TRUE(certifier.ok());
    Result<ProbeCertificate> cert = certifier.value().certify(query.data());
    ASSERT_TRUE(cert.ok()) << c << ": " << cert.status().message();
    expect_sound(cert.value(), score(probe, query), std::to_string(c));
    EXPECT_GT(cert.value().judged_probability_bounds.width(), 1e-3);
    const int steps = 8;
    for (int i = 0; i <= steps; ++i) {
      for (int j = 0; j <= steps; ++j) {
        const std::vector<double> point{query[0] + gamma * (2.0 * i / steps - 1.0),
                                        query[1] + gamma * (2.0 * j / steps - 1.0)};
        const Scored s = score(probe, point);
        EXPECT_TRUE(cert.value().judged_probability_bounds.contains(s.judged)) << c << " " << i << " " << j;
        EXPECT_TRUE(cert.value().latent_mean.contains(s.mean)) << c << " " << i << " " << j;
        EXPECT_TRUE(cert.value().latent_variance.contains(s.variance)) << c << " " << i << " " << j;
      }
    }
  }
}

TEST(TrustCertificate, ASetReachingTheOriginFromFarOutIsSound) {
  // Found by tests/fuzz/certify_extremes_fuzz.cpp (its corpus keeps the input): a ball of radius
  // 5.2e107 around -5.2e107 holds a = 0, where ã = [0; 1] and the latent mean is -0.548. The bounds took
  // c'u - gamma |u_J| (two numbers of 1e107 whose difference is u's last entry) as 0 and certified
  // mean >= -5e-11; the point evaluation at 0 cancelled the same way.
  const double X[] = {0.0,
                      -6.3904314047695978e-162,
                      -0.14611872781107471,
                      1.3471370006941858,
                      -9.900364375144777e+22,
                      -0.0013841286895587572};
  const std::uint8_t y[] = {1, 0, 0, 0, 1, 1};
  ProbeOptions probe_options;
  probe_options.epsilon = 0.0017015853675292419;
  probe_options.strength = 22.300658789149558;
  probe_options.space = PosteriorSpace::function;
  Result<Probe> probe = Probe::fit(MatrixView(X, 6, 1), y, 6, probe_options);
  ASSERT_TRUE(probe.ok()) << probe.status().message();
  const double centre = -5.2197182204353209e+107;
  for (bool search : {false, true}) {
    for (QueryNorm norm : {QueryNorm::two, QueryNorm::inf}) {
      CertifyOptions options;
      options.gamma = 5.2197182204353209e+107;
      options.norm = norm;
      options.search = search;
      options.max_iterations = 7;
      Result<ProbeCertifier> certifier = ProbeCertifier::make(probe.value(), options);
      ASSERT_TRUE(certifier.ok());
      Result<ProbeCertificate> cert = certifier.value().certify(&centre);
      ASSERT_TRUE(cert.ok()) << cert.status().message();
      expect_sound(cert.value(), score(probe.value(), {centre}), "centre");
      for (double a : {0.0, 1.0, -1.0, -1e-300, 0.5 * centre, 2.0 * centre}) {
        const Scored s = score(probe.value(), {a});
        EXPECT_TRUE(cert.value().judged_probability_bounds.contains(s.judged)) << a;
        EXPECT_TRUE(cert.value().latent_mean.contains(s.mean)) << a << ": " << s.mean;
        EXPECT_TRUE(cert.value().latent_variance.contains(s.variance)) << a;
      }
      EXPECT_LT(score(probe.value(), {0.0}).mean, -0.5);  // the value the old bounds excluded
    }
  }
}

TEST(TrustCertificate, TinyWeightsAreNotSquaredToZero) {
  // Found by the same harness: observations near 1e-244 (and a subnormal one) give weights u near
  // 3e-243, whose |u| squared to 0: the mean was capped at |m| <= sqrt(v) |u| = 0 (plus allowances of
  // 3e-256) while the probe scores -7.5e-246 inside the set.
  const double X[] = {7.8750162482127898e-309, -2.5533520840958912e-244};
  const std::uint8_t y[] = {0, 1};
  ProbeOptions probe_options;
  probe_options.epsilon = 0.09651018072056429;
  probe_options.strength = 29.310121866873548;
  probe_options.space = PosteriorSpace::weight;
  Result<Probe> probe = Probe::fit(MatrixView(X, 2, 1), y, 2, probe_options);
  ASSERT_TRUE(probe.ok()) << probe.status().message();
  const double centre = 0.0, gamma = 0.001462522704634077;
  for (QueryNorm norm : {QueryNorm::two, QueryNorm::inf}) {
    CertifyOptions options;
    options.gamma = gamma;
    options.norm = norm;
    Result<ProbeCertifier> certifier = ProbeCertifier::make(probe.value(), options);
    ASSERT_TRUE(certifier.ok());
    Result<ProbeCertificate> cert = certifier.value().certify(&centre);
    ASSERT_TRUE(cert.ok()) << cert.status().message();
    for (double a : {-gamma, -0.5 * gamma, 0.0, 0.5 * gamma, gamma}) {
      const Scored s = score(probe.value(), {a});
      EXPECT_TRUE(cert.value().latent_mean.contains(s.mean)) << a << ": " << s.mean;
      EXPECT_TRUE(cert.value().latent_variance.contains(s.variance)) << a;
    }
    EXPECT_LT(score(probe.value(), {gamma}).mean, -7e-246);
  }
}

TEST(TrustCertificate, SetsPastTheStatedRangeAreRefusedWithTheReason) {
  const Probe probe = two_point_probe(PosteriorSpace::automatic);
  struct Case {
    std::vector<double> query;
    double gamma;
    std::string message;
  };
  const std::vector<Case> cases = {
      // The set holds queries beyond the largest double.
      {{1e308, 0.0}, 1e308, "the set around the query reaches beyond the largest finite number"},
      // The set reaches the origin from 1e160: it mixes queries where [a; 1]'s 1 matters with ones
      // where it is 1e-160 relative, beyond double range.
      {{1e160, 0.0}, 1e160, "comes within"},
  };
  for (const Case& c : cases) {
    CertifyOptions options;
    options.gamma = c.gamma;
    Result<ProbeCertifier> certifier = ProbeCertifier::make(probe, options);
    ASSERT_TRUE(certifier.ok());
    Result<ProbeCertificate> cert = certifier.value().certify(c.query.data());
    ASSERT_FALSE(cert.ok()) << c.query[0];
    EXPECT_EQ(cert.status().code(), StatusCode::invalid_argument);
    EXPECT_NE(cert.status().message().find(c.message), std::string::npos) << cert.status().message();
  }
}

std::vector<double> csv_numbers(const std::string& line) {
  std::vector<double> out;
  std::size_t start = 0;
  while (start <= line.size()) {
    const std::size_t end = std::min(line.find(',', start), line.size());
    const std::string cell = line.substr(start, end - start);
    char* stop = nullptr;
    const double x = std::strtod(cell.c_str(), &stop);
    out.push_back(stop != cell.c_str() ? x : std::nan(""));
    start = end + 1;
  }
  return out;
}

TEST(TrustCertificate, CliCertifiesHugeQueriesSoundly) {
  const TempFile obs("o.csv", "1,0\n0,1\n"), labels("l.txt", "0\n1\n"), queries("q.csv", "1e160,0\n1e308,0\n");
  const std::string inputs =
      "probe --observations " + obs.path() + " --labels " + labels.path() + " --queries " + queries.path();
  const CliRun plain = run_cli(inputs);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const CliRun r = run_cli(inputs + " --certify-gamma 0.1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
  std::istringstream plain_lines(plain.out), lines(r.out);
  std::string header, plain_header, line, plain_line;
  std::getline(lines, header);
  std::getline(plain_lines, plain_header);
  const std::vector<std::string> names = [&] {
    std::vector<std::string> n;
    std::stringstream h(header);
    for (std::string cell; std::getline(h, cell, ',');) n.push_back(cell);
    return n;
  }();
  auto column = [&](const std::string& name) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return i;
    ADD_FAILURE() << "no column " << name;
    return std::size_t(0);
  };
  int rows = 0;
  while (std::getline(lines, line) && std::getline(plain_lines, plain_line)) {
    ++rows;
    const std::vector<double> row = csv_numbers(line);
    const std::vector<double> plain_row = csv_numbers(plain_line);
    const double p = row[column("judged_probability")];
    EXPECT_NEAR(p, 0.0297, 5e-4);
    EXPECT_EQ(p, plain_row[column("judged_probability")]);
    EXPECT_LE(row[column("judged_probability_lower")], p);
    EXPECT_GE(row[column("judged_probability_upper")], p);
    // One direction in double precision: the found values are p, up to the two paths' rounding.
    EXPECT_NEAR(row[column("judged_probability_lowest_found")], p, 1e-12);
    EXPECT_NEAR(row[column("judged_probability_highest_found")], p, 1e-12);
    EXPECT_LE(row[column("latent_mean_lower")], row[column("latent_mean")]);
    EXPECT_GE(row[column("latent_mean_upper")], row[column("latent_mean")]);
    EXPECT_NE(line.find(",no,"), std::string::npos) << line;  // verdict_can_flip
  }
  EXPECT_EQ(rows, 2);

  const TempFile far("far.csv", "1e160,0\n");
  const CliRun refused = run_cli("probe --observations " + obs.path() + " --labels " + labels.path() + " --queries " +
                                 far.path() + " --certify-gamma 1e160");
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_EQ(refused.out, "");
  EXPECT_NE(refused.err.find("comes within"), std::string::npos) << refused.err;
}

// Issue 40, item 6: the app's exported probe (O = 40, d = 16) and a query c e_0 with gamma = c on coordinate 0, so
// that the set a_0 in [0, 2c] reaches the origin from far out. A narrow box near the origin (a_0 in [0.5, 1] say)
// was bounded by its offset forms c'u + D'u_J and c'Mc + 2 D'g + D'M_JJ D, two numbers of size c (c^2) cancelling
// down to the box's own size: at c = 1e10 the search's own oracle caught a candidate's 0.0219 beyond its box's
// bound 0.1626 ("unsound bound oracle"), and so did x_0 = gamma = 0.5 10^k for k = 40 ... 134. Now every box is
// bounded from its own coordinates when its offsets exceed its points: each certificate is found, and the probe's
// own scores (Probe::score, another path) on a dense grid of the set lie inside its bounds.
Probe exported_probe() {
  const std::string path =
      std::string(GPPROBE_SOURCE_DIR) + "/tests/reference/probe_file/random_o40_d16.float64.probe.json";
  Result<ProbeFile> file = read_probe_file(path);
  EXPECT_TRUE(file.ok()) << file.status().message();
  const ProbeFile& f = ok_value(file);
  return ok_value(Probe::fit(f.observations.view(), f.labels.data(), f.labels.size(), f.options));
}

void expect_sound_on_grid(const Probe& probe, const std::vector<double>& query, double gamma, bool search,
                          const std::string& where) {
  SCOPED_TRACE(where);
  CertifyOptions options;
  options.gamma = gamma;
  options.dims = {0};
  options.search = search;
  options.tolerance = 1e-3;
  Result<ProbeCertifier> certifier = ProbeCertifier::make(probe, options);
  ASSERT_TRUE(certifier.ok()) << certifier.status().message();
  Result<ProbeCertificate> made = certifier.value().certify(query.data());
  ASSERT_TRUE(made.ok()) << made.status().message();
  const ProbeCertificate& cert = made.value();
  expect_sound(cert, score(probe, query), where);
  // a_0 over [x_0 - gamma, x_0 + gamma]: 2001 evenly spaced points, and points near the origin on a log scale
  // (where the old bounds cancelled), the origin and the ends.
  std::vector<double> a0;
  for (int i = 0; i <= 2000; ++i) a0.push_back(query[0] - gamma + 2.0 * gamma * double(i) / 2000.0);
  for (int e = -8; e <= 300; ++e) {
    const double x = std::pow(10.0, double(e));
    if (x <= 2.0 * gamma) a0.push_back(query[0] - gamma + x);
  }
  a0.push_back(0.0);
  a0.push_back(query[0] + gamma);
  double lowest = 1.0, highest = 0.0;
  for (double x : a0) {
    if (!(x >= query[0] - gamma && x <= query[0] + gamma)) continue;
    std::vector<double> a = query;
    a[0] = x;
    const Scored s = score(probe, a);
    EXPECT_TRUE(cert.judged_probability_bounds.contains(s.judged))
        << x << ": " << s.judged << " outside [" << cert.judged_probability_bounds.lower << ", "
        << cert.judged_probability_bounds.upper << "]";
    EXPECT_TRUE(cert.latent_mean.contains(s.mean)) << x << ": " << s.mean;
    EXPECT_TRUE(cert.latent_variance.contains(s.variance)) << x << ": " << s.variance;
    lowest = std::min(lowest, s.judged);
    highest = std::max(highest, s.judged);
  }
  if (search) {  // the searches' intervals hold the sampled extremes, and their witnesses attain found values
    EXPECT_LE(cert.judged_probability_bounds.lower, lowest);
    EXPECT_GE(cert.judged_probability_bounds.upper, highest);
    EXPECT_LE(cert.lowest_found, lowest + options.tolerance + 1e-9);
    EXPECT_GE(cert.highest_found, highest - options.tolerance - 1e-9);
  }
}

TEST(TrustCertificate, SetsReachingTheOriginFromFarOutAreSoundAtEveryMagnitude) {
  const Probe probe = exported_probe();
  std::vector<double> query(16, 0.0);
  query[0] = 1e10;
  expect_sound_on_grid(probe, query, 1e10, true, "1e10 e0, gamma 1e10");
  for (int k : {40, 41, 60, 100, 120, 134}) {
    query[0] = 0.5 * std::pow(10.0, double(k));
    expect_sound_on_grid(probe, query, query[0], true, "0.5e" + std::to_string(k));
  }
}

TEST(TrustCertificate, CliCertifiesTheExportedProbeAtLargeMagnitudes) {
  const std::string path =
      std::string(GPPROBE_SOURCE_DIR) + "/tests/reference/probe_file/random_o40_d16.float64.probe.json";
  std::string zeros;
  for (int j = 1; j < 16; ++j) zeros += ",0";
  const TempFile queries("far_queries.csv", "1e10" + zeros + "\n");
  const CliRun r =
      run_cli("probe --probe " + path + " --queries " + queries.path() + " --certify-gamma 1e10 --certify-dims 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpprobe
