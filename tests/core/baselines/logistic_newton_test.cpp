// solve_logistic (the Newton solver behind LP and LPE) against references computed without it: the
// intercept-only optimum in closed form, a symmetric one-dimensional optimum by bisection, and the
// optimality conditions in long double (F is strictly convex, so a vanishing gradient pins theta down).
// The solver stops at a Newton decrement lambda²/2 <= 1e-22, which leaves theta within ~1e-11 of the
// optimum: the tolerances below are 1e-10 relative.
// Cases with huge margins (rows far out, starts far off) check that the shared exp(-|t|) per row keeps
// value, gradient and curvature finite.
#include "core/src/baselines/logistic_newton.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace gpprobe {
namespace {

// dF/dtheta in long double: [u; 0] + C sum_i s_i (-y_i) z~_i sigmoid(-y_i t_i); each component divided by
// 1 + C sum_i s_i |z~_ij| (the size of its terms), so that the result is a relative residual.
std::vector<long double> scaled_gradient(const RowMatrix& Z, const std::vector<std::uint8_t>& labels,
                                         const std::vector<double>& s, double C, const Eigen::VectorXd& theta) {
  const Eigen::Index n = Z.rows(), r = Z.cols();
  std::vector<long double> g(std::size_t(r + 1), 0.0L), size(std::size_t(r + 1), 1.0L);
  for (Eigen::Index j = 0; j < r; ++j) g[std::size_t(j)] = theta[j];
  for (Eigen::Index i = 0; i < n; ++i) {
    if (s[std::size_t(i)] <= 0) continue;
    const long double y = labels[std::size_t(i)] ? 1.0L : -1.0L;
    long double t = theta[r];
    for (Eigen::Index j = 0; j < r; ++j) t += (long double)Z(i, j) * theta[j];
    const long double q = 1.0L / (1.0L + std::exp(y * t));  // sigmoid(-y t)
    const long double weight = (long double)C * s[std::size_t(i)];
    for (Eigen::Index j = 0; j <= r; ++j) {
      const long double z = j < r ? (long double)Z(i, j) : 1.0L;
      g[std::size_t(j)] -= weight * y * z * q;
      size[std::size_t(j)] += weight * std::fabs(z);
    }
  }
  for (std::size_t j = 0; j < g.size(); ++j) g[j] /= size[j];
  return g;
}

void expect_optimal(const RowMatrix& Z, const std::vector<std::uint8_t>& labels, const std::vector<double>& s, double C,
                    const Eigen::VectorXd& theta, const char* what) {
  ASSERT_TRUE(theta.allFinite()) << what;
  for (long double g : scaled_gradient(Z, labels, s, C, theta)) EXPECT_LT(std::fabs(double(g)), 1e-12) << what;
}

TEST(LogisticNewton, InterceptOnlyIsTheLogOddsOfTheWeights) {
  // r = 0: F = C sum s_i softplus(-y_i b) is least at sigmoid(b) = S+ / (S+ + S-), b = log(S+ / S-).
  const RowMatrix Z(5, 0);
  const std::vector<std::uint8_t> labels = {1, 0, 1, 1, 0};
  const std::vector<double> s = {1.0, 1.5, 2.0, 0.5, 0.0};  // the last row takes no part
  auto solved = solve_logistic(Z, labels.data(), s.data(), 3.0);
  ASSERT_TRUE(solved.ok()) << solved.status().message();
  ASSERT_EQ(solved.value().theta.size(), 1);
  EXPECT_NEAR(solved.value().theta[0], std::log(3.5 / 1.5), 1e-10);
}

TEST(LogisticNewton, SymmetricPairsMatchTheOneDimensionalRoot) {
  // Rows +a (label 1) and -a (label 0), n of each: b = 0 by symmetry and u solves u = 2 n C a sigmoid(-a u),
  // found here by bisection in long double. Large a and C put the optimum's margins a u near 20 and the
  // first Newton steps' margins far beyond.
  for (double a : {0.5, 3.0, 40.0}) {
    for (double C : {0.1, 1.0, 1e4}) {
      const int pairs = 3;
      RowMatrix Z(2 * pairs, 1);
      std::vector<std::uint8_t> labels;
      for (int k = 0; k < pairs; ++k) {
        Z(2 * k, 0) = a;
        Z(2 * k + 1, 0) = -a;
        labels.push_back(1);
        labels.push_back(0);
      }
      long double lo = 0, hi = 2.0L * pairs * C * a;  // h(u) = u - 2nCa sigmoid(-au): h(lo) < 0 <= h(hi)
      for (int it = 0; it < 200; ++it) {
        const long double mid = (lo + hi) / 2;
        const long double h = mid - 2.0L * pairs * C * a / (1.0L + std::exp((long double)a * mid));
        (h < 0 ? lo : hi) = mid;
      }
      auto solved = solve_logistic(Z, labels.data(), nullptr, C);
      ASSERT_TRUE(solved.ok()) << solved.status().message();
      const Eigen::VectorXd& theta = solved.value().theta;
      EXPECT_NEAR(theta[0], double(lo), 1e-10 * double(lo)) << "a " << a << " C " << C;
      EXPECT_NEAR(theta[1], 0.0, 1e-10) << "a " << a << " C " << C;
    }
  }
}

// n points in r dimensions, normal with standard deviation `spread`; the third a thousand times further
// out (its margin stays in the thousands: exp(-|t|) underflows to 0 on it at every step).
RowMatrix random_rows(std::size_t n, std::size_t r, double spread, std::mt19937& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  RowMatrix Z(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(r));
  for (Eigen::Index i = 0; i < Z.rows(); ++i)
    for (Eigen::Index j = 0; j < Z.cols(); ++j) Z(i, j) = spread * normal(rng) * (i == 2 ? 1e3 : 1.0);
  return Z;
}

TEST(LogisticNewton, SeparableAndNearSeparableDataAreSolvedToOptimality) {
  std::mt19937 rng(21);
  struct Case {
    std::size_t n, r;
    double spread, C;
    int flips;
  };
  // n < r takes the Woodbury form of the Newton system, n >= r the primal one; r + 1 covers every
  // remainder of four lanes.
  for (const Case c : {Case{40, 3, 1.0, 1e3, 0}, Case{40, 4, 100.0, 1e2, 1}, Case{60, 5, 1.0, 1e4, 2},
                       Case{60, 6, 30.0, 1.0, 0}, Case{7, 12, 5.0, 1e3, 0}, Case{9, 16, 1.0, 10.0, 1}}) {
    const RowMatrix Z = random_rows(c.n, c.r, c.spread, rng);
    std::vector<std::uint8_t> labels(c.n);
    for (std::size_t i = 0; i < c.n; ++i) labels[i] = Z(Eigen::Index(i), 0) > 0 ? 1 : 0;
    for (int f = 0; f < c.flips; ++f) labels[std::size_t(f)] ^= 1;
    // Labelled by the sign of the first coordinate, `flips` of them flipped (0: separable).
    // Bootstrap-like weights: counts with zeros and repeats.
    std::vector<double> s(c.n);
    std::uniform_int_distribution<int> count(0, 3);
    for (double& v : s) v = count(rng);
    s[0] = 1.0;
    s[1] = 1.0;
    s[2] = 2.0;
    if (labels[0] == labels[1]) labels[1] ^= 1;  // both classes take part
    const std::string what = "n " + std::to_string(c.n) + " r " + std::to_string(c.r);

    auto all = solve_logistic(Z, labels.data(), nullptr, c.C);
    ASSERT_TRUE(all.ok()) << what << ": " << all.status().message();
    expect_optimal(Z, labels, std::vector<double>(c.n, 1.0), c.C, all.value().theta, what.c_str());

    // From the fit to all rows with its Newton system (as LPE's members start), and from farther off (margins
    // in the tens, the far row's in the tens of thousands).
    const NewtonStart warm{all.value().theta, all.value().system};
    auto member = solve_logistic(Z, labels.data(), s.data(), c.C, &warm);
    ASSERT_TRUE(member.ok()) << what << ": " << member.status().message();
    expect_optimal(Z, labels, s, c.C, member.value().theta, (what + " warm").c_str());

    NewtonStart far{Eigen::VectorXd::Constant(Eigen::Index(c.r + 1), 0.0), nullptr};
    far.theta[0] = 20.0 / c.spread;
    auto cold = solve_logistic(Z, labels.data(), s.data(), c.C, &far);
    ASSERT_TRUE(cold.ok()) << what << ": " << cold.status().message();
    expect_optimal(Z, labels, s, c.C, cold.value().theta, (what + " far").c_str());
    EXPECT_LT((cold.value().theta - member.value().theta).lpNorm<Eigen::Infinity>(),
              1e-9 * (1.0 + member.value().theta.lpNorm<Eigen::Infinity>()))
        << what;
  }
}

TEST(LogisticNewton, Float32NewtonSystemsPreconditionAsExactOnesAndFallBackWhenIllConditioned) {
  // The primal Newton system's weight block comes from float32 products. It only preconditions the
  // steps, so a wrong one shows as many more steps, not as a wrong optimum: well-conditioned, the solver
  // takes the steps it takes with float64 systems (16 from zero, 22 for a bootstrap member started from
  // the fit to all rows; a float32 block with one column mis-scaled took 94 and 55). With 24 columns that
  // are one shared value of scale 100 plus 1e-2 noise each and random labels, H = I + (entries ~1e5) has
  // directions of curvature ~1 that float32 products (errors ~4e-6 of the entries) resolve poorly: the
  // solver must notice and form H in float64 (with float64 throughout 8 and 10 steps; with the fallback
  // 15 and 10; float32 throughout 20 and 18).
  std::mt19937 rng(8);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (const bool ill : {false, true}) {
    const Eigen::Index n = 300, r = 24;
    RowMatrix Z(n, r);
    for (Eigen::Index i = 0; i < n; ++i) {
      const double shared = 100.0 * normal(rng);
      for (Eigen::Index j = 0; j < r; ++j) Z(i, j) = ill ? shared + 0.01 * normal(rng) : normal(rng);
    }
    std::vector<std::uint8_t> labels(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i)
      labels[std::size_t(i)] = ill ? normal(rng) > 0 : Z(i, 0) + 0.3 * normal(rng) > 0;
    const double C = 1.0;
    auto all = solve_logistic(Z, labels.data(), nullptr, C);
    ASSERT_TRUE(all.ok()) << ill << ": " << all.status().message();
    expect_optimal(Z, labels, std::vector<double>(std::size_t(n), 1.0), C, all.value().theta, ill ? "ill all" : "all");
    EXPECT_LE(all.value().iterations, ill ? 16u : 20u) << ill;
    std::vector<double> s(static_cast<std::size_t>(n));
    std::poisson_distribution<int> count(1.0);
    for (double& v : s) v = count(rng);
    const NewtonStart warm{all.value().theta, all.value().system};
    auto member = solve_logistic(Z, labels.data(), s.data(), C, &warm);
    ASSERT_TRUE(member.ok()) << ill << ": " << member.status().message();
    expect_optimal(Z, labels, s, C, member.value().theta, ill ? "ill member" : "member");
    EXPECT_LE(member.value().iterations, ill ? 14u : 28u) << ill;
    std::printf("  %s: %zu Newton steps from zero, %zu for a bootstrap member\n",
                ill ? "ill-conditioned" : "well-conditioned", all.value().iterations, member.value().iterations);
  }
}

}  // namespace
}  // namespace gpprobe
