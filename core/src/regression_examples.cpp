#include "gpprobe/regression_examples.h"

#include <cmath>

#include "gpprobe/random_stream.h"

namespace gpprobe {

namespace {

constexpr double kPi = 3.141592653589793;

struct Recipe {
  double (*truth)(double);
  double lower, upper;
  std::size_t points;
  double noise_sd;
  bool (*held_out)(double);
};

double lecture(double x) { return std::sin(x) + 0.5 * std::sin(4.0 * x); }
double periodic(double t) { return std::sin(kPi * t) + 0.4 * std::sin(2.0 * kPi * t + 1.0); }
double segments(double t) { return std::sin(t) + 0.5 * std::sin(2.3 * t) + 0.3 * std::cos(0.7 * t); }
bool none(double) { return false; }
bool censored_tail(double t) { return t >= 8.0; }
bool in_gap(double t) { return (t >= 4.0 && t < 4.5) || (t >= 9.0 && t < 10.5) || (t >= 14.0 && t < 17.0); }

Result<Recipe> recipe(const std::string& name) {
  if (name == "lecture") return Recipe{lecture, 0.0, 5.0, 50, 0.25, none};
  if (name == "periodic-extrapolation") return Recipe{periodic, 0.0, 12.0, 150, 0.15, censored_tail};
  if (name == "missing-segments") return Recipe{segments, 0.0, 20.0, 400, 0.1, in_gap};
  return Status(StatusCode::invalid_argument,
                "example must be lecture, periodic-extrapolation or missing-segments, got '" + name + "'");
}

}  // namespace

Result<RegressionExample> regression_example(const std::string& name, std::uint64_t seed) {
  Result<Recipe> r = recipe(name);
  if (!r.ok()) return r.status();
  const Recipe& p = r.value();
  RandomStream rng(seed);
  RegressionExample e;
  e.name = name;
  e.lower = p.lower;
  e.upper = p.upper;
  e.noise_sd = p.noise_sd;
  std::vector<double> x, held;
  for (std::size_t i = 0; i < p.points; ++i) {
    const double t = p.lower + (p.upper - p.lower) * double(i) / double(p.points - 1);
    const double y = p.truth(t) + p.noise_sd * rng.normal();
    if (p.held_out(t)) {
      held.push_back(t);
      e.held_out_y.push_back(y);
    } else {
      x.push_back(t);
      e.y.push_back(y);
    }
  }
  e.x = Eigen::Map<RowMatrix>(x.data(), Eigen::Index(x.size()), 1);
  e.held_out_x = Eigen::Map<RowMatrix>(held.data(), Eigen::Index(held.size()), 1);
  return e;
}

Status example_truth(const std::string& name, const double* x, std::size_t n, double* out) {
  Result<Recipe> r = recipe(name);
  if (!r.ok()) return r.status();
  for (std::size_t i = 0; i < n; ++i) out[i] = r.value().truth(x[i]);
  return Status::success();
}

}  // namespace gpprobe
