// Bundled, seeded one-dimensional examples for the regression view and the CLI (RandomStream noise,
// so native and wasm draw the same data):
//
//   lecture                 y = sin x + 1/2 sin 4x + e,  e ~ N(0, 0.25^2),  x = 50 points evenly on [0, 5]
//                           (Pelz's lecture notes; its learned length-scale is l ~ 0.55, noise sd ~ 0.25)
//   periodic-extrapolation  y = sin(pi t) + 0.4 sin(2 pi t + 1) + e,  e ~ N(0, 0.15^2), 150 points evenly on
//                           [0, 12]; the tail t >= 8 is censored (held out): forecasting beyond the data
//   missing-segments        y = sin t + 0.5 sin 2.3t + 0.3 cos 0.7t + e,  e ~ N(0, 0.1^2), 400 points evenly
//                           on [0, 20] with three gaps of lengths 0.5, 1.5 and 3 held out: interpolation
//
// Training points are `x` (n by 1) and `y`; held-out points keep their noisy values for plotting
// against the predictions; [lower, upper] is the range to predict over. Each example also names the
// model it is meant for (a named kernel at starting values, the parameters held while fitting, the
// starting noise): the lecture holds the variance at 1, as the lecture does; the periodic series starts
// a locally periodic kernel away from its period.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpprobe/common/fields.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"
#include "gpprobe/kernels/kernel_parameters.h"

namespace gpprobe {

struct RegressionExample {
  std::string name;
  std::string title;       // for people: "Lecture: y = sin x + ½ sin 4x + ε"
  std::string input_name;  // what x is called: "x", or "t" for a time
  RowMatrix x;             // n by 1
  std::vector<double> y;
  RowMatrix held_out_x;  // h by 1
  std::vector<double> held_out_y;
  double lower = 0.0, upper = 1.0;
  double noise_sd = 0.0;             // of the generating process
  std::string kernel_name;           // a named kernel (named_kernels.h) ...
  Kernel kernel = Kernel::cosine();  // ... at these values
  std::vector<std::string> held;     // parameter names held while fitting (may name kNoiseVariance)
  double noise_variance = 0.0;       // where a fit starts
};
// A matrix's values in row-major order (the examples' n by 1 inputs as one column).
inline std::vector<double> row_major_values(const RowMatrix& m) {
  return std::vector<double>(m.data(), m.data() + m.size());
}
GPPROBE_DESCRIBE(
    RegressionExample, "ExampleValue", GPPROBE_FIELD(name), GPPROBE_FIELD(title), GPPROBE_FIELD(input_name),
    GPPROBE_COVERED(x), GPPROBE_COMPUTED("x", [](const RegressionExample& e) { return row_major_values(e.x); }),
    GPPROBE_FIELD(y), GPPROBE_COVERED(held_out_x),
    GPPROBE_COMPUTED("held_out_x", [](const RegressionExample& e) { return row_major_values(e.held_out_x); }),
    GPPROBE_FIELD(held_out_y), GPPROBE_FIELD(lower), GPPROBE_FIELD(upper), GPPROBE_FIELD(noise_sd),
    GPPROBE_COVERED(kernel_name), GPPROBE_COVERED(kernel),
    GPPROBE_COMPUTED("kernel", [](const RegressionExample& e) { return kernel_values(e.kernel_name, e.kernel); }),
    GPPROBE_FIELD(held), GPPROBE_FIELD(noise_variance));

struct ExampleEntry {
  std::string name, title;
};

// The examples in menu order.
const std::vector<ExampleEntry>& regression_examples();

// invalid_argument naming `name` when it is not one of the three.
Result<RegressionExample> regression_example(const std::string& name, std::uint64_t seed);

// The noise-free function of example `name` at n points (out: n values).
Status example_truth(const std::string& name, const double* x, std::size_t n, double* out);

}  // namespace gpprobe
