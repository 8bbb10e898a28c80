// Bundled, seeded two-dimensional data sets for the classification view (RandomStream, so native and
// wasm draw the same points). Labels are 0/1. Where a class is drawn from its own distribution, point i
// has label i mod 2 (the classes alternate, n/2 each); xor's label follows from its point.
//
//   two-blobs    class 0 ~ N((-1, -0.5), 0.8^2 I), class 1 ~ N((1, 0.5), 0.8^2 I): overlapping blobs, a
//                near-linear boundary; 100 points
//   xor          x ~ U([-2, 2]^2), label 1 when x1 x2 > 0: four quadrants, no linear boundary; 120 points
//   moons        class 0 on the upper half circle (cos t, sin t), class 1 on the shifted lower one
//                (1 - cos t, 1/2 - sin t), t ~ U(0, pi), plus N(0, 0.15^2 I) noise (scikit-learn's
//                make_moons); 150 points
//   synthetic2d  the robustness paper's Synthetic2D (Blaas et al. 2020, App. F.1): N(0, I) shifted by 5
//                along the first coordinate (label 1) or the second (label 0), then each coordinate
//                standardised (mean 0, sd 1 over the set); the paper draws 1,200 points and trains on
//                1,000, this example draws 300 (the same distribution, sized for interactive fits)
//
//   x  n by 2 inputs          labels  n values in {0, 1}
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpprobe/common/fields.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"
#include "gpprobe/regression/regression_examples.h"

namespace gpprobe {

struct ClassificationExample {
  std::string name;
  std::string title;                     // for people: "Two moons"
  std::vector<std::string> input_names;  // one per column: "x1", "x2"
  RowMatrix x;                           // n by 2
  std::vector<double> labels;            // n values, 0 or 1
};
// x crosses as its rows, row-major, with its rows and cols.
GPPROBE_DESCRIBE(ClassificationExample, "ClassificationExampleValue", GPPROBE_FIELD(name), GPPROBE_FIELD(title),
                 GPPROBE_FIELD(input_names), GPPROBE_COVERED(x),
                 GPPROBE_COMPUTED("x",
                                  [](const ClassificationExample& e) {
                                    return std::vector<double>(e.x.data(), e.x.data() + e.x.size());
                                  }),
                 GPPROBE_FIELD(labels),
                 GPPROBE_COMPUTED("rows", [](const ClassificationExample& e) { return std::size_t(e.x.rows()); }),
                 GPPROBE_COMPUTED("cols", [](const ClassificationExample& e) { return std::size_t(e.x.cols()); }));

// The examples in menu order (ExampleEntry: regression_examples.h).
const std::vector<ExampleEntry>& classification_examples();

// invalid_argument naming `name` when it is not one of the four.
Result<ClassificationExample> classification_example(const std::string& name, std::uint64_t seed);

}  // namespace gpprobe
