#include "gpprobe/classification/classification_examples.h"

#include <cmath>

#include "gpprobe/common/random_stream.h"

#include "common/numeric_constants.h"

namespace gpprobe {

namespace {

struct Point {
  double x1, x2;
};

// One draw of class `label` (0 or 1) of each example.
Point two_blobs(RandomStream& rng, int label) {
  const double sign = label ? 1.0 : -1.0;
  const double a = rng.normal(), b = rng.normal();
  return {sign * 1.0 + 0.8 * a, sign * 0.5 + 0.8 * b};
}

Point moons(RandomStream& rng, int label) {
  const double t = rng.uniform(0.0, kPi);
  const Point p = label ? Point{1.0 - std::cos(t), 0.5 - std::sin(t)} : Point{std::cos(t), std::sin(t)};
  const double a = rng.normal(), b = rng.normal();
  return {p.x1 + 0.15 * a, p.x2 + 0.15 * b};
}

Point synthetic2d(RandomStream& rng, int label) {
  const double a = rng.normal(), b = rng.normal();
  return label ? Point{a + 5.0, b} : Point{a, b + 5.0};
}

struct ClassificationRecipe {
  const char* name;
  const char* title;
  std::size_t points;
  Point (*draw)(RandomStream&, int);  // null: xor (the label follows from the point)
  bool standardise;
};

const std::vector<ClassificationRecipe>& classification_recipes() {
  static const std::vector<ClassificationRecipe> all{
      {"two-blobs", "Two blobs", 100, two_blobs, false},
      {"xor", "XOR", 120, nullptr, false},
      {"moons", "Two moons", 150, moons, false},
      {"synthetic2d", "Synthetic2D (robustness paper)", 300, synthetic2d, true},
  };
  return all;
}

// Each column to mean 0 and sample standard deviation 1.
void standardise(RowMatrix* x) {
  const double n = double(x->rows());
  for (Eigen::Index j = 0; j < x->cols(); ++j) {
    const double mean = x->col(j).sum() / n;
    x->col(j).array() -= mean;
    const double sd = std::sqrt(x->col(j).squaredNorm() / (n - 1.0));
    x->col(j) /= sd;
  }
}

}  // namespace

const std::vector<ExampleEntry>& classification_examples() {
  static const std::vector<ExampleEntry> entries = [] {
    std::vector<ExampleEntry> out;
    for (const ClassificationRecipe& r : classification_recipes()) out.push_back({r.name, r.title});
    return out;
  }();
  return entries;
}

Result<ClassificationExample> classification_example(const std::string& name, std::uint64_t seed) {
  const ClassificationRecipe* recipe = nullptr;
  for (const ClassificationRecipe& r : classification_recipes())
    if (name == r.name) recipe = &r;
  if (!recipe) {
    return Status(StatusCode::invalid_argument,
                  "example must be two-blobs, xor, moons or synthetic2d, got '" + name + "'");
  }
  RandomStream rng(seed);
  ClassificationExample e;
  e.name = name;
  e.title = recipe->title;
  e.input_names = {"x1", "x2"};
  const std::size_t n = recipe->points;
  e.x.resize(Eigen::Index(n), 2);
  e.labels.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    Point p;
    int label = int(i % 2);
    if (recipe->draw) {
      p = recipe->draw(rng, label);
    } else {
      p = {rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0)};
      label = p.x1 * p.x2 > 0.0 ? 1 : 0;
    }
    e.x(Eigen::Index(i), 0) = p.x1;
    e.x(Eigen::Index(i), 1) = p.x2;
    e.labels[i] = double(label);
  }
  if (recipe->standardise) standardise(&e.x);
  return e;
}

}  // namespace gpprobe
