// E[softmax(f)], f ~ N(mu, Sigma) (multiclass_probability.h), against independent values:
//   C = 2       the binary E[sigmoid(f^0 - f^1)] (gpc_probability.h's composite Gauss-Legendre), 1e-13
//   symmetry    relabelling the classes permutes the probabilities (another reference class), 1e-12
//   limits      Sigma = 0 gives softmax(mu) exactly; exchangeable classes give 1/C
//   large Sigma Gauss-Hermite does not converge, composite Gauss-Legendre does (C = 3, variances 100)
//   C > 4       quasi-Monte Carlo agrees with a forced tensor rule within its own error estimate
//   quantile    Phi(Phi^-1(p)) = p
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "gpprobe/classification/likelihood.h"
#include "gpprobe/classification/probability.h"
#include "gpprobe/classification/multiclass_probability.h"

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
    for (std::size_t c = 0; c < C; ++c) EXPECT_NEAR(q.probabilities[c], t.probabilities[c], q.error_estimate) << C << " " << c;
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
