// PCA against the exact eigendecomposition of the covariance; belief densities against closed forms
// and direct integration; the evidence frontier against a Probe fitted to n duplicate observations.
#include <cmath>
#include <random>

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include "gpprobe/linalg/pca.h"
#include "gpprobe/probe/belief_densities.h"
#include "gpprobe/probe/belief_envelope.h"
#include "gpprobe/probe/probe.h"
#include "gpprobe/probe/uncertainty_measures.h"

#include "result_assertions.h"

namespace gpprobe {
namespace {

using Eigen::MatrixXd;

TEST(Pca, MatchesTheEigendecompositionOfTheCovariance) {
  // Rows with a decaying spectrum (standard deviations 5, 3, 1, 0.5, ...) in a random rotation.
  std::mt19937 rng(21);
  std::normal_distribution<double> z;
  const int n = 1500, d = 40;
  MatrixXd R(d, d);
  for (int i = 0; i < R.size(); ++i) R.data()[i] = z(rng);
  const MatrixXd rotation = Eigen::HouseholderQR<MatrixXd>(R).householderQ();
  RowMatrix X(n, d);
  for (int i = 0; i < n; ++i) {
    Eigen::VectorXd latent(d);
    for (int j = 0; j < d; ++j) latent[j] = z(rng) * (j == 0 ? 5.0 : j == 1 ? 3.0 : 1.0 / (j + 1));
    X.row(i) = (rotation * latent).transpose();
    X.row(i).array() += 2.0;  // an offset the mean must remove
  }
  Result<PrincipalComponents> pc = principal_components(MatrixView(X), 2);
  ASSERT_TRUE(pc.ok()) << pc.status().message();

  const Eigen::RowVectorXd mean = X.colwise().mean();
  const MatrixXd Xc = X.rowwise() - mean;
  const MatrixXd covariance = Xc.transpose() * Xc / double(n - 1);
  Eigen::SelfAdjointEigenSolver<MatrixXd> eig(covariance);
  for (int j = 0; j < 2; ++j) {
    const Eigen::VectorXd exact = eig.eigenvectors().col(d - 1 - j);
    EXPECT_NEAR(pc.value().explained_variance[j], eig.eigenvalues()[d - 1 - j], 1e-9 * eig.eigenvalues()[d - 1]);
    EXPECT_NEAR(std::abs(exact.dot(pc.value().components.row(j).transpose())), 1.0, 1e-10);
    // Scores are the centred rows projected on the component.
    const Eigen::VectorXd projected = Xc * pc.value().components.row(j).transpose();
    EXPECT_LT((projected - pc.value().scores.col(j)).cwiseAbs().maxCoeff(), 1e-9);
  }
  EXPECT_NEAR(pc.value().total_variance, covariance.trace(), 1e-9 * covariance.trace());
  EXPECT_LT((pc.value().mean.transpose() - mean).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(Pca, WorksOnFloat32AndReportsBadInput) {
  std::vector<float> x = {1, 2, 3, 4, 5, 7, 8, 8, 9};
  Result<PrincipalComponents> pc = principal_components(MatrixView(x.data(), 3, 3), 2);
  ASSERT_TRUE(pc.ok());
  EXPECT_EQ(pc.value().scores.rows(), 3);
  EXPECT_EQ(principal_components(MatrixView(x.data(), 1, 3), 1).status().message(), "PCA needs at least 2 rows, got 1");
  EXPECT_EQ(principal_components(MatrixView(x.data(), 3, 3), 4).status().message(),
            "PCA of a 3 by 3 matrix cannot have 4 components");
  int calls = 0;
  const Status cancelled = principal_components(MatrixView(x.data(), 3, 3), 1, 1, 3, [&](std::size_t, std::size_t) {
                             return ++calls < 2;
                           }).status();
  EXPECT_EQ(cancelled.code(), StatusCode::cancelled);
}

TEST(BeliefDensities, IntegrateToOneAndMatchClosedForms) {
  // Beta(2, 3) = 12 y (1 - y)^2.
  EXPECT_NEAR(beta_density(0.3, 2, 3), 12 * 0.3 * 0.49, 1e-13);
  EXPECT_EQ(beta_density(0.0, 0.5, 0.5), 0.0);
  // Logit-normal at the median: 1 / (y(1-y) sqrt(2 pi s2)).
  EXPECT_NEAR(logit_normal_density(0.5, 0.0, 2.0), 1.0 / (0.25 * std::sqrt(2 * M_PI * 2.0)), 1e-13);
  // Both integrate to 1 (midpoint rule in the logit variable, where the integrands are smooth).
  double beta_mass = 0, logit_mass = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double t = -30 + 60.0 * (i + 0.5) / n;  // logit
    const double y = 1 / (1 + std::exp(-t)), dy = y * (1 - y) * 60.0 / n;
    beta_mass += beta_density(y, 2.5, 1.5) * dy;
    logit_mass += logit_normal_density(y, 1.2, 0.7) * dy;
  }
  EXPECT_NEAR(beta_mass, 1.0, 1e-6);
  EXPECT_NEAR(logit_mass, 1.0, 1e-9);
}

TEST(BeliefDensities, BeliefAtObservedPointMatchesTheClosedFormPosterior) {
  // One negative observation at the point: f_alpha sees residual 0 with noise v -> var v/2, mean mu0;
  // f_beta sees delta with noise n+ -> var v n+/(v + n+), mean mu0 + v delta/(v + n+).
  const double eps = 0.1, s = 5;
  const double v = std::log(1 / eps + 1), n_up = std::log(1 / (eps + s) + 1);
  const double delta = (std::log(eps + s) - n_up / 2) - (std::log(eps) - v / 2);
  Result<BeliefAtObservedPoint> b = belief_at_observed_point(eps, s, 0, 1);
  ASSERT_TRUE(b.ok());
  EXPECT_NEAR(b.value().latent_mean, -v * delta / (v + n_up), 1e-12);
  EXPECT_NEAR(b.value().latent_variance, v / 2 + v * n_up / (v + n_up), 1e-12);
  EXPECT_EQ(b.value().beta_a, eps);
  EXPECT_EQ(b.value().beta_b, eps + s);
  Result<BeliefAtObservedPoint> prior = belief_at_observed_point(eps, s, 0, 0);
  ASSERT_OK(prior);
  EXPECT_NEAR(prior.value().latent_variance, 2 * v, 1e-14);
  EXPECT_EQ(belief_at_observed_point(eps, s, -1, 0).status().code(), StatusCode::invalid_argument);
}

TEST(BeliefDensities, ThePriorBeliefNeedsNoStrength) {
  // The prior is the belief at a point observed 0 times, for any strength: f ~ N(0, 2 log(1/eps + 1)).
  const LatentBelief prior = ok_value(prior_belief(0.1));
  EXPECT_EQ(prior.mean, 0.0);
  EXPECT_NEAR(prior.variance, 2.0 * std::log(11.0), 1e-15);
  for (double strength : {0.5, 5.0, 40.0}) {
    const BeliefAtObservedPoint b = ok_value(belief_at_observed_point(0.1, strength, 0, 0));
    EXPECT_NEAR(b.latent_variance, prior.variance, 1e-12) << strength;
    EXPECT_NEAR(b.latent_mean, prior.mean, 1e-12) << strength;
  }
  EXPECT_EQ(prior_belief(-1.0).status().message(), "epsilon must be a finite number > 0, got -1");
}

TEST(BeliefEnvelope, IsTheLeastEpistemeOfAnyBeliefWithinThePriorVariance) {
  const double eps = 0.1;
  const double two_v = 2 * std::log(1 / eps + 1);
  Result<std::vector<EnvelopePoint>> envelope = belief_envelope(eps, 400);
  ASSERT_TRUE(envelope.ok());
  const auto& e = envelope.value();
  EXPECT_NEAR(e.front().judged_probability, 0.5, 1e-15);
  EXPECT_NEAR(e.back().judged_probability, 0.999, 1e-12);
  // The envelope is attained: at its variance, the mean that gives p has exactly that episteme.
  for (std::size_t k = 0; k < e.size(); k += 7) {
    double lo = 0, hi = 60;
    for (int it = 0; it < 200; ++it) {
      const double mid = 0.5 * (lo + hi);
      (uncertainty_measures(mid, e[k].latent_variance).judged_probability < e[k].judged_probability ? lo : hi) = mid;
    }
    EXPECT_NEAR(uncertainty_measures(lo, e[k].latent_variance, GaussHermite::make(64)).episteme, e[k].episteme, 1e-7)
        << k;
  }
  // No belief f ~ N(m, s2) with s2 <= 2v lies below it (random beliefs, both signs of m).
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> mean(-12, 12), log_variance(std::log(two_v) - 12, std::log(two_v));
  for (int trial = 0; trial < 3000; ++trial) {
    const UncertaintyMeasures u = uncertainty_measures(mean(rng), std::exp(log_variance(rng)));
    const double p = std::max(u.judged_probability, 1 - u.judged_probability);
    if (p > 0.999) continue;
    std::size_t k = 1;
    while (e[k].judged_probability < p) ++k;
    const double w = (p - e[k - 1].judged_probability) / (e[k].judged_probability - e[k - 1].judged_probability);
    const double bound = e[k - 1].episteme + w * (e[k].episteme - e[k - 1].episteme);
    EXPECT_GE(u.episteme, bound - 1e-4) << "p=" << p;
  }
  // Minimising over the variance matters: at p = 0.9 the least episteme is not at the prior's variance.
  std::size_t k90 = 0;
  while (e[k90].judged_probability < 0.9) ++k90;
  EXPECT_LT(e[k90].latent_variance, 0.9 * two_v);
  EXPECT_EQ(belief_envelope(-1, 10).status().message(), "epsilon must be a finite number > 0, got -1");
}

}  // namespace
}  // namespace gpprobe
