// The robustness paper's experiment blocks (robustness_experiments.h) on small configurations:
// web/public/demo/robustness/synthetic2d.csv (scripts/data/make_robustness_datasets.py, a Python mirror of the recipe)
// is the core's synthetic_2d_blobs; the training budget is a budget (at most `epochs` evaluations, the
// best of them kept, so more epochs never end lower) from the authors' start; delta-robustness brackets
// the brute-force delta of a dense grid over each 2-D box, for any thread count; the timed maximum
// brackets the grid's maximum and splits the same boxes on every run.
#include "gpprobe/explain/robustness_experiments.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/classification/synthetic_classification.h"
#include "gpprobe/linalg/parallel_for.h"

#include "test_support.h"

namespace gpprobe {
namespace {

ClassifierTrainingData training(const SyntheticClassification& part) {
  return make_gpc_training_data(MatrixView(part.x), part.labels.data(), part.labels.size()).value();
}

TEST(RobustnessExperiments, TheCommittedSynthetic2dIsTheCoresRecipe) {
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/web/public/demo/robustness/synthetic2d.csv");
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "x1,x2,label");
  const SyntheticSplit split = synthetic_2d_blobs(1000, 200, 1);
  std::size_t row = 0;
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    std::string a, b, label;
    std::getline(cells, a, ',');
    std::getline(cells, b, ',');
    std::getline(cells, label, ',');
    const SyntheticClassification& part = row < 1000 ? split.train : split.test;
    const Eigen::Index r = Eigen::Index(row < 1000 ? row : row - 1000);
    // The column means and deviations are summed in another order: equal to a few ulps.
    EXPECT_NEAR(std::stod(a), part.x(r, 0), 1e-14) << row;
    EXPECT_NEAR(std::stod(b), part.x(r, 1), 1e-14) << row;
    EXPECT_EQ(std::stod(label), part.labels[std::size_t(r)]) << row;
    ++row;
  }
  EXPECT_EQ(row, 1200u);
}

TEST(RobustnessExperiments, TheTrainingBudgetIsABudgetFromTheAuthorsStart) {
  const ClassifierTrainingData data = training(synthetic_2d_blobs(80, 0, 3).train);
  for (ClassifierMethod method : {ClassifierMethod::laplace, ClassifierMethod::ep}) {
    ClassifierOptions options;
    options.method = method;
    const ClassifierEvidence start = gpc_log_marginal_likelihood(data, SeArdKernel{1.0, {1.0, 1.0}}, options).value();
    double previous = -INFINITY;
    for (std::size_t epochs : {1, 3, 10, 40}) {
      Result<EpochFit> fit = fit_for_epochs(data, options, epochs);
      ASSERT_TRUE(fit.ok()) << fit.status().message();
      EXPECT_LE(fit.value().evaluations, epochs);
      EXPECT_DOUBLE_EQ(fit.value().start_log_marginal_likelihood, start.value);
      EXPECT_GE(fit.value().log_marginal_likelihood, previous) << epochs;
      // The kept hyperparameters are where that evidence was evaluated.
      EXPECT_NEAR(gpc_log_marginal_likelihood(data, fit.value().kernel, options).value().value,
                  fit.value().log_marginal_likelihood, 1e-12 * std::abs(fit.value().log_marginal_likelihood));
      previous = fit.value().log_marginal_likelihood;
      if (epochs == 1) {
        EXPECT_EQ(fit.value().kernel.signal_variance, 1.0);
        EXPECT_EQ(fit.value().kernel.length_scales, (std::vector<double>{1.0, 1.0}));
      }
    }
    EXPECT_GT(previous, start.value + 1.0) << method_name(method);
  }
  EXPECT_EQ(fit_for_epochs(data, {}, 0).status().message(), "epochs must be at least 1");
}

TEST(RobustnessExperiments, ShortestLengthScalesComeFirst) {
  const SeArdKernel kernel{1.0, {3.0, 0.5, 2.0, 0.5, 9.0}};
  EXPECT_EQ(shortest_length_scales(kernel, 3), (std::vector<std::size_t>{1, 3, 2}));
  EXPECT_EQ(shortest_length_scales(kernel, 9), (std::vector<std::size_t>{1, 3, 2, 0, 4}));
  // Coordinates the inputs do not vary on are passed over (here 1 and 4).
  const RowMatrix inputs = (RowMatrix(3, 5) << 0, 7, 1, 2, 5,  //
                            1, 7, 1, 3, 5,                     //
                            2, 7, 0, 2, 5)
                               .finished();
  EXPECT_EQ(shortest_length_scales(kernel, 3, MatrixView(inputs)), (std::vector<std::size_t>{3, 2, 0}));
  // Nearly constant counts as constant (constant_features: a spread within 1e-6 of the values' scale, e.g.
  // float32 rounding of one value): coordinate 3 varies by 1e-9 only, coordinate 2 by 1.
  const RowMatrix rounded = (RowMatrix(3, 5) << 0, 7, 1, 2, 5,  //
                             1, 7, 1, 2 + 1e-9, 5,              //
                             2, 7, 0, 2, 5)
                                .finished();
  EXPECT_EQ(shortest_length_scales(kernel, 3, MatrixView(rounded)), (std::vector<std::size_t>{2, 0}));
}

TEST(RobustnessExperiments, TheShortestLengthScalesOfTheDigitsVaryInTraining) {
  // Fig. 3's and 7's pixel choice on the digits: after 10 epochs from l = 1, the pixels that are 0 in all 250
  // training images keep l = 1 (no gradient), shorter than most; the choice passes over them.
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/web/public/demo/robustness/digits38.csv");
  std::string line;
  std::getline(in, line);
  RowMatrix x(250, 64);
  std::vector<double> y(250);
  for (Eigen::Index i = 0; i < 250 && std::getline(in, line); ++i) {
    std::stringstream cells(line);
    std::string cell;
    for (Eigen::Index j = 0; j < 64 && std::getline(cells, cell, ','); ++j) x(i, j) = std::stod(cell);
    std::getline(cells, cell, ',');
    y[std::size_t(i)] = std::stod(cell);
  }
  const ClassifierTrainingData data = make_gpc_training_data(MatrixView(x), y.data(), 250).value();
  const EpochFit fit = fit_for_epochs(data, {}, 10).value();
  std::vector<std::size_t> blank;
  for (Eigen::Index j = 0; j < 64; ++j)
    if ((x.col(j).array() == x(0, j)).all()) blank.push_back(std::size_t(j));
  ASSERT_EQ(blank, (std::vector<std::size_t>{0, 23, 24, 31, 32, 39, 40, 47, 48, 56}));
  for (std::size_t j : blank) EXPECT_EQ(fit.kernel.length_scales[j], 1.0) << j;
  const std::vector<std::size_t> chosen = shortest_length_scales(fit.kernel, 10, MatrixView(x));
  ASSERT_EQ(chosen.size(), 10u);
  for (std::size_t j : chosen) {
    EXPECT_EQ(std::find(blank.begin(), blank.end(), j), blank.end()) << j;
    // Each chosen pixel is at least as short as every varying pixel left out.
    for (Eigen::Index k = 0; k < 64; ++k) {
      const bool left_out = std::find(chosen.begin(), chosen.end(), std::size_t(k)) == chosen.end() &&
                            std::find(blank.begin(), blank.end(), std::size_t(k)) == blank.end();
      if (left_out) EXPECT_LE(fit.kernel.length_scales[j], fit.kernel.length_scales[std::size_t(k)]);
    }
  }
}

// pi on a (grid + 1)^2 grid over the box of the first two coordinates around x.
std::pair<double, double> grid_range(const ClassifierCommonForm& form, const std::vector<double>& lower,
                                     const std::vector<double>& upper, std::size_t grid) {
  RowMatrix points(Eigen::Index((grid + 1) * (grid + 1)), 2);
  for (std::size_t a = 0; a <= grid; ++a)
    for (std::size_t b = 0; b <= grid; ++b) {
      const Eigen::Index r = Eigen::Index(a * (grid + 1) + b);
      points(r, 0) = lower[0] + (upper[0] - lower[0]) * double(a) / double(grid);
      points(r, 1) = lower[1] + (upper[1] - lower[1]) * double(b) / double(grid);
    }
  std::vector<double> p(std::size_t(points.rows()));
  ClassifierColumns columns;
  columns.probability = p.data();
  EXPECT_TRUE(form.evaluate(MatrixView(points), columns).ok());
  return {*std::min_element(p.begin(), p.end()), *std::max_element(p.begin(), p.end())};
}

TEST(RobustnessExperiments, DeltaRobustnessBracketsTheGridsDeltaOnEveryThreadCount) {
  const SyntheticSplit split = synthetic_2d_blobs(100, 8, 2);
  for (ClassifierMethod method : {ClassifierMethod::laplace, ClassifierMethod::ep}) {
    ClassifierOptions options;
    options.method = method;
    const EpochFit fit = fit_for_epochs(training(split.train), options, 10).value();
    const GpClassifier gpc = GpClassifier::fit(training(split.train), fit.kernel, options).value();
    RobustnessOptions robustness;
    robustness.gamma = 0.3;
    robustness.tolerance = 0.01;
    const std::size_t before = thread_count();
    set_thread_count(1);
    const std::vector<DeltaRobustness> one =
        delta_robustness(gpc.common_form(), MatrixView(split.test.x), robustness).value();
    set_thread_count(2);
    const std::vector<DeltaRobustness> two =
        delta_robustness(gpc.common_form(), MatrixView(split.test.x), robustness).value();
    set_thread_count(before);
    ASSERT_EQ(one.size(), 8u);
    for (std::size_t p = 0; p < one.size(); ++p) {
      EXPECT_EQ(one[p].delta_lower, two[p].delta_lower);
      EXPECT_EQ(one[p].delta_upper, two[p].delta_upper);
      const std::vector<double> x = {split.test.x(Eigen::Index(p), 0), split.test.x(Eigen::Index(p), 1)};
      const auto [low, high] = grid_range(gpc.common_form(), {x[0] - 0.3, x[1] - 0.3}, {x[0] + 0.3, x[1] + 0.3}, 120);
      EXPECT_GE(one[p].delta_upper, high - low) << p;
      EXPECT_LE(one[p].delta_lower, high - low + 1e-6) << p;
      EXPECT_LE(one[p].minimum.lower, low) << p;
      EXPECT_GE(one[p].maximum.upper, high) << p;
      EXPECT_EQ(one[p].status, SearchStatus::converged);
      EXPECT_DOUBLE_EQ(one[p].probability, gpc.common_form().probability(x.data()));
    }
  }
}

TEST(RobustnessExperiments, TheTimedMaximumBracketsTheGridAndSplitsTheSameBoxesEachRun) {
  const SyntheticSplit split = synthetic_2d_blobs(100, 3, 4);
  const GpClassifier gpc =
      GpClassifier::fit(training(split.train), fit_for_epochs(training(split.train), {}, 10).value().kernel).value();
  RobustnessOptions options;
  options.gamma = 0.5;
  options.tolerance = 0.005;
  for (Eigen::Index p = 0; p < 3; ++p) {
    const std::vector<double> x = {split.test.x(p, 0), split.test.x(p, 1)};
    const TimedExtreme a = timed_maximum(gpc.common_form(), x, options).value();
    const TimedExtreme b = timed_maximum(gpc.common_form(), x, options).value();
    EXPECT_EQ(a.maximum.iterations, b.maximum.iterations);
    EXPECT_EQ(a.maximum.upper, b.maximum.upper);
    EXPECT_GE(a.seconds, 0.0);
    const double high = grid_range(gpc.common_form(), {x[0] - 0.5, x[1] - 0.5}, {x[0] + 0.5, x[1] + 0.5}, 120).second;
    EXPECT_GE(a.maximum.upper, high);
    EXPECT_LE(a.maximum.upper - a.maximum.lower, 0.005);
    EXPECT_NEAR(gpc.common_form().probability(a.maximum.witness.data()), a.maximum.lower, 1e-14);
  }
}

}  // namespace
}  // namespace gpprobe
