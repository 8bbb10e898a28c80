// Properties of the probe against a dense reference written from docs/design/probe.md (explicit inverses of the
// heteroscedastic GP regression, kernel from its closed form): weight space = function space,
// 0 <= knowledge <= 1, variance never above the prior, PSD kernel, incremental updates = refits.
#include "gpprobe/probe/probe.h"

#include <cmath>
#include <random>

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include "gpprobe/kernels/cosine_kernel.h"
#include "gpprobe/linalg/parallel_for.h"

#include "result_assertions.h"
#include "test_support.h"

namespace gpprobe {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

RowMatrix random_rows(int n, int d, std::mt19937& rng, double scale = 1.0) {
  std::normal_distribution<double> z(0.0, scale);
  RowMatrix x(n, d);
  for (int i = 0; i < x.size(); ++i) x.data()[i] = z(rng);
  return x;
}

std::vector<std::uint8_t> random_labels(int n, std::mt19937& rng) {
  std::vector<std::uint8_t> y(n);
  for (auto& v : y) v = std::uint8_t(rng() % 2);
  return y;
}

struct Latent {
  VectorXd mean, variance;
};

// docs/design/probe.md written out densely: m = k_a' K_a^-1 (t_a - mu0) - k_b' K_b^-1 (t_b - mu0),
// var = 2v - k' (K_a^-1 + K_b^-1) k, with k(a,b) = v (a'b + 1)/sqrt((|a|^2+1)(|b|^2+1)).
Latent dense_reference(const RowMatrix& X, const std::vector<std::uint8_t>& y, const RowMatrix& Q, double eps,
                       double s) {
  auto lognormal = [](double a) {
    const double var = std::log(1 / a + 1);
    return std::pair{std::log(a) - var / 2, var};
  };
  const auto [mu0, v] = lognormal(eps);
  const auto [t_up, n_up] = lognormal(eps + s);
  auto k = [&](const auto& a, const auto& b) {
    return v * (a.dot(b) + 1) / std::sqrt((a.squaredNorm() + 1) * (b.squaredNorm() + 1));
  };
  const int O = int(X.rows()), n = int(Q.rows());
  MatrixXd K(O, O), Kq(n, O);
  for (int i = 0; i < O; ++i)
    for (int j = 0; j < O; ++j) K(i, j) = k(X.row(i), X.row(j));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < O; ++j) Kq(i, j) = k(Q.row(i), X.row(j));
  VectorXd ta(O), tb(O), na(O), nb(O);
  for (int i = 0; i < O; ++i) {
    ta[i] = y[i] ? t_up : mu0;
    na[i] = y[i] ? n_up : v;
    tb[i] = y[i] ? mu0 : t_up;
    nb[i] = y[i] ? v : n_up;
  }
  const MatrixXd Ka_inv = MatrixXd(K + MatrixXd(na.asDiagonal())).inverse();
  const MatrixXd Kb_inv = MatrixXd(K + MatrixXd(nb.asDiagonal())).inverse();
  Latent r;
  r.mean = Kq * (Ka_inv * (ta.array() - mu0).matrix()) - Kq * (Kb_inv * (tb.array() - mu0).matrix());
  r.variance = (2 * v - (Kq * (Ka_inv + Kb_inv)).cwiseProduct(Kq).rowwise().sum().array()).matrix();
  return r;
}

Latent scored(const Probe& probe, const RowMatrix& Q) {
  Latent r;
  r.mean.resize(Q.rows());
  r.variance.resize(Q.rows());
  ProbeScoreColumns c;
  c.latent_mean = r.mean.data();
  c.latent_variance = r.variance.data();
  EXPECT_TRUE(probe.score(MatrixView(Q), c).ok());
  return r;
}

Probe fitted(const RowMatrix& X, const std::vector<std::uint8_t>& y, PosteriorSpace space, double eps = 0.1,
             double s = 5) {
  return testing::fitted_probe(X, y, eps, s, space);
}

double max_relative(const VectorXd& a, const VectorXd& b) {
  return ((a - b).array().abs() / b.array().abs().max(1e-300)).maxCoeff();
}

TEST(Probe, BothSpacesMatchTheDenseReference) {
  std::mt19937 rng(11);
  // 100 queries: enough for the weight space to score through the factor T of S (prepare) up to D = 200,
  // blocked (D > 64, ragged blocks) at d = 90 and 150.
  for (auto [O, d] : {std::pair{60, 20}, std::pair{25, 90}, std::pair{300, 150}, std::pair{3, 1}}) {
    const RowMatrix X = random_rows(O, d, rng), Q = random_rows(100, d, rng);
    const auto y = random_labels(O, rng);
    const Latent ref = dense_reference(X, y, Q, 0.1, 5);
    const Latent fs = scored(fitted(X, y, PosteriorSpace::function), Q);
    const Latent ws = scored(fitted(X, y, PosteriorSpace::weight), Q);
    EXPECT_LT(max_relative(fs.mean, ref.mean), 1e-9) << O << "x" << d;
    EXPECT_LT(max_relative(fs.variance, ref.variance), 1e-9) << O << "x" << d;
    // The two forms agree to 1e-9 relative (Woodbury).
    EXPECT_LT(max_relative(ws.mean, fs.mean), 1e-9) << O << "x" << d;
    EXPECT_LT(max_relative(ws.variance, fs.variance), 1e-9) << O << "x" << d;
  }
}

TEST(Probe, OneClassOnlyAndDuplicatesMatchTheDenseReference) {
  std::mt19937 rng(12);
  RowMatrix X = random_rows(6, 4, rng);
  X.row(3) = X.row(1);  // duplicate point, same label below
  X.row(5) = X.row(1);
  const RowMatrix Q = random_rows(9, 4, rng);
  for (std::uint8_t label : {0, 1}) {
    const std::vector<std::uint8_t> y(6, label);
    const Latent ref = dense_reference(X, y, Q, 0.3, 2);
    for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
      const Latent got = scored(fitted(X, y, space, 0.3, 2), Q);
      EXPECT_LT(max_relative(got.mean, ref.mean), 1e-9);
      EXPECT_LT(max_relative(got.variance, ref.variance), 1e-9);
      // One class only: every latent mean has that class's sign at the observations.
      const Latent at_obs = scored(fitted(X, y, space, 0.3, 2), X);
      for (int i = 0; i < 6; ++i) EXPECT_EQ(at_obs.mean[i] > 0, label == 1);
    }
  }
}

TEST(Probe, KnowledgeInUnitIntervalAndVarianceBelowPrior) {
  std::mt19937 rng(13);
  const RowMatrix X = random_rows(50, 8, rng), Q = random_rows(300, 8, rng, 3.0);
  const auto y = random_labels(50, rng);
  const Probe probe = fitted(X, y, PosteriorSpace::automatic);
  std::vector<double> knowledge(300), variance(300), ood(300);
  ProbeScoreColumns c;
  c.knowledge = knowledge.data();
  c.latent_variance = variance.data();
  c.ood_score = ood.data();
  ASSERT_TRUE(probe.score(MatrixView(Q), c).ok());
  const double two_v = 2 * std::log(11.0);
  for (int q = 0; q < 300; ++q) {
    EXPECT_GE(knowledge[q], 0.0);
    EXPECT_LE(knowledge[q], 1.0);
    EXPECT_GT(variance[q], 0.0);
    EXPECT_LE(variance[q], two_v);
    EXPECT_EQ(ood[q], -variance[q]);
  }
}

TEST(Probe, CosineKernelIsPsdWithExactDiagonal) {
  std::mt19937 rng(14);
  const RowMatrix X = random_rows(40, 5, rng, 4.0);
  const CosineKernel kernel(2.5);
  MatrixXd K(40, 40);
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 40; ++j) K(i, j) = kernel(X.row(i).data(), X.row(j).data(), 5);
  for (int i = 0; i < 40; ++i) EXPECT_NEAR(K(i, i), 2.5, 1e-15);
  const VectorXd eig = Eigen::SelfAdjointEigenSolver<MatrixXd>(K).eigenvalues();
  EXPECT_GT(eig.minCoeff(), -1e-12);
  // Weight-space features reproduce the kernel.
  const RowMatrix psi = kernel.features(MatrixView(X));
  EXPECT_LT((psi * psi.transpose() - K).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(Probe, CosineKernelOfHugeVectorsDoesNotOverflow) {
  // |a|^2 overflowed once |a| > 1e154 (features of 0 and NaN scores). The kernel is not scale-invariant
  // ([a; 1] is augmented), but for c |a| >> 1e8 the augmentation is below double precision:
  //   k(c a, c b) -> v a'b / (|a| |b|),   k(c a, b) -> v a'b / (|a| sqrt(|b|^2 + 1)),
  //   psi(c a)   -> sqrt(v) [a / |a|; 0].
  const CosineKernel kernel(2.5);
  const double a[] = {3.0, -4.0}, b[] = {1.0, 2.0};
  for (double c : {1e155, 1e200, 1e307}) {
    const double ca[] = {c * a[0], c * a[1]}, cb[] = {c * b[0], c * b[1]};
    EXPECT_NEAR(kernel(ca, cb, 2), 2.5 * (3 - 8) / (5 * std::sqrt(5.0)), 1e-15) << c;
    EXPECT_NEAR(kernel(ca, b, 2), 2.5 * (3 - 8) / (5 * std::sqrt(6.0)), 1e-15) << c;
    EXPECT_NEAR(kernel(ca, ca, 2), 2.5, 1e-15) << c;
    const RowMatrix psi = kernel.features(MatrixView(ca, 1, 2));
    EXPECT_NEAR(psi(0, 0), std::sqrt(2.5) * 0.6, 1e-15) << c;
    EXPECT_NEAR(psi(0, 1), -std::sqrt(2.5) * 0.8, 1e-15) << c;
    EXPECT_NEAR(psi(0, 2), 0.0, 1e-15) << c;
  }
  // The largest finite values, in float64 (float32 cannot hold them).
  const double max[] = {1.7976931348623157e308, -1.7976931348623157e308};
  const RowMatrix psi = kernel.features(MatrixView(max, 1, 2));
  EXPECT_NEAR(psi(0, 0), std::sqrt(1.25), 1e-15);
  EXPECT_NEAR(psi(0, 1), -std::sqrt(1.25), 1e-15);
}

TEST(Probe, EmbeddingsScaledBy1e200ScoreLikeTheirDirection) {
  // Observations and queries scaled by 1e200 against the dense reference at scale 1e10, where nothing
  // overflows and the augmentation contributes 1e-20 relative (the same numbers in double precision).
  // The unscaled embeddings give other scores: the kernel sees |a| through [a; 1].
  std::mt19937 rng(19);
  const RowMatrix X = random_rows(12, 6, rng), Q = random_rows(10, 6, rng);
  const auto y = random_labels(12, rng);
  const RowMatrix X_huge = X * 1e200, Q_huge = Q * 1e200;
  const Latent ref = dense_reference(X * 1e10, y, Q * 1e10, 0.1, 5);
  for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
    const Latent huge = scored(fitted(X_huge, y, space), Q_huge);
    EXPECT_LT(max_relative(huge.mean, ref.mean), 1e-9);
    EXPECT_LT(max_relative(huge.variance, ref.variance), 1e-9);
  }
  const Latent plain = scored(fitted(X, y, PosteriorSpace::function), Q);
  EXPECT_GT(max_relative(plain.variance, ref.variance), 1e-3);
}

TEST(Probe, AddingAndRemovingObservationsEqualsRefitting) {
  std::mt19937 rng(15);
  const RowMatrix X = random_rows(12, 6, rng), Q = random_rows(20, 6, rng);
  const auto y = random_labels(12, rng);
  for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
    // Start from the first 8, add 4 more one at a time.
    const RowMatrix first8 = X.topRows(8);
    Probe probe = fitted(first8, std::vector<std::uint8_t>(y.begin(), y.begin() + 8), space);
    for (int i = 8; i < 12; ++i) {
      const RowMatrix row = X.row(i);
      ASSERT_TRUE(probe.add_observation(MatrixView(row), y[i]).ok());
    }
    const Latent full = scored(fitted(X, y, space), Q);
    Latent grown = scored(probe, Q);
    EXPECT_LT(max_relative(grown.mean, full.mean), 1e-9);
    EXPECT_LT(max_relative(grown.variance, full.variance), 1e-9);
    // Remove observation 2: equal to a fit without it.
    ASSERT_TRUE(probe.remove_observation(2).ok());
    RowMatrix without(11, 6);
    std::vector<std::uint8_t> y_without;
    for (int i = 0, r = 0; i < 12; ++i) {
      if (i == 2) continue;
      without.row(r++) = X.row(i);
      y_without.push_back(y[i]);
    }
    const Latent refit = scored(fitted(without, y_without, space), Q);
    const Latent shrunk = scored(probe, Q);
    EXPECT_LT(max_relative(shrunk.mean, refit.mean), 1e-9);
    EXPECT_LT(max_relative(shrunk.variance, refit.variance), 1e-9);
    EXPECT_EQ(probe.observation_count(), 11u);
    EXPECT_EQ(probe.labels(), y_without);
  }
}

TEST(Probe, StartsFromNothingAndReturnsToThePrior) {
  std::mt19937 rng(16);
  const RowMatrix Q = random_rows(5, 3, rng);
  Result<Probe> empty = Probe::fit(MatrixView(static_cast<const double*>(nullptr), 0, 0), nullptr, 0);
  ASSERT_TRUE(empty.ok());
  Probe probe = ok_value(std::move(empty));
  const double two_v = 2 * std::log(11.0);
  Latent prior = scored(probe, Q);
  for (int q = 0; q < 5; ++q) {
    EXPECT_EQ(prior.mean[q], 0.0);
    EXPECT_EQ(prior.variance[q], two_v);
  }
  const RowMatrix x = random_rows(1, 3, rng);
  ASSERT_TRUE(probe.add_observation(MatrixView(x), 1).ok());
  EXPECT_EQ(probe.dimension(), 3u);
  const Latent one = scored(probe, Q);
  const Latent ref = dense_reference(x, {1}, Q, 0.1, 5);
  EXPECT_LT(max_relative(one.mean, ref.mean), 1e-9);
  ASSERT_TRUE(probe.remove_observation(0).ok());
  const Latent back = scored(probe, Q);
  for (int q = 0; q < 5; ++q) {
    EXPECT_NEAR(back.mean[q], 0.0, 1e-14);
    EXPECT_NEAR(back.variance[q], two_v, 1e-13);
  }
}

TEST(Probe, ReportsProgressAndCanBeCancelled) {
  std::mt19937 rng(17);
  const RowMatrix X = random_rows(10, 4, rng), Q = random_rows(1000, 4, rng);
  const Probe probe = fitted(X, random_labels(10, rng), PosteriorSpace::automatic);
  std::vector<double> judged(1000);
  ProbeScoreColumns c;
  c.judged_probability = judged.data();
  std::vector<std::size_t> seen;
  // Per block on one thread; on more, per round of blocks (parallel_for_test.cpp).
  set_thread_count(1);
  ASSERT_TRUE(probe
                  .score(MatrixView(Q), c,
                         [&](std::size_t done, std::size_t total) {
                           EXPECT_EQ(total, 1000u);
                           seen.push_back(done);
                           return true;
                         })
                  .ok());
  EXPECT_EQ(seen, (std::vector<std::size_t>{256, 512, 768, 1000}));
  const Status cancelled = probe.score(MatrixView(Q), c, [](std::size_t done, std::size_t) { return done < 512; });
  EXPECT_EQ(cancelled.code(), StatusCode::cancelled);
  EXPECT_EQ(cancelled.message(), "scoring cancelled after 512 queries of 1000");
  set_thread_count(0);
}

TEST(Probe, ChoosesTheCheaperSpace) {
  EXPECT_EQ(cheaper_space(100, 768, 10000), PosteriorSpace::function);
  EXPECT_EQ(cheaper_space(1000, 768, 10000), PosteriorSpace::weight);
  EXPECT_EQ(cheaper_space(4000, 768, 10000), PosteriorSpace::weight);
  EXPECT_EQ(cheaper_space(4000, 16, 10), PosteriorSpace::weight);
  EXPECT_EQ(cheaper_space(0, 768, 10000), PosteriorSpace::function);
}

}  // namespace
}  // namespace gpprobe
