// The Taylor form of an exponential sum f(x) = sum_i w_i e^{-z_i(x)} over a box (taylor_exponential_sum_bounds,
// and exponential_sum_bounds, which intersects it with the tangent and chord lines), at the large signal variance a
// learned kernel has (|w_i| = s2 |alpha_i| ~ 1,000 with alpha summing to a far smaller f): both hold every value of f
// at the box's corners and at uniform samples, computed in long double, with no tolerance, on narrow and wide boxes in
// 1-5 moving coordinates; and on a box as wide as a length-scale the Taylor form is within a small factor of f's
// sampled range where the lines alone are many times wider.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/common/random_stream.h"

#include "core/src/certify/exponential_sum_bounds.h"

namespace gpprobe {
namespace {

struct Sum {
  std::size_t n, k;
  std::vector<double> columns, theta, weights, fixed_z;
  MovingInputs inputs() const { return {n, k, columns.data(), theta.data()}; }
  long double at(const std::vector<double>& x) const {
    long double f = 0.0L;
    for (std::size_t i = 0; i < n; ++i) {
      long double z = fixed_z[i];
      for (std::size_t a = 0; a < k; ++a) {
        const long double t = (long double)x[a] - columns[a * n + i];
        z += theta[a] * t * t;
      }
      f += weights[i] * std::exp(-z);
    }
    return f;
  }
};

// n training inputs in [0, 1]^k (pixels), length-scales in [lmin, lmax], weights s2 alpha with alpha ~ N(0, 1) less
// their mean (so that f cancels), a fixed part of z in [0, 2].
Sum random_sum(RandomStream& rng, std::size_t n, std::size_t k, double s2, double lmin, double lmax) {
  Sum s{n, k, {}, {}, {}, {}};
  for (std::size_t v = 0; v < n * k; ++v) s.columns.push_back(rng.index(3) == 0 ? 0.0 : rng.uniform(0.0, 1.0));
  for (std::size_t a = 0; a < k; ++a) {
    const double l = rng.uniform(lmin, lmax);
    s.theta.push_back(0.5 / (l * l));
  }
  double mean = 0.0;
  for (std::size_t i = 0; i < n; ++i) s.weights.push_back(rng.normal()), mean += s.weights.back() / double(n);
  for (double& w : s.weights) w = s2 * (w - mean);
  for (std::size_t i = 0; i < n; ++i) s.fixed_z.push_back(rng.uniform(0.0, 2.0));
  return s;
}

Box random_box(RandomStream& rng, std::size_t k, double width) {
  Box box;
  for (std::size_t a = 0; a < k; ++a) {
    const double w = std::min(1.0, width * (width < 0.5 ? rng.uniform(0.5, 1.0) : 1.0));
    const double lo = rng.uniform(0.0, 1.0 - w);
    box.lower.push_back(lo);
    box.upper.push_back(lo + w);
  }
  return box;
}

struct Range {
  long double lowest, highest;
};

Range sampled(const Sum& s, const Box& box, RandomStream& rng, std::size_t count) {
  Range r{INFINITY, -INFINITY};
  const auto take = [&](const std::vector<double>& x) {
    const long double f = s.at(x);
    r.lowest = std::min(r.lowest, f);
    r.highest = std::max(r.highest, f);
  };
  const std::size_t k = box.dimension();
  for (std::size_t mask = 0; mask < (std::size_t(1) << k); ++mask) {
    std::vector<double> x(k);
    for (std::size_t a = 0; a < k; ++a) x[a] = (mask >> a) & 1 ? box.upper[a] : box.lower[a];
    take(x);
  }
  take(box.centre());
  for (std::size_t c = 0; c < count; ++c) {
    std::vector<double> x(k);
    for (std::size_t a = 0; a < k; ++a) x[a] = rng.uniform(box.lower[a], box.upper[a]);
    take(x);
  }
  return r;
}

TEST(TaylorExponentialSum, HoldsEverySampledValueOnNarrowAndWideBoxes) {
  RandomStream rng(37);
  for (int trial = 0; trial < 120; ++trial) {
    const std::size_t k = 1 + std::size_t(trial) % 5, n = 20 + rng.index(180);
    const double s2 = trial % 3 == 0 ? 1.0 : 1200.0;
    // Length-scales from 0.3 (a pixel box many length-scales wide) to 4 (the learned digits kernel's).
    const Sum s = random_sum(rng, n, k, s2, trial % 4 == 0 ? 0.3 : 2.0, trial % 4 == 0 ? 1.0 : 4.0);
    const double widths[] = {1e-4, 0.01, 0.1, 0.5, 1.0};
    const Box box = random_box(rng, k, widths[trial % 5]);
    const double rounding = 8.0 * 0x1.0p-53 * double(2 * n + k + 16);
    const MovingInputs inputs = s.inputs();
    const ExponentFactors e(inputs, s.fixed_z, box);
    const Interval taylor = taylor_exponential_sum_bounds(s.weights.data(), e, inputs, s.fixed_z, box, rounding);
    const Interval both = exponential_sum_bounds(s.weights.data(), e, inputs, s.fixed_z, box, rounding).value;
    const Range r = sampled(s, box, rng, 2000);
    EXPECT_LE((long double)taylor.lower, r.lowest) << trial;
    EXPECT_GE((long double)taylor.upper, r.highest) << trial;
    EXPECT_LE((long double)both.lower, r.lowest) << trial;
    EXPECT_GE((long double)both.upper, r.highest) << trial;
    EXPECT_LE(both.width(), taylor.width()) << trial;
  }
}

// Boxes half the pixel range wide at s2 = 1,194.5 (the digits kernel's: l 2.3-3.6 on [0, 1]): the lines' gap
// sum_i |w_i| e^{-zL_i} (zU_i - zL_i)^2 / 8 carries the weights' absolute mass, the Taylor form's only in its third-order
// remainder. Summed over 20 sums, the bound's width is within 12 % of the sampled ranges (a lower bound of the true
// ranges); the lines alone were 27 % wider (the bound before the Taylor form).
TEST(TaylorExponentialSum, IsWithinTwelvePercentOfTheSampledRangeOnHalfPixelBoxes) {
  RandomStream rng(1194);
  double widths = 0.0, ranges = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    const Sum s = random_sum(rng, 300, 5, 1194.5, 2.3, 3.6);
    const Box box = random_box(rng, 5, 0.5);
    const double rounding = 8.0 * 0x1.0p-53 * double(2 * 300 + 5 + 16);
    const MovingInputs inputs = s.inputs();
    const ExponentFactors e(inputs, s.fixed_z, box);
    const Interval both = exponential_sum_bounds(s.weights.data(), e, inputs, s.fixed_z, box, rounding).value;
    const Range r = sampled(s, box, rng, 3000);
    EXPECT_LE((long double)both.lower, r.lowest) << trial;
    EXPECT_GE((long double)both.upper, r.highest) << trial;
    widths += both.width();
    ranges += double(r.highest - r.lowest);
  }
  EXPECT_LT(widths, 1.12 * ranges);
}

}  // namespace
}  // namespace gpprobe
