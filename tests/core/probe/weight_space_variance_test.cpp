// The weight-space variance through the triangular factor of S (weight_space_posterior.h): a long
// scoring pass takes |T psi|^2 with S = T'T, a single query psi' S psi. Both against a straightforward
// long-double reference (features, A = I + G_raising/n+ + G_other/v, S = A_alpha^-1 + A_beta^-1,
// psi' S psi), on variances down to ~4e-7 of the prior's: points observed 200 times each with both labels
// at a strength of 1e4, and D = 30 features (not a multiple of the kernels' blocks or lanes).
#include <cmath>
#include <random>
#include <vector>

#include <Eigen/Cholesky>
#include <gtest/gtest.h>

#include "gpprobe/probe/probe.h"

#include "test_support.h"

namespace gpprobe {
namespace {

using Long = long double;
using LongMatrix = Eigen::Matrix<Long, Eigen::Dynamic, Eigen::Dynamic>;
using LongVector = Eigen::Matrix<Long, Eigen::Dynamic, 1>;

LongVector features(const RowMatrix& x, Eigen::Index i, Long v) {
  const Eigen::Index d = x.cols();
  LongVector psi(d + 1);
  Long norm2 = 0;
  for (Eigen::Index j = 0; j < d; ++j) norm2 += Long(x(i, j)) * Long(x(i, j));
  const Long scale = std::sqrt(v / (norm2 + 1));
  for (Eigen::Index j = 0; j < d; ++j) psi[j] = Long(x(i, j)) * scale;
  psi[d] = scale;
  return psi;
}

// Latent mean and variance of the probe at each row of `queries`, in long double.
void reference(const RowMatrix& x, const std::vector<std::uint8_t>& y, double eps, double s, const RowMatrix& queries,
               std::vector<Long>* mean, std::vector<Long>* variance) {
  const Long v = std::log1p(1 / Long(eps)), mu0 = std::log(Long(eps)) - v / 2;
  const Long raised = std::log1p(1 / (Long(eps) + Long(s))), delta = std::log(Long(eps) + Long(s)) - raised / 2 - mu0;
  const Eigen::Index D = x.cols() + 1;
  LongMatrix G1 = LongMatrix::Zero(D, D), G0 = G1;
  LongVector s1 = LongVector::Zero(D), s0 = s1;
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const LongVector psi = features(x, i, v);
    (y[std::size_t(i)] ? G1 : G0) += psi * psi.transpose();
    (y[std::size_t(i)] ? s1 : s0) += psi;
  }
  const LongMatrix I = LongMatrix::Identity(D, D);
  const Eigen::LLT<LongMatrix> alpha(I + G1 / raised + G0 / v), beta(I + G0 / raised + G1 / v);
  const LongVector u = alpha.solve(s1 * (delta / raised)) - beta.solve(s0 * (delta / raised));
  const LongMatrix S = alpha.solve(I) + beta.solve(I);
  for (Eigen::Index q = 0; q < queries.rows(); ++q) {
    const LongVector psi = features(queries, q, v);
    mean->push_back(psi.dot(u));
    variance->push_back(psi.dot(S * psi));
  }
}

TEST(WeightSpaceVariance, TriangularFactorAndFullFormMatchALongDoubleReference) {
  const int d = 29, points = 5, copies = 200;
  const double eps = 0.1, strength = 1e4;
  std::mt19937 rng(21);
  std::normal_distribution<double> z;
  RowMatrix distinct(points, d);
  for (int i = 0; i < distinct.size(); ++i) distinct.data()[i] = z(rng) / std::sqrt(double(d));
  RowMatrix x(points * copies, d);
  std::vector<std::uint8_t> y;
  for (int c = 0; c < copies; ++c)
    for (int p = 0; p < points; ++p) {
      x.row(c * points + p) = distinct.row(p);
      y.push_back(std::uint8_t(c % 2));
    }
  // The observed points themselves (tiny variances), points near them, and unrelated ones: 48 queries,
  // at least D/2, so one pass over them all goes through the factor.
  RowMatrix queries(48, d);
  for (int q = 0; q < 48; ++q) {
    for (int j = 0; j < d; ++j) queries(q, j) = z(rng) / std::sqrt(double(d));
    if (q < 2 * points) queries.row(q) = distinct.row(q % points) + (q < points ? 0.0 : 1e-3) * queries.row(q);
  }
  std::vector<Long> want_mean, want_variance;
  reference(x, y, eps, strength, queries, &want_mean, &want_variance);

  const Probe probe = testing::fitted_probe(x, y, eps, strength, PosteriorSpace::weight);
  ASSERT_EQ(probe.space(), PosteriorSpace::weight);
  const std::size_t n = std::size_t(queries.rows());
  std::vector<double> mean(n), variance(n), single_mean(n), single_variance(n);
  // A short pass before any long one: the long pass below leaves the factor T behind, and a short pass
  // after it must still take S (the numbers never depend on what was scored before).
  double first_mean = 0.0, first_variance = 0.0;
  {
    const RowMatrix row = queries.row(0);
    ProbeScoreColumns one{};
    one.latent_mean = &first_mean;
    one.latent_variance = &first_variance;
    ASSERT_TRUE(probe.score(MatrixView(row), one).ok());
  }
  ProbeScoreColumns all{};
  all.latent_mean = mean.data();
  all.latent_variance = variance.data();
  ASSERT_TRUE(probe.score(MatrixView(queries), all).ok());
  for (std::size_t q = 0; q < n; ++q) {  // one at a time: too few queries to factor S
    const RowMatrix row = queries.row(Eigen::Index(q));
    ProbeScoreColumns one{};
    one.latent_mean = &single_mean[q];
    one.latent_variance = &single_variance[q];
    ASSERT_TRUE(probe.score(MatrixView(row), one).ok());
  }
  EXPECT_EQ(single_mean[0], first_mean);
  EXPECT_EQ(single_variance[0], first_variance);
  // The posterior itself (S from two inverses) is good to what its condition estimate admits (about
  // 6e6 here: ~1e-9 of relative error against long double, in either form); the two forms of the
  // product agree far closer than that (below).
  const double two_v = 2.0 * std::log1p(1.0 / eps);
  const double admitted = 1e-15 * probe.condition();
  ASSERT_LT(admitted, 1e-8);
  double smallest = two_v;
  for (std::size_t q = 0; q < n; ++q) {
    SCOPED_TRACE("query " + std::to_string(q));
    const double want = double(want_variance[q]), want_mean_q = double(want_mean[q]);
    smallest = std::min(smallest, want);
    EXPECT_GT(variance[q], 0.0);
    // The full form psi' S psi rounds to about 1e-16 of psi's scale times |S| (<= 2v) whatever the
    // variance: at the observed points' near-zero variances (2e-6 here) the forms differ by up to 3e-16
    // absolute (1e-10 relative), elsewhere by less than 1e-12 relative.
    EXPECT_NEAR(variance[q], single_variance[q], 1e-12 * want + 1e-15 * two_v);
    EXPECT_NEAR(variance[q], want, admitted * want);
    EXPECT_NEAR(single_variance[q], want, admitted * want);
    EXPECT_NEAR(mean[q], want_mean_q, admitted * (1.0 + std::fabs(want_mean_q)));
    EXPECT_NEAR(single_mean[q], want_mean_q, admitted * (1.0 + std::fabs(want_mean_q)));
  }
  EXPECT_LT(smallest, 1e-6 * two_v);  // the observed points are pinned down: near-zero variances
}

}  // namespace
}  // namespace gpprobe
