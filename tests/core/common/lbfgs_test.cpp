// Bounded L-BFGS on Rosenbrock's function: the free optimum, an optimum on a bound, fixed variables.
#include "gpprobe/common/lbfgs.h"

#include <cmath>

#include <gtest/gtest.h>

namespace gpprobe {
namespace {

// f = (1 - x0)^2 + 100 (x1 - x0^2)^2, minimum 0 at (1, 1).
double rosenbrock(const std::vector<double>& x, std::vector<double>* g) {
  const double a = 1.0 - x[0], b = x[1] - x[0] * x[0];
  (*g)[0] = -2.0 * a - 400.0 * x[0] * b;
  (*g)[1] = 200.0 * b;
  return a * a + 100.0 * b * b;
}

TEST(Lbfgs, FindsTheRosenbrockMinimum) {
  Result<LbfgsResult> r = minimize_lbfgs(rosenbrock, {-1.2, 1.0}, {-5, -5}, {5, 5});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value().converged);
  EXPECT_NEAR(r.value().x[0], 1.0, 1e-5);
  EXPECT_NEAR(r.value().x[1], 1.0, 1e-5);
  EXPECT_LT(r.value().value, 1e-10);
  EXPECT_LT(r.value().iterations, 100u);
}

TEST(Lbfgs, StopsOnAnActiveBound) {
  // With x0 <= 0.5 the best x1 is x0^2 and f = (1 - x0)^2, so the optimum is (0.5, 0.25), f = 0.25.
  Result<LbfgsResult> r = minimize_lbfgs(rosenbrock, {-1.2, 1.0}, {-2, -2}, {0.5, 2});
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(r.value().x[0], 0.5, 1e-9);
  EXPECT_NEAR(r.value().x[1], 0.25, 1e-5);
  EXPECT_NEAR(r.value().value, 0.25, 1e-9);
}

TEST(Lbfgs, HoldsFixedVariablesAndProjectsTheStart) {
  // x1 fixed at 2: f = (1 - x0)^2 + 100 (2 - x0^2)^2, minimised near x0 = sqrt(2) - small.
  Result<LbfgsResult> r = minimize_lbfgs(rosenbrock, {0.0, 7.0}, {-3, 2}, {3, 2});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().x[1], 2.0);
  std::vector<double> g(2);
  rosenbrock(r.value().x, &g);
  EXPECT_NEAR(g[0], 0.0, 1e-5);
}

TEST(Lbfgs, ReportsProgressAndCancels) {
  std::size_t calls = 0;
  Result<LbfgsResult> r =
      minimize_lbfgs(rosenbrock, {-1.2, 1.0}, {-5, -5}, {5, 5}, {}, [&](std::size_t done, std::size_t total) {
        ++calls;
        EXPECT_EQ(total, 200u);
        return done < 3;
      });
  EXPECT_EQ(r.status().code(), StatusCode::cancelled);
  EXPECT_EQ(r.status().message(), "optimisation cancelled after 3 iterations");
  EXPECT_EQ(calls, 3u);
}

TEST(Lbfgs, BadInputsAreNamed) {
  EXPECT_EQ(minimize_lbfgs(rosenbrock, {0, 0}, {0}, {1, 1}).status().message(),
            "bounds have 1 and 2 entries for 2 variables");
  EXPECT_EQ(minimize_lbfgs(rosenbrock, {0, 0}, {0, 2}, {1, 1}).status().message(),
            "variable 1 has lower bound 2.000000 above upper bound 1.000000");
  const Objective nan = [](const std::vector<double>&, std::vector<double>*) { return NAN; };
  EXPECT_EQ(minimize_lbfgs(nan, {0.0}, {-1}, {1}).status().message(),
            "the objective is not finite at the starting point");
}

}  // namespace
}  // namespace gpprobe
