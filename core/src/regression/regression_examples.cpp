#include "gpprobe/regression/regression_examples.h"

#include <cmath>

#include "gpprobe/common/random_stream.h"
#include "gpprobe/kernels/kernel_parameters.h"
#include "gpprobe/kernels/named_kernels.h"

#include "common/numeric_constants.h"

namespace gpprobe {

namespace {

struct RegressionRecipe {
  const char* name;
  const char* title;
  const char* input;  // what x is called: "x", or "t" for a time
  double (*truth)(double);
  double lower, upper;
  std::size_t points;
  double noise_sd;
  bool (*held_out)(double);
  // The model: a named kernel with some values set, the held parameters.
  const char* kernel;
  std::vector<std::string> set;
  std::vector<double> values;
  std::vector<std::string> held;
};

double lecture(double x) { return std::sin(x) + 0.5 * std::sin(4.0 * x); }
double periodic(double t) { return std::sin(kPi * t) + 0.4 * std::sin(2.0 * kPi * t + 1.0); }
double segments(double t) { return std::sin(t) + 0.5 * std::sin(2.3 * t) + 0.3 * std::cos(0.7 * t); }
bool none(double) { return false; }
bool censored_tail(double t) { return t >= 8.0; }
bool in_gap(double t) { return (t >= 4.0 && t < 4.5) || (t >= 9.0 && t < 10.5) || (t >= 14.0 && t < 17.0); }

const std::vector<RegressionRecipe>& regression_recipes() {
  static const std::vector<RegressionRecipe> all{
      {"lecture",
       "Lecture: y = sin x + ½ sin 4x + ε",
       "x",
       lecture,
       0.0,
       5.0,
       50,
       0.25,
       none,
       "rbf",
       {},
       {},
       {"constant.value"}},
      {"periodic-extrapolation",
       "Periodic series, censored tail (extrapolation)",
       "t",
       periodic,
       0.0,
       12.0,
       150,
       0.15,
       censored_tail,
       "locally-periodic",
       {"periodic.period"},
       {1.5},
       {}},
      {"missing-segments",
       "Series with missing segments (interpolation)",
       "t",
       segments,
       0.0,
       20.0,
       400,
       0.1,
       in_gap,
       "rbf",
       {},
       {},
       {}},
  };
  return all;
}

Result<const RegressionRecipe*> recipe(const std::string& name) {
  for (const RegressionRecipe& r : regression_recipes())
    if (name == r.name) return &r;
  return Status(StatusCode::invalid_argument,
                "example must be lecture, periodic-extrapolation or missing-segments, got '" + name + "'");
}

}  // namespace

const std::vector<ExampleEntry>& regression_examples() {
  static const std::vector<ExampleEntry> entries = [] {
    std::vector<ExampleEntry> out;
    for (const RegressionRecipe& r : regression_recipes()) out.push_back({r.name, r.title});
    return out;
  }();
  return entries;
}

Result<RegressionExample> regression_example(const std::string& name, std::uint64_t seed) {
  Result<const RegressionRecipe*> r = recipe(name);
  if (!r.ok()) return r.status();
  const RegressionRecipe& p = *r.value();
  Result<Kernel> base = named_kernel(p.kernel);
  if (!base.ok()) return base.status();
  Result<Kernel> kernel = set_parameters(base.value(), p.set, p.values);
  if (!kernel.ok()) return kernel.status();
  RandomStream rng(seed);
  RegressionExample e;
  e.name = name;
  e.title = p.title;
  e.input_name = p.input;
  e.kernel_name = p.kernel;
  e.kernel = kernel.value();
  e.held = p.held;
  e.noise_variance = kDefaultNoiseVariance;
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
  Result<const RegressionRecipe*> r = recipe(name);
  if (!r.ok()) return r.status();
  for (std::size_t i = 0; i < n; ++i) out[i] = r.value()->truth(x[i]);
  return Status::success();
}

}  // namespace gpprobe
