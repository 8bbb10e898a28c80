// Explain's time limit is the wall time of the whole call, one clock shared by every feature's four searches (issue
// 37, after issue 36 gave certify one clock): before, SensitivityOptions::time_limit_seconds applied to each search
// afresh, so 64 pixels x 4 searches could take 256 times the limit. Here every bound of f(x) = sum_j x_j^2 sleeps
// 20 ms and the tolerance is 0 (no search converges): the call must end within the limit plus a few bounds, every
// search reached after the limit must split no box (status time_limit, 0 iterations), and every feature's Delta
// interval must still hold the exact Delta (from the closed-form extremes of x^2 over an interval).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/explain/feature_sensitivity.h"

namespace gpprobe {
namespace {

using Clock = std::chrono::steady_clock;

class SlowSquares final : public BoundedOutput {
 public:
  explicit SlowSquares(std::size_t d) : d_(d) {}
  std::size_t dimension() const override { return d_; }
  Status values(const MatrixView& points, double* out) const override {
    for (std::size_t r = 0; r < points.rows(); ++r) {
      out[r] = 0.0;
      for (std::size_t j = 0; j < d_; ++j) out[r] += points.at(r, j) * points.at(r, j);
    }
    return Status::success();
  }
  Result<std::unique_ptr<BoxBounder>> around(const std::vector<double>& point,
                                             const std::vector<std::size_t>& dims) const override {
    return std::unique_ptr<BoxBounder>(new Bounder(point, dims));
  }

 private:
  struct Bounder final : BoxBounder {
    Bounder(std::vector<double> point, std::vector<std::size_t> dims)
        : point(std::move(point)), dims(std::move(dims)) {}
    BoxBound bound(const Box& box, Extremum extremum, bool) const override {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      double fixed = 0.0;
      for (std::size_t j = 0; j < point.size(); ++j)
        if (std::find(dims.begin(), dims.end(), j) == dims.end()) fixed += point[j] * point[j];
      double bound = fixed, at_centre = fixed;
      const std::vector<double> c = box.centre();
      for (std::size_t a = 0; a < box.dimension(); ++a) {
        const double lo = box.lower[a], hi = box.upper[a];
        const double extreme = extremum == Extremum::minimum
                                   ? (lo <= 0.0 && hi >= 0.0 ? 0.0 : std::min(lo * lo, hi * hi))
                                   : std::max(lo * lo, hi * hi);
        bound += extreme;
        at_centre += c[a] * c[a];
      }
      return {bound, {{c, at_centre}}};
    }
    std::vector<double> scales() const override { return std::vector<double>(dims.size(), 1.0); }
    std::vector<double> point;
    std::vector<std::size_t> dims;
  };
  std::size_t d_;
};

double square_max(double a, double b) { return std::max(a * a, b * b); }
double square_min(double a, double b) { return a <= 0.0 && b >= 0.0 ? 0.0 : std::min(a * a, b * b); }

TEST(ExplainTimeLimit, OneClockForEveryFeaturesSearches) {
  const std::vector<double> point = {0.3, -0.1, 0.05, 0.7, -0.4, 0.2};
  const SlowSquares output(point.size());
  SensitivityOptions options;
  options.gamma = 0.25;
  options.tolerance = 0.0;
  options.max_iterations = 1000000;
  options.time_limit_seconds = 0.4;
  const Clock::time_point start = Clock::now();
  const Result<LocalSensitivity> local = feature_sensitivity(output, point, options);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  ASSERT_TRUE(local.ok()) << local.status().message();
  // Before: 6 features x 4 searches x 0.4 s (4.8 s on two threads, 9.6 s on one).
  EXPECT_LT(seconds, options.time_limit_seconds + 1.0);
  std::size_t unrefined = 0;
  for (const FeatureSensitivity& f : local.value().features) {
    EXPECT_EQ(f.status, SearchStatus::time_limit) << "feature " << f.feature;
    for (const SideExtremes* side : {&f.minus, &f.plus})
      for (const OutputExtreme* e : {&side->minimum, &side->maximum}) unrefined += e->iterations == 0;
    const double x = point[f.feature], g = options.gamma;
    const double delta = (square_max(x, x + g) - square_max(x - g, x)) + (square_min(x, x + g) - square_min(x - g, x));
    EXPECT_LE(f.delta_lower, delta + 1e-15) << "feature " << f.feature;
    EXPECT_GE(f.delta_upper, delta - 1e-15) << "feature " << f.feature;
  }
  // The searches reached after the limit bounded their root box only.
  EXPECT_GT(unrefined, 0u);

  // A request whose clock started before the call (the app's request, the CLI's after its fit): already past.
  options.started = Clock::now() - std::chrono::seconds(5);
  const Result<LocalSensitivity> late = feature_sensitivity(output, point, options);
  ASSERT_TRUE(late.ok());
  for (const FeatureSensitivity& f : late.value().features) {
    EXPECT_EQ(f.status, SearchStatus::time_limit);
    EXPECT_EQ(f.iterations, 0u) << "feature " << f.feature;
  }
}

}  // namespace
}  // namespace gpprobe
