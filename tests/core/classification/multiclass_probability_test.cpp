// E[softmax(f)], f ~ N(mu, Sigma) (multiclass_probability.h), against independent values:
//   C = 2       the binary E[sigmoid(f^0 - f^1)] (gpc_probability.h's composite Gauss-Legendre), 1e-13
//   symmetry    relabelling the classes permutes the probabilities (another reference class), 1e-12
//   limits      Sigma = 0 gives softmax(mu) exactly; exchangeable classes give 1/C
//   large Sigma Gauss-Hermite does not converge, composite Gauss-Legendre does (C = 3, variances 100)
//   very large  variances 5 to 5000 (the learned digits model's ~700): against a brute-force composite
//               Gauss-Legendre sum in t computed here (C = 2: 1-D, 4000 panels; C = 3: 2-D, 200 x 200 panels
//               of 16 x 16 nodes), 1e-11
//   C > 4       quasi-Monte Carlo agrees with a forced tensor rule within its own error estimate
//   quantile    Phi(Phi^-1(p)) = p
#include "gpprobe/classification/multiclass_probability.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include <Eigen/Cholesky>
#include <gtest/gtest.h>

#include "gpprobe/classification/likelihood.h"
#include "gpprobe/classification/probability.h"

namespace gpprobe {
namespace {

Eigen::MatrixXd random_covariance(std::size_t C, double scale, std::mt19937& rng) {
  std::normal_distribution<double> z;
  Eigen::MatrixXd A{Eigen::Index(C), Eigen::Index(C)};
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < A.cols(); ++j) A(i, j) = z(rng);
  return scale * (A * A.transpose() / double(C) + 0.1 * Eigen::MatrixXd::Identity(A.rows(), A.cols()));
}

Eigen::VectorXd random_mean(std::size_t C, std::mt19937& rng) {
  std::normal_distribution<double> z;
  Eigen::VectorXd m{Eigen::Index(C)};
  for (Eigen::Index i = 0; i < m.size(); ++i) m[i] = 1.5 * z(rng);
  return m;
}

TEST(MulticlassProbability, TwoClassesAreTheBinaryLogisticExpectation) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::VectorXd m = random_mean(2, rng);
    const Eigen::MatrixXd S = random_covariance(2, trial < 10 ? 1.0 : 30.0, rng);
    const SoftmaxExpectation e = softmax_expectation(m, S).value();
    const double mean = m[0] - m[1], variance = S(0, 0) + S(1, 1) - 2.0 * S(0, 1);
    EXPECT_NEAR(e.probabilities[0], logistic_expectation(mean, variance), 1e-13) << trial;
    EXPECT_NEAR(e.probabilities[0] + e.probabilities[1], 1.0, 1e-15);
    EXPECT_TRUE(e.converged);
  }
}

TEST(MulticlassProbability, RelabellingPermutesTheProbabilities) {
  std::mt19937 rng(5);
  for (std::size_t C : {3u, 4u}) {
    for (int trial = 0; trial < 6; ++trial) {
      const Eigen::VectorXd m = random_mean(C, rng);
      const Eigen::MatrixXd S = random_covariance(C, trial < 3 ? 1.0 : (C == 3 ? 6.0 : 2.5), rng);
      std::vector<int> order(C);
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
      std::swap(order[0], order[C - 1]);  // a different reference class for sure
      Eigen::VectorXd pm(m.size());
      Eigen::MatrixXd pS(S.rows(), S.cols());
      for (std::size_t a = 0; a < C; ++a) {
        pm[Eigen::Index(a)] = m[order[a]];
        for (std::size_t b = 0; b < C; ++b) pS(Eigen::Index(a), Eigen::Index(b)) = S(order[a], order[b]);
      }
      const SoftmaxExpectation e = softmax_expectation(m, S).value(), f = softmax_expectation(pm, pS).value();
      for (std::size_t a = 0; a < C; ++a) EXPECT_NEAR(f.probabilities[a], e.probabilities[order[a]], 1e-12);
      EXPECT_NEAR(std::accumulate(e.probabilities.begin(), e.probabilities.end(), 0.0), 1.0, 1e-14);
    }
  }
}

TEST(MulticlassProbability, Limits) {
  Eigen::VectorXd m(3);
  m << 0.3, -1.0, 2.0;
  const SoftmaxExpectation point = softmax_expectation(m, Eigen::MatrixXd::Zero(3, 3)).value();
  const double total = std::exp(0.3) + std::exp(-1.0) + std::exp(2.0);
  EXPECT_NEAR(point.probabilities[0], std::exp(0.3) / total, 1e-15);
  EXPECT_NEAR(point.probabilities[2], std::exp(2.0) / total, 1e-15);
  // Exchangeable: equal means, covariance a I + b 11'.
  for (std::size_t C : {3u, 4u, 7u}) {
    Eigen::VectorXd mean = Eigen::VectorXd::Constant(Eigen::Index(C), 0.4);
    Eigen::MatrixXd S = 2.0 * Eigen::MatrixXd::Identity(Eigen::Index(C), Eigen::Index(C)) +
                        0.5 * Eigen::MatrixXd::Ones(Eigen::Index(C), Eigen::Index(C));
    const SoftmaxExpectation e = softmax_expectation(mean, S).value();
    for (double p : e.probabilities) EXPECT_NEAR(p, 1.0 / double(C), C <= 4 ? 1e-13 : e.error_estimate);
  }
}

TEST(MulticlassProbability, LargeVariancesNeedGaussLegendre) {
  Eigen::VectorXd m(3);
  m << 2.0, -1.0, 0.5;
  Eigen::MatrixXd S(3, 3);
  S << 100, 20, -10, 20, 80, 5, -10, 5, 90;
  SoftmaxExpectationOptions hermite_only;
  hermite_only.rule = SoftmaxRule::gauss_hermite;
  const SoftmaxExpectation h = softmax_expectation(m, S, hermite_only).value();
  EXPECT_FALSE(h.converged);
  const SoftmaxExpectation e = softmax_expectation(m, S).value();
  EXPECT_TRUE(e.converged);
  EXPECT_EQ(e.rule, SoftmaxRule::gauss_legendre);
  EXPECT_LE(e.error_estimate, 1e-13);
  // The same integral with the other class as reference (relabelled) agrees.
  Eigen::VectorXd pm(3);
  pm << m[2], m[1], m[0];
  Eigen::MatrixXd pS(3, 3);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) pS(a, b) = S(2 - a, 2 - b);
  const SoftmaxExpectation f = softmax_expectation(pm, pS).value();
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(f.probabilities[a], e.probabilities[2 - a], 1e-12);
  // Gauss-Hermite's best effort is off by far more than the tolerance.
  EXPECT_GT(std::abs(h.probabilities[0] - e.probabilities[0]), 1e-10);
}

// sum over a tensor grid of composite 16-point Gauss-Legendre on [-9, 9] per axis (P panels each) of the
// softmax of the differences g = m + L t, L = chol(A Sigma A'): no split, no adaptivity, many nodes.
std::vector<double> brute_force(const Eigen::VectorXd& mean, const Eigen::MatrixXd& S, int panels) {
  const Eigen::Index C = mean.size(), D = C - 1;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(D, C);
  for (Eigen::Index j = 0; j < D; ++j) A(j, j) = 1.0, A(j, D) = -1.0;
  const Eigen::VectorXd m = A * mean;
  const Eigen::MatrixXd L = Eigen::MatrixXd(A * S * A.transpose()).llt().matrixL();
  const GaussLegendre16& gl = gauss_legendre16();
  std::vector<double> t, w;
  const double width = 18.0 / panels;
  for (int p = 0; p < panels; ++p)
    for (int k = 0; k < 16; ++k) {
      const double x = -9.0 + (p + 0.5) * width + 0.5 * width * gl.nodes[k];
      t.push_back(x);
      w.push_back(0.5 * width * gl.weights[k] * std::exp(-0.5 * x * x) / std::sqrt(2.0 * 3.14159265358979323846));
    }
  std::vector<long double> sum(static_cast<std::size_t>(C), 0.0L);
  std::vector<double> g(static_cast<std::size_t>(D)), out(static_cast<std::size_t>(C));
  std::vector<std::size_t> index(static_cast<std::size_t>(D), 0);
  while (true) {
    double weight = 1.0;
    for (Eigen::Index r = 0; r < D; ++r) {
      g[std::size_t(r)] = m[r];
      for (Eigen::Index j = 0; j <= r; ++j) g[std::size_t(r)] += L(r, j) * t[index[std::size_t(j)]];
      weight *= w[index[std::size_t(r)]];
    }
    softmax_of_differences(g.data(), std::size_t(D), out.data());
    for (std::size_t c = 0; c < std::size_t(C); ++c) sum[c] += (long double)(weight * out[c]);
    std::size_t r = 0;
    while (r < std::size_t(D) && ++index[r] == t.size()) index[r++] = 0;
    if (r == std::size_t(D)) break;
  }
  return std::vector<double>(sum.begin(), sum.end());
}

TEST(MulticlassProbability, VeryLargeVariancesAgainstBruteForce) {
  // C = 2: difference variances 5, 450 and 5000.
  for (double scale : {1.0, 90.0, 1000.0}) {
    Eigen::VectorXd m(2);
    m << 1.3, -0.4;
    Eigen::MatrixXd S(2, 2);
    S << 7.0 * scale, 4.5 * scale, 4.5 * scale, 6.5 * scale;
    const SoftmaxExpectation e = softmax_expectation(m, S).value();
    EXPECT_TRUE(e.converged);
    const std::vector<double> ref = brute_force(m, S, 4000);
    for (int c = 0; c < 2; ++c) EXPECT_NEAR(e.probabilities[std::size_t(c)], ref[std::size_t(c)], 1e-11) << scale;
  }
  // C = 3: a held-out digit's latent moments under the digits model at s2 = 1590 (variances ~700), and
  // the same covariance with other means.
  Eigen::MatrixXd S(3, 3);
  S << 672.03515724252657, 444.69556142931867, 473.26928132875912, 444.69556142931867, 725.53098870038161,
      419.77344987076503, 473.26928132875912, 419.77344987076503, 696.95726880098528;
  for (const Eigen::Vector3d& m : {Eigen::Vector3d(11.629301402964945, -4.5842922418664003, -7.0450091610973224),
                                   Eigen::Vector3d(-3.0, 2.5, 0.2), Eigen::Vector3d(0.0, 0.0, 40.0)}) {
    const SoftmaxExpectation e = softmax_expectation(m, S).value();
    EXPECT_TRUE(e.converged);
    const std::vector<double> ref = brute_force(m, S, 200);
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(e.probabilities[std::size_t(c)], ref[std::size_t(c)], 1e-11) << m.transpose();
  }
}

TEST(MulticlassProbability, QuasiMonteCarloAboveFourClassesWithinItsErrorEstimate) {
  std::mt19937 rng(11);
  for (std::size_t C : {5u, 6u}) {
    const Eigen::VectorXd m = random_mean(C, rng);
    const Eigen::MatrixXd S = random_covariance(C, 1.0, rng);
    const SoftmaxExpectation q = softmax_expectation(m, S).value();
    EXPECT_EQ(q.rule, SoftmaxRule::quasi_monte_carlo);
    EXPECT_TRUE(q.converged);
    EXPECT_GT(q.error_estimate, 0.0);
    EXPECT_LE(q.error_estimate, 3.0 * SoftmaxExpectationOptions().qmc_tolerance);
    SoftmaxExpectationOptions tensor;
    tensor.rule = SoftmaxRule::gauss_hermite;
    tensor.tolerance = 1e-8;
    const SoftmaxExpectation t = softmax_expectation(m, S, tensor).value();
    for (std::size_t c = 0; c < C; ++c)
      EXPECT_NEAR(q.probabilities[c], t.probabilities[c], q.error_estimate) << C << " " << c;
  }
  // Ten classes: runs, sums to 1, and reproduces (seeded).
  const Eigen::VectorXd m = random_mean(10, rng);
  const Eigen::MatrixXd S = random_covariance(10, 1.0, rng);
  const SoftmaxExpectation a = softmax_expectation(m, S).value(), b = softmax_expectation(m, S).value();
  EXPECT_NEAR(std::accumulate(a.probabilities.begin(), a.probabilities.end(), 0.0), 1.0, 1e-14);
  EXPECT_EQ(a.probabilities, b.probabilities);
  EXPECT_TRUE(a.converged);
}

TEST(MulticlassProbability, NormalQuantile) {
  for (double p : {1e-300, 1e-20, 1e-8, 0.01, 0.02425, 0.3, 0.5, 0.77, 0.99, 1.0 - 1e-9}) {
    const double x = normal_quantile(p);
    EXPECT_NEAR(normal_cdf(x), p, 1e-14 * (1.0 + x * x) * std::min(p, 1.0 - p) + 4e-16 * p) << p;
  }
}

}  // namespace
}  // namespace gpprobe
