// Certified bounds of the probe over sets of queries, against the probe itself (Probe::score) at
// densely sampled points of each set: zero violations, for both norms, several sizes, radii, prior
// epsilons (the small one puts the quadrature's error in play) and coordinate choices, with and
// without branch and bound. Plus: the weight-space form reproduces the probe, and hand-written values
// of the single-box bounds on a one-observation probe.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "gpprobe/certify/probe_certificate.h"
#include "gpprobe/probe/probe.h"
#include "gpprobe/probe/uncertainty_measures.h"

#include "result_assertions.h"

namespace gpprobe {
namespace {

struct Scores {
  std::vector<double> judged, episteme, mean, variance;
};

Scores score(const Probe& probe, const RowMatrix& Q) {
  const std::size_t n = std::size_t(Q.rows());
  Scores s{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)};
  ProbeScoreColumns c;
  c.judged_probability = s.judged.data();
  c.episteme = s.episteme.data();
  c.latent_mean = s.mean.data();
  c.latent_variance = s.variance.data();
  EXPECT_TRUE(probe.score(MatrixView(Q), c).ok());
  return s;
}

// O observations in d dimensions labelled by a random hyperplane, so the probe has something to say.
Probe random_probe(int O, int d, double epsilon, std::mt19937& rng, PosteriorSpace space = PosteriorSpace::automatic) {
  std::normal_distribution<double> z;
  RowMatrix X(O, d);
  for (int i = 0; i < X.size(); ++i) X.data()[i] = z(rng);
  std::vector<double> normal(d);
  for (double& b : normal) b = z(rng);
  std::vector<std::uint8_t> y(O);
  for (int i = 0; i < O; ++i) {
    double s = 0.3 * z(rng);
    for (int j = 0; j < d; ++j) s += X(i, j) * normal[j];
    y[i] = s > 0;
  }
  ProbeOptions options;
  options.epsilon = epsilon;
  options.space = space;
  Result<Probe> probe = Probe::fit(MatrixView(X), y.data(), y.size(), options);
  EXPECT_TRUE(probe.ok()) << probe.status().message();
  return ok_value(std::move(probe));
}

// n points of the set around a* (offsets on dims): for a box, interior points, corners and mixtures of
// faces (and every corner when there are few); for a ball, interior points and points of its sphere.
RowMatrix sample_set(const std::vector<double>& centre, const std::vector<std::size_t>& dims, QueryNorm norm,
                     double gamma, int n, std::mt19937& rng) {
  const int d = int(centre.size()), k = int(dims.size());
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::normal_distribution<double> z;
  std::vector<std::vector<double>> offsets;
  if (norm == QueryNorm::inf && k <= 12) {
    for (int mask = 0; mask < (1 << k); ++mask) {
      std::vector<double> o(k);
      for (int j = 0; j < k; ++j) o[j] = (mask >> j & 1) ? gamma : -gamma;
      offsets.push_back(o);
    }
  }
  while (int(offsets.size()) < n) {
    const int kind = int(offsets.size()) % 3;
    std::vector<double> o(k);
    if (norm == QueryNorm::inf) {
      for (int j = 0; j < k; ++j) {
        const double u = unit(rng);
        o[j] = kind == 0   ? gamma * u
               : kind == 1 ? (u > 0 ? gamma : -gamma)
                           : (std::fabs(u) < 0.5 ? gamma * 2 * u
                              : u > 0            ? gamma
                                                 : -gamma);
      }
    } else {
      double norm2 = 0;
      for (double& v : o) v = z(rng), norm2 += v * v;
      const double radius = kind == 0 ? gamma * std::pow(0.5 * (unit(rng) + 1), 1.0 / k) : gamma;
      for (double& v : o) v *= radius / std::sqrt(norm2);
    }
    offsets.push_back(o);
  }
  RowMatrix Q(n, d);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) Q(i, j) = centre[j];
    for (int j = 0; j < k; ++j) Q(i, int(dims[j])) += offsets[i][j];
  }
  return Q;
}

TEST(LatentWeights, ReproduceTheProbeInBothSpaces) {
  std::mt19937 rng(21);
  for (auto [O, d] : {std::pair{30, 8}, std::pair{6, 40}, std::pair{1, 1}}) {
    for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
      const Probe probe = random_probe(O, d, 0.1, rng, space);
      const LatentWeights w = probe.latent_weights();
      ASSERT_EQ(w.dimension(), std::size_t(d));
      RowMatrix Q(20, d);
      std::normal_distribution<double> z(0.0, 2.0);
      for (int i = 0; i < Q.size(); ++i) Q.data()[i] = z(rng);
      const Scores s = score(probe, Q);
      for (int q = 0; q < 20; ++q) {
        const LatentValue v = w.at(Q.row(q).data());
        EXPECT_NEAR(v.mean, s.mean[q], w.mean_rounding) << O << "x" << d;
        EXPECT_NEAR(v.variance, s.variance[q], w.variance_rounding) << O << "x" << d;
        EXPECT_NEAR(v.variance, s.variance[q], 1e-12) << O << "x" << d;
      }
      EXPECT_LT(w.rayleigh_max, 2.0);
      EXPECT_LT(w.mean_rounding, 1e-9);
    }
  }
}

struct Setting {
  int O, d;
  double epsilon, gamma;
  QueryNorm norm;
  bool few_dims;  // 3 moving coordinates (with branch and bound), else all
};

TEST(ProbeCertificate, NoSampledQueryLiesOutsideItsBounds) {
  std::mt19937 rng(22);
  int settings = 0;
  for (double epsilon : {0.1, 0.001})
    for (auto [O, d] : {std::pair{5, 3}, std::pair{20, 16}, std::pair{40, 64}})
      for (double gamma : {0.03, 0.3})
        for (QueryNorm norm : {QueryNorm::inf, QueryNorm::two})
          for (bool few_dims : {false, true}) {
            const Setting s{O, d, epsilon, gamma, norm, few_dims};
            const Probe probe = random_probe(s.O, s.d, s.epsilon, rng);
            std::normal_distribution<double> z;
            std::vector<double> centre(s.d);
            for (double& c : centre) c = z(rng);
            CertifyOptions options;
            options.gamma = s.gamma;
            options.norm = s.norm;
            if (s.few_dims) {
              options.dims = {std::size_t(s.d - 1), 0, std::size_t(s.d / 2)};
              if (s.d == 3) options.dims = {2, 0, 1};
              options.search = true;
              options.tolerance = 1e-3;
              options.max_iterations = 20000;
            }
            Result<ProbeCertifier> certifier = ProbeCertifier::make(probe, options);
            ASSERT_TRUE(certifier.ok()) << certifier.status().message();
            Result<ProbeCertificate> cert = certifier.value().certify(centre.data());
            ASSERT_TRUE(cert.ok()) << cert.status().message();
            const ProbeCertificate& c = cert.value();
            std::vector<std::size_t> dims = options.dims;
            if (dims.empty())
              for (int j = 0; j < s.d; ++j) dims.push_back(std::size_t(j));

            RowMatrix Q = sample_set(centre, dims, s.norm, s.gamma, 10000, rng);
            Q.conservativeResize(Q.rows() + 2, Eigen::NoChange);  // and the witnesses
            Q.row(Q.rows() - 2) = Eigen::Map<const Eigen::RowVectorXd>(c.lowest_witness.data(), s.d);
            Q.row(Q.rows() - 1) = Eigen::Map<const Eigen::RowVectorXd>(c.highest_witness.data(), s.d);
            const Scores sc = score(probe, Q);
            int violations = 0;
            double sampled_low = 1, sampled_high = 0;
            for (Eigen::Index q = 0; q < Q.rows(); ++q) {
              violations += !c.judged_probability_bounds.contains(sc.judged[q]) + !c.latent_mean.contains(sc.mean[q]) +
                            !c.latent_variance.contains(sc.variance[q]) + !c.episteme.contains(sc.episteme[q]);
              sampled_low = std::min(sampled_low, sc.judged[q]);
              sampled_high = std::max(sampled_high, sc.judged[q]);
            }
            SCOPED_TRACE("O=" + std::to_string(s.O) + " d=" + std::to_string(s.d) +
                         " eps=" + std::to_string(s.epsilon) + " gamma=" + std::to_string(s.gamma) +
                         " norm=" + norm_name(s.norm) + " few=" + std::to_string(s.few_dims));
            EXPECT_EQ(violations, 0);
            // The witnesses are attained values: the probe reports the same at them.
            EXPECT_NEAR(sc.judged[Q.rows() - 2], c.lowest_found, 1e-9);
            EXPECT_NEAR(sc.judged[Q.rows() - 1], c.highest_found, 1e-9);
            EXPECT_LE(c.judged_probability_bounds.lower, c.lowest_found);
            EXPECT_GE(c.judged_probability_bounds.upper, c.highest_found);
            if (s.few_dims) {
              EXPECT_EQ(c.status, SearchStatus::converged);
              EXPECT_LE(c.lowest_found - c.judged_probability_bounds.lower, 1e-3);
              EXPECT_LE(c.judged_probability_bounds.upper - c.highest_found, 1e-3);
              // Searching finds at least what sampling finds, up to the tolerance.
              EXPECT_LE(c.lowest_found, sampled_low + 1e-3);
              EXPECT_GE(c.highest_found, sampled_high - 1e-3);
            }
            ++settings;
          }
  EXPECT_EQ(settings, 48);
}

// One observation x1 = 0.3 with label 1 in one dimension: K_alpha = v + n+, K_beta = 2v, residuals
// delta and 0, so u = psi1 delta / (v + n+) and M = psi1 psi1' (1/(v + n+) + 1/(2v)), psi1 = sqrt(v)
// [0.3; 1] / sqrt(1.09). Over a in [0.4, 0.6] (a* = 0.5, gamma = 0.1), with ã = [a; 1], c = [0.5; 1]:
//   first order   ã'u in u1 + [0.4, 0.6] u0,  |ã|^2 in [1.16, 1.36],
//                 ã'Mã in c'Mc +- 2 (0.1) |(Mc)_0| + [0, 0.01 |M_00|],
//                 |m| <= sqrt(v) |u| (Cauchy-Schwarz), rho <= lambda_max(M) = |psi1|^2 m_fs;
//   mean value    m(0.5) +- 0.1 max|dm/da|, dm/da = sqrt(v) (u0 - N a / |ã|^2) / |ã|,
//                 rho(0.5) +- 0.1 max|drho/da|, drho/da = 2 ((Mã)_0 - rho a) / |ã|^2, (Mã)_0 in
//                 (Mc)_0 +- 0.1 |M_00|, each over the box from the first-order ranges;
// the bounds are the intersections.
TEST(ProbeCertificate, SingleBoxBoundsEqualHandWorkedValues) {
  const RowMatrix X = (RowMatrix(1, 1) << 0.3).finished();
  const std::uint8_t y = 1;
  Result<Probe> probe = Probe::fit(MatrixView(X), &y, 1);
  ASSERT_TRUE(probe.ok());
  const double v = std::log(11.0), raised = std::log(1.0 / 5.1 + 1.0), sv = std::sqrt(v);
  const double delta = (std::log(5.1) - raised / 2) - (std::log(0.1) - v / 2);
  const double psi0 = sv * 0.3 / std::sqrt(1.09), psi1 = sv / std::sqrt(1.09);
  const double u0 = psi0 * delta / (v + raised), u1 = psi1 * delta / (v + raised);
  const double m_fs = 1.0 / (v + raised) + 1.0 / (2 * v);
  const double M00 = psi0 * psi0 * m_fs, M01 = psi0 * psi1 * m_fs, M11 = psi1 * psi1 * m_fs;
  const double cMc = 0.25 * M00 + 2 * 0.5 * M01 + M11, Mc0 = 0.5 * M00 + M01;
  const double N_L = u1 + 0.4 * u0, N_U = u1 + 0.6 * u0;
  ASSERT_GT(u0, 0.0);
  ASSERT_GT(N_L, 0.0);
  ASSERT_GT(Mc0, 0.1 * M00);
  // First order.
  double m_L = sv * N_L / std::sqrt(1.36), m_U = sv * std::min(N_U / std::sqrt(1.16), std::hypot(u0, u1));
  const double Q_L = cMc - 0.2 * Mc0, Q_U = cMc + 0.2 * Mc0 + 0.01 * M00;
  double rho_L = Q_L / 1.36, rho_U = std::min(Q_U / 1.16, (psi0 * psi0 + psi1 * psi1) * m_fs);
  // Mean value (a, N, rho > 0 on the box; x / |ã| takes the small |ã| where x > 0, the large one else).
  auto divide = [](double lo, double hi, double d_lo, double d_hi) {
    return std::pair{lo / (lo >= 0 ? d_hi : d_lo), hi / (hi >= 0 ? d_lo : d_hi)};
  };
  const auto [dm_lo, dm_hi] = divide(u0 - 0.6 * N_U / 1.16, u0 - 0.4 * N_L / 1.36, std::sqrt(1.16), std::sqrt(1.36));
  const double m_mid = sv * (u1 + 0.5 * u0) / std::sqrt(1.25);
  const double m_reach = 0.1 * sv * std::max(std::fabs(dm_lo), std::fabs(dm_hi));
  const auto [dr_lo, dr_hi] =
      divide(2 * (Mc0 - 0.1 * M00 - 0.6 * rho_U), 2 * (Mc0 + 0.1 * M00 - 0.4 * rho_L), 1.16, 1.36);
  const double rho_mid = cMc / 1.25, rho_reach = 0.1 * std::max(std::fabs(dr_lo), std::fabs(dr_hi));
  m_L = std::max(m_L, m_mid - m_reach), m_U = std::min(m_U, m_mid + m_reach);
  rho_L = std::max(rho_L, rho_mid - rho_reach), rho_U = std::min(rho_U, rho_mid + rho_reach);
  const double s2_L = v * (2 - rho_U), s2_U = v * (2 - rho_L);

  CertifyOptions options;
  options.gamma = 0.1;
  const double centre = 0.5;
  Result<ProbeCertifier> certifier = ProbeCertifier::make(probe.value(), options);
  ASSERT_TRUE(certifier.ok());
  const ProbeCertificate c = ok_value(certifier.value().certify(&centre));
  // Up to the rounding allowances, 1e-12 here.
  EXPECT_NEAR(c.latent_mean.lower, m_L, 2e-12);
  EXPECT_NEAR(c.latent_mean.upper, m_U, 2e-12);
  EXPECT_NEAR(c.latent_variance.lower, s2_L, 2e-12);
  EXPECT_NEAR(c.latent_variance.upper, s2_U, 2e-12);
  // m > 0 throughout: the judged probability is lowest at (m_L, s2_U) and highest at (m_U, s2_L), less
  // and more the quadrature margin (1e-12 at these variances) and rounding (1e-13).
  EXPECT_NEAR(c.judged_probability_bounds.lower, uncertainty_measures(m_L, s2_U).judged_probability - 1.1e-12, 1e-12);
  EXPECT_NEAR(c.judged_probability_bounds.upper, uncertainty_measures(m_U, s2_L).judged_probability + 1.1e-12, 1e-12);
  const double log_ratio = 0.5 * std::log(s2_U / s2_L);
  EXPECT_NEAR(c.episteme.lower, uncertainty_measures(m_L, s2_L).episteme - log_ratio, 1e-11);
  EXPECT_NEAR(c.episteme.upper, uncertainty_measures(m_U, s2_U).episteme + log_ratio, 1e-11);
  // And the exact ranges on a fine grid lie inside, not far from the ends.
  double lo = 1, hi = 0;
  for (int i = 0; i <= 2000; ++i) {
    const double a = 0.4 + 0.2 * i / 2000;
    const LatentValue at = probe.value().latent_weights().at(&a);
    const double p = uncertainty_measures(at.mean, at.variance).judged_probability;
    lo = std::min(lo, p), hi = std::max(hi, p);
  }
  EXPECT_LE(c.judged_probability_bounds.lower, lo);
  EXPECT_GE(c.judged_probability_bounds.upper, hi);
  // Width 0.0059 against the exact range 0.0037: the corner rule pairs the lowest mean with the
  // highest variance although no single a has both (the first-order forms alone gave 0.0127).
  EXPECT_LT(c.judged_probability_bounds.width(), 1.6 * (hi - lo));
}

TEST(ProbeCertificate, BranchAndBoundClosesToTheToleranceWithAWitnessInTheSet) {
  std::mt19937 rng(23);
  const Probe probe = random_probe(30, 16, 0.1, rng);
  std::vector<double> centre(16);
  std::normal_distribution<double> z;
  for (double& c : centre) c = z(rng);
  for (QueryNorm norm : {QueryNorm::inf, QueryNorm::two}) {
    CertifyOptions options;
    options.gamma = 0.8;
    options.norm = norm;
    options.dims = {4, 9};
    options.search = true;
    options.tolerance = 1e-4;
    options.max_iterations = 100000;
    const ProbeCertificate c = ok_value(ok_value(ProbeCertifier::make(probe, options)).certify(centre.data()));
    SCOPED_TRACE(norm_name(norm));
    EXPECT_EQ(c.status, SearchStatus::converged);
    EXPECT_LE(c.lowest_found - c.judged_probability_bounds.lower, 1e-4);
    EXPECT_LE(c.judged_probability_bounds.upper - c.highest_found, 1e-4);
    EXPECT_GT(c.highest_found - c.lowest_found, 0.01);  // the set is wide enough to matter
    for (const std::vector<double>* w : {&c.lowest_witness, &c.highest_witness}) {
      double norm2 = 0, widest = 0;
      for (int j = 0; j < 16; ++j) {
        const double offset = (*w)[j] - centre[j];
        if (j != 4 && j != 9) EXPECT_EQ(offset, 0.0);
        norm2 += offset * offset;
        widest = std::max(widest, std::fabs(offset));
      }
      // The witness is a* + offset in floating point: inside up to one rounding of the addition.
      if (norm == QueryNorm::inf) EXPECT_LE(widest, 0.8 + 1e-15);
      else EXPECT_LE(std::sqrt(norm2), 0.8 + 1e-15);
    }
    RowMatrix W(2, 16);
    W.row(0) = Eigen::Map<const Eigen::RowVectorXd>(c.lowest_witness.data(), 16);
    W.row(1) = Eigen::Map<const Eigen::RowVectorXd>(c.highest_witness.data(), 16);
    const Scores s = score(probe, W);
    EXPECT_NEAR(s.judged[0], c.lowest_found, 1e-9);
    EXPECT_NEAR(s.judged[1], c.highest_found, 1e-9);
    // A dense grid over the two moving coordinates never goes below L or above U.
    const int n = 201;
    RowMatrix G(n * n, 16);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double a = -0.8 + 1.6 * i / (n - 1), b = -0.8 + 1.6 * j / (n - 1);
        if (norm == QueryNorm::two && a * a + b * b > 0.64) a = b = 0;
        G.row(i * n + j) = Eigen::Map<const Eigen::RowVectorXd>(centre.data(), 16);
        G(i * n + j, 4) += a;
        G(i * n + j, 9) += b;
      }
    const Scores g = score(probe, G);
    const auto [lo, hi] = std::minmax_element(g.judged.begin(), g.judged.end());
    EXPECT_LE(c.judged_probability_bounds.lower, *lo);
    EXPECT_GE(c.judged_probability_bounds.upper, *hi);
    EXPECT_LE(c.lowest_found, *lo + 1e-12);  // the search finds at least the grid's extremes
    EXPECT_GE(c.highest_found, *hi - 1e-12);
  }
}

TEST(ProbeCertificate, VerdictFlipsOnlyWhenAWitnessCrossesOneHalf) {
  std::mt19937 rng(24);
  const Probe probe = random_probe(30, 8, 0.1, rng);
  std::vector<double> centre(8, 0.0);
  CertifyOptions options;
  options.dims = {0, 1};
  options.search = true;
  options.tolerance = 1e-3;
  options.max_iterations = 100000;
  for (double gamma : {0.0, 0.05, 1.0, 4.0}) {
    options.gamma = gamma;
    const ProbeCertificate c = ok_value(ok_value(ProbeCertifier::make(probe, options)).certify(centre.data()));
    const bool positive = c.judged_probability >= 0.5;
    const double far_side = positive ? c.lowest_found : c.highest_found;
    if (c.verdict_can_flip == VerdictFlip::yes) EXPECT_NE(far_side >= 0.5, positive);
    if (c.verdict_can_flip == VerdictFlip::no) {
      EXPECT_TRUE(positive ? c.judged_probability_bounds.lower >= 0.5 : c.judged_probability_bounds.upper < 0.5);
    }
    if (gamma <= 0.05) EXPECT_EQ(c.verdict_can_flip, VerdictFlip::no);               // p = 0.70 at a*, in [0.66, 0.75]
    if (gamma >= 1.0) EXPECT_EQ(c.verdict_can_flip, VerdictFlip::yes);               // a witness below 0.1
    if (gamma == 0.0) EXPECT_NEAR(c.judged_probability_bounds.width(), 0.0, 1e-10);  // the margins
  }
}

TEST(ProbeCertificate, RejectsBadOptionsWithOneLine) {
  std::mt19937 rng(25);
  const Probe probe = random_probe(10, 4, 0.1, rng);
  auto message = [&](CertifyOptions o) {
    const Result<ProbeCertifier> r = ProbeCertifier::make(probe, o);
    return r.ok() ? std::string("ok") : r.status().message();
  };
  CertifyOptions o;
  o.gamma = -0.5;
  EXPECT_EQ(message(o), "gamma must be a finite number >= 0, got -0.5");
  o.gamma = NAN;
  EXPECT_EQ(message(o), "gamma must be a finite number >= 0, got nan");
  o.gamma = 0.1;
  o.dims = {1, 4};
  EXPECT_EQ(message(o), "coordinate 4 is out of range: queries have 4 columns (coordinates 0 to 3)");
  o.dims = {1, 2, 1};
  EXPECT_EQ(message(o), "coordinate 1 is listed twice");
  o.dims = {};
  o.tolerance = -1;
  EXPECT_EQ(message(o), "tolerance must be a finite number >= 0, got -1");
  o.tolerance = 0.01;
  const double bad[] = {0.0, NAN, 1.0, 2.0};
  const Result<ProbeCertificate> r = ok_value(ProbeCertifier::make(probe, o)).certify(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "the query entry 1 is NaN");
}

}  // namespace
}  // namespace gpprobe
