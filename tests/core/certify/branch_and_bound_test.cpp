// The generic branch and bound against functions whose extrema are known in closed form, with bound
// oracles written as interval arithmetic: separable quadratics (exact range per coordinate) and a
// 2-D function with two basins whose natural interval extension is sound but loose.
#include "gpprobe/certify/branch_and_bound.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace gpprobe {
namespace {

struct Interval {
  double lower, upper;
  double width() const { return upper - lower; }
};

Interval add(Interval a, Interval b) { return {a.lower + b.lower, a.upper + b.upper}; }
Interval scale(double c, Interval a) {
  return c >= 0 ? Interval{c * a.lower, c * a.upper} : Interval{c * a.upper, c * a.lower};
}
Interval multiply(Interval a, Interval b) {
  const double p[] = {a.lower * b.lower, a.lower * b.upper, a.upper * b.lower, a.upper * b.upper};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}
// x^2 over [l, u], exactly.
Interval square(Interval a) {
  const double lo = a.lower > 0 ? a.lower * a.lower : a.upper < 0 ? a.upper * a.upper : 0.0;
  return {lo, std::max(a.lower * a.lower, a.upper * a.upper)};
}

// f(x) = sum_j a_j (x_j - c_j)^2: its range over a box is exact coordinate by coordinate.
struct SeparableQuadratic {
  std::vector<double> a, c;
  double operator()(const std::vector<double>& x) const {
    double f = 0;
    for (std::size_t j = 0; j < x.size(); ++j) f += a[j] * (x[j] - c[j]) * (x[j] - c[j]);
    return f;
  }
  Interval range(const Box& box) const {
    Interval f{0, 0};
    for (std::size_t j = 0; j < a.size(); ++j)
      f = add(f, scale(a[j], square({box.lower[j] - c[j], box.upper[j] - c[j]})));
    return f;
  }
};

BoundOracle oracle_for(const SeparableQuadratic& f, Extremum extremum) {
  return [f, extremum](const Box& box) {
    const Interval r = f.range(box);
    BoxBound b;
    b.bound = extremum == Extremum::minimum ? r.lower : r.upper;
    const std::vector<double> centre = box.centre();
    b.candidates.push_back({centre, f(centre)});
    return b;
  };
}

TEST(BranchAndBound, SeparableQuadraticMinimumAndMaximum) {
  const SeparableQuadratic f{{1.0, 4.0, 0.5}, {0.3, -2.0, 0.9}};
  const Box box{{-1.0, -1.0, -1.0}, {1.0, 1.0, 1.0}};
  // Minimum at the clamped centre (0.3, -1, 0.9): 4 * 1^2 = 4. Maximum at the far corner (-1, 1, -1):
  // 1.3^2 + 4 * 3^2 + 0.5 * 1.9^2 = 39.495.
  for (double tolerance : {1e-2, 1e-6}) {
    BranchAndBoundOptions options;
    options.tolerance = tolerance;
    options.max_iterations = 100000;
    const Result<BranchAndBoundResult> min =
        branch_and_bound(Extremum::minimum, box, oracle_for(f, Extremum::minimum), options);
    ASSERT_TRUE(min.ok()) << min.status().message();
    const BranchAndBoundResult& m = min.value();
    EXPECT_EQ(m.status, SearchStatus::converged);
    EXPECT_LE(m.lower, 4.0);
    EXPECT_GE(m.upper, 4.0);
    EXPECT_LE(m.upper - m.lower, tolerance);
    EXPECT_TRUE(box.contains(m.witness));
    EXPECT_EQ(f(m.witness), m.upper);

    const Result<BranchAndBoundResult> max =
        branch_and_bound(Extremum::maximum, box, oracle_for(f, Extremum::maximum), options);
    ASSERT_TRUE(max.ok()) << max.status().message();
    const BranchAndBoundResult& M = max.value();
    EXPECT_EQ(M.status, SearchStatus::converged);
    EXPECT_LE(M.lower, 39.495);
    EXPECT_GE(M.upper, 39.495 - 1e-12);
    EXPECT_LE(M.upper - M.lower, tolerance);
    EXPECT_EQ(f(M.witness), M.lower);
    EXPECT_NEAR(M.witness[1], 1.0, std::sqrt(tolerance));  // the far corner in the steep coordinate
  }
}

// f(x, y) = p(x) + p(y) + 0.3 x y with p(t) = t^4 - 3 t^2 + 0.5 t: four basins; on [-2, 2]^2 the global
// minimum is near (-1.2, -1.2) (the basins near +1.2 are shallower). Bound: the better of the natural
// interval extension and the mean-value form f(c) - sum_j max|df/dx_j over the box| h_j, whose
// overestimate shrinks like width^2 near a minimum (the natural one only like width).
double two_basins(const std::vector<double>& x) {
  auto p = [](double t) { return t * t * t * t - 3 * t * t + 0.5 * t; };
  return p(x[0]) + p(x[1]) + 0.3 * x[0] * x[1];
}

double two_basins_lower_bound(const Box& box) {
  auto p = [](Interval t) { return add(add(square(square(t)), scale(-3.0, square(t))), scale(0.5, t)); };
  auto dp = [](Interval t) {  // 4 t^3 - 6 t + 0.5; t^3 is increasing
    return add(add(Interval{4 * t.lower * t.lower * t.lower, 4 * t.upper * t.upper * t.upper}, scale(-6.0, t)),
               {0.5, 0.5});
  };
  const Interval x{box.lower[0], box.upper[0]}, y{box.lower[1], box.upper[1]};
  const double natural = add(add(p(x), p(y)), scale(0.3, multiply(x, y))).lower;
  const Interval gx = add(dp(x), scale(0.3, y)), gy = add(dp(y), scale(0.3, x));
  auto most = [](Interval g) { return std::max(std::fabs(g.lower), std::fabs(g.upper)); };
  const double mean_value = two_basins(box.centre()) - most(gx) * 0.5 * x.width() - most(gy) * 0.5 * y.width();
  return std::max(natural, mean_value);
}

double dense_minimum(double* at_x) {
  double best = std::numeric_limits<double>::infinity();
  const int n = 2001;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const std::vector<double> x{-2 + 4.0 * i / (n - 1), -2 + 4.0 * j / (n - 1)};
      const double f = two_basins(x);
      if (f < best) best = f, *at_x = x[0];
    }
  return best;
}

TEST(BranchAndBound, FindsTheGlobalOfSeveralLocalMinima) {
  double x_star = 0;
  const double dense = dense_minimum(&x_star);  // within ~1e-5 of the true minimum, above it
  ASSERT_LT(x_star, -1.0);
  const Box box{{-2.0, -2.0}, {2.0, 2.0}};
  BoundOracle oracle = [](const Box& b) {
    BoxBound out;
    out.bound = two_basins_lower_bound(b);
    const std::vector<double> c = b.centre();
    out.candidates.push_back({c, two_basins(c)});
    return out;
  };
  BranchAndBoundOptions options;
  options.tolerance = 1e-7;
  options.max_iterations = 200000;
  std::vector<double> lowers, uppers;
  options.on_interval = [&](std::size_t, double l, double u) { lowers.push_back(l), uppers.push_back(u); };
  const Result<BranchAndBoundResult> r = branch_and_bound(Extremum::minimum, box, oracle, options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value().status, SearchStatus::converged);
  EXPECT_LE(r.value().upper - r.value().lower, 1e-7);
  EXPECT_LT(r.value().iterations, 20000u);
  EXPECT_LE(r.value().lower, dense);
  EXPECT_GE(r.value().upper, dense - 1e-4);
  EXPECT_LT(r.value().witness[0], -1.0);  // the global basin, not a local one
  EXPECT_LT(r.value().witness[1], -1.0);
  // Anytime: L never falls and U never rises.
  ASSERT_FALSE(lowers.empty());
  for (std::size_t i = 1; i < lowers.size(); ++i) {
    EXPECT_GE(lowers[i], lowers[i - 1]);
    EXPECT_LE(uppers[i], uppers[i - 1]);
  }
}

TEST(BranchAndBound, StopsEarlyWithAValidIntervalAndSaysWhy) {
  const SeparableQuadratic f{{1.0, 1.0}, {0.31, -0.77}};
  const Box box{{-1.0, -1.0}, {1.0, 1.0}};
  BranchAndBoundOptions options;
  options.tolerance = 1e-12;
  options.max_iterations = 5;
  Result<BranchAndBoundResult> r = branch_and_bound(Extremum::minimum, box, oracle_for(f, Extremum::minimum), options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().status, SearchStatus::iteration_limit);
  EXPECT_EQ(r.value().iterations, 5u);
  EXPECT_LE(r.value().lower, 0.0);
  EXPECT_EQ(f(r.value().witness), r.value().upper);

  options.max_iterations = 1000;
  options.progress = [](std::size_t done, std::size_t total) {
    EXPECT_EQ(total, 1000u);
    return done < 3;
  };
  r = branch_and_bound(Extremum::minimum, box, oracle_for(f, Extremum::minimum), options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().status, SearchStatus::cancelled);
  EXPECT_EQ(r.value().iterations, 3u);

  options.progress = {};
  options.min_box_width = 0.3;  // boxes of width 0.25 are not split
  r = branch_and_bound(Extremum::minimum, box, oracle_for(f, Extremum::minimum), options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().status, SearchStatus::min_box);
  EXPECT_LE(r.value().lower, 0.0);

  options.min_box_width = 0;
  options.time_limit_seconds = 1e-12;
  r = branch_and_bound(Extremum::minimum, box, oracle_for(f, Extremum::minimum), options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().status, SearchStatus::time_limit);
}

TEST(BranchAndBound, SplitsTheWidestSideInTheCallersScales) {
  // Side 0 is twice as wide as side 1, but with scales (4, 1) side 1 is the wider one.
  const Box box{{0.0, 0.0}, {2.0, 1.0}};
  std::vector<Box> seen;
  BoundOracle oracle = [&](const Box& b) {
    seen.push_back(b);
    return BoxBound{-1.0, {{b.centre(), 0.0}}};
  };
  BranchAndBoundOptions options;
  options.max_iterations = 1;
  options.scales = {4.0, 1.0};
  ASSERT_TRUE(branch_and_bound(Extremum::minimum, box, oracle, options).ok());
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[1].upper[1], 0.5);
  EXPECT_EQ(seen[1].upper[0], 2.0);
  EXPECT_EQ(seen[2].lower[1], 0.5);
}

TEST(BranchAndBound, BoxesWithoutAdmissiblePointsAreClosed) {
  // f(x) = x_0 + x_1 on the disc of radius 1 around 0 inside the box [-1, 1]^2: minimum -sqrt(2).
  // A box outside the disc reports +inf and no candidate; others bound over the whole box.
  BoundOracle oracle = [](const Box& b) {
    double nearest = 0;
    std::vector<double> q(2);
    for (int j = 0; j < 2; ++j) {
      q[j] = std::clamp(0.0, b.lower[j], b.upper[j]);
      nearest += q[j] * q[j];
    }
    if (nearest > 1.0) return BoxBound{std::numeric_limits<double>::infinity(), {}};
    BoxBound out{b.lower[0] + b.lower[1], {{q, q[0] + q[1]}}};
    const std::vector<double> c = b.centre();
    if (c[0] * c[0] + c[1] * c[1] <= 1.0) out.candidates.push_back({c, c[0] + c[1]});
    return out;
  };
  BranchAndBoundOptions options;
  options.tolerance = 1e-4;
  options.max_iterations = 100000;
  const Result<BranchAndBoundResult> r = branch_and_bound(Extremum::minimum, Box{{-1, -1}, {1, 1}}, oracle, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().status, SearchStatus::converged);
  EXPECT_LE(r.value().lower, -std::sqrt(2.0));
  EXPECT_GE(r.value().upper, -std::sqrt(2.0));
  EXPECT_LE(r.value().upper - r.value().lower, 1e-4);
  const std::vector<double>& w = r.value().witness;
  EXPECT_LE(w[0] * w[0] + w[1] * w[1], 1.0);
}

TEST(BranchAndBound, RejectsBadInputAndUnsoundOracles) {
  const Box box{{0.0}, {1.0}};
  BoundOracle exact = [](const Box& b) { return BoxBound{b.lower[0], {{b.lower, b.lower[0]}}}; };
  auto message = [](const Result<BranchAndBoundResult>& r) {
    return r.ok() ? std::string("ok") : r.status().message();
  };
  EXPECT_EQ(message(branch_and_bound(Extremum::minimum, Box{{1.0}, {0.0}}, exact)),
            "the box's side 0 has lower end 1 above its upper end 0");
  EXPECT_EQ(message(branch_and_bound(Extremum::minimum, Box{{0.0, 0.0}, {1.0}}, exact)),
            "the box has 2 lower ends and 1 upper end");
  EXPECT_EQ(message(branch_and_bound(Extremum::minimum, Box{{NAN}, {1.0}}, exact)), "the box's side 0 is not finite");
  BranchAndBoundOptions options;
  options.tolerance = -1;
  EXPECT_EQ(message(branch_and_bound(Extremum::minimum, box, exact, options)),
            "the tolerance must be finite and >= 0, got -1");
  options.tolerance = 0.1;
  options.scales = {1.0, 2.0};
  EXPECT_EQ(message(branch_and_bound(Extremum::minimum, box, exact, options)),
            "the box has 1 side but 2 scales were given");
  options.scales = {0.0};
  EXPECT_EQ(message(branch_and_bound(Extremum::minimum, box, exact, options)),
            "every scale must be finite and > 0, got 0");

  BoundOracle unsound = [](const Box& b) { return BoxBound{b.lower[0] + 0.5, {{b.lower, b.lower[0]}}}; };
  EXPECT_EQ(message(branch_and_bound(Extremum::minimum, box, unsound)),
            "unsound bound oracle: a candidate's value 0 lies beyond its box's bound 0.5");
  BoundOracle outside = [](const Box& b) { return BoxBound{-1.0, {{{b.upper[0] + 1}, 0.0}}}; };
  EXPECT_EQ(message(branch_and_bound(Extremum::minimum, box, outside)),
            "the bound oracle returned a candidate outside its box");
  BoundOracle nan = [](const Box&) { return BoxBound{NAN, {}}; };
  EXPECT_EQ(message(branch_and_bound(Extremum::minimum, box, nan)), "the bound oracle returned NaN");
}

}  // namespace
}  // namespace gpprobe
