// The certified feature sensitivity per class of the softmax classifier (multiclass_output.h) against
// brute force, on models of tests/reference/gpc_multiclass_golden.json (fitted from the reference's own
// training data and kernels): the output at each point is the reference's (numpy) class probability; for
// every class and feature each of the four extremes is bracketed by its certified interval (lower <= the
// smallest of 401 evenly spaced values of the one-sided box, upper >= their largest) and Delta computed
// from those sampled extremes lies in [delta_lower, delta_upper]. Plus: the same numbers for any thread
// count, clipping to a valid range, and a class out of range named.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/explain/feature_sensitivity.h"
#include "gpprobe/explain/multiclass_output.h"
#include "gpprobe/linalg/parallel_for.h"

#include "classification/multiclass_fixtures.h"

namespace gpprobe {
namespace {

constexpr std::size_t kSamples = 400;  // intervals of each one-sided box

struct Sampled {
  double minimum, maximum;
};

Sampled sampled_extremes(const ScalarOutput& output, std::vector<double> point, std::size_t feature, double from,
                         double to) {
  const std::size_t d = point.size();
  std::vector<double> rows((kSamples + 1) * d), values(kSamples + 1);
  for (std::size_t g = 0; g <= kSamples; ++g) {
    point[feature] = g == kSamples ? to : from + (to - from) * double(g) / double(kSamples);
    std::copy(point.begin(), point.end(), rows.begin() + std::ptrdiff_t(g * d));
  }
  EXPECT_TRUE(output.values(MatrixView(rows.data(), kSamples + 1, d), values.data()).ok());
  return {*std::min_element(values.begin(), values.end()), *std::max_element(values.begin(), values.end())};
}

std::vector<double> test_point(const nlohmann::json& c, Eigen::Index row) {
  const RowMatrix test = testing::gpc_matrix(c["X_test"]);
  return std::vector<double>(test.row(row).data(), test.row(row).data() + test.cols());
}

MulticlassLaplace golden_model(const nlohmann::json& c) {
  return testing::fitted_multiclass(testing::multiclass_data(c), testing::multiclass_kernels(c), false);
}

// Every class and feature of the point against the samples.
void check_point(const MulticlassLaplace& model, const nlohmann::json& c, Eigen::Index row,
                 const SensitivityOptions& options, const std::string& name) {
  const std::vector<double> point = test_point(c, row);
  for (std::size_t k = 0; k < model.classes(); ++k) {
    const MulticlassOutput output = ok_value(MulticlassOutput::make(model, k));
    Result<LocalSensitivity> local = feature_sensitivity(output, point, options);
    ASSERT_OK(local);
    const std::string where = name + " point " + std::to_string(row) + " class " + std::to_string(k);
    EXPECT_NEAR(local.value().value, c["prob"][std::size_t(row)][k].get<double>(), 1e-9) << where;
    for (const FeatureSensitivity& f : local.value().features) {
      const Sampled minus = sampled_extremes(output, point, f.feature, f.minus.from, f.minus.to);
      const Sampled plus = sampled_extremes(output, point, f.feature, f.plus.from, f.plus.to);
      const std::string at = where + " feature " + std::to_string(f.feature);
      EXPECT_LE(f.minus.minimum.lower, minus.minimum + 1e-9) << at;
      EXPECT_GE(f.minus.maximum.upper, minus.maximum - 1e-9) << at;
      EXPECT_LE(f.plus.minimum.lower, plus.minimum + 1e-9) << at;
      EXPECT_GE(f.plus.maximum.upper, plus.maximum - 1e-9) << at;
      for (const OutputExtreme* e : {&f.minus.minimum, &f.minus.maximum, &f.plus.minimum, &f.plus.maximum}) {
        EXPECT_EQ(e->status, SearchStatus::converged) << at;
        EXPECT_LE(e->upper - e->lower, options.tolerance + 1e-12) << at;
      }
      const double sampled = (plus.maximum - minus.maximum) + (plus.minimum - minus.minimum);
      EXPECT_LE(f.delta_lower, sampled + 1e-9) << at;
      EXPECT_GE(f.delta_upper, sampled - 1e-9) << at;
      EXPECT_LE(f.delta_lower, f.delta) << at;
      EXPECT_GE(f.delta_upper, f.delta) << at;
      // The witnesses' Delta is within the four searches' tolerance of the sampled one.
      EXPECT_NEAR(f.delta, sampled, 4.0 * options.tolerance) << at;
    }
  }
}

TEST(MulticlassSensitivity, IntervalsHoldTheSampledDeltaOnGoldenModels) {
  const nlohmann::json cases = testing::multiclass_golden_cases();
  SensitivityOptions options;
  options.gamma = 0.3;
  options.tolerance = 2e-3;
  for (std::size_t i : {0, 1, 4}) {
    const nlohmann::json& c = cases[i];
    const MulticlassLaplace model = golden_model(c);
    for (Eigen::Index row : {0, 1}) check_point(model, c, row, options, c["name"].get<std::string>());
  }
}

TEST(MulticlassSensitivity, ClippedToTheValidRange) {
  const nlohmann::json c = testing::multiclass_golden_cases()[0];
  const MulticlassLaplace model = golden_model(c);
  const std::vector<double> point = test_point(c, 0);
  SensitivityOptions options;
  options.gamma = 5.0;
  options.valid_range = Interval{point[0] - 0.2, point[0] + 0.4};
  options.dims = {0};
  const MulticlassOutput output = ok_value(MulticlassOutput::make(model, 1));
  const LocalSensitivity local = ok_value(feature_sensitivity(output, point, options));
  ASSERT_EQ(local.features.size(), 1u);
  EXPECT_EQ(local.features[0].minus.from, point[0] - 0.2);
  EXPECT_EQ(local.features[0].plus.to, point[0] + 0.4);
  const Sampled minus = sampled_extremes(output, point, 0, point[0] - 0.2, point[0]);
  const Sampled plus = sampled_extremes(output, point, 0, point[0], point[0] + 0.4);
  const double sampled = (plus.maximum - minus.maximum) + (plus.minimum - minus.minimum);
  EXPECT_LE(local.features[0].delta_lower, sampled + 1e-9);
  EXPECT_GE(local.features[0].delta_upper, sampled - 1e-9);
}

TEST(MulticlassSensitivity, TheSameNumbersOnEveryThreadCount) {
  const nlohmann::json c = testing::multiclass_golden_cases()[1];
  const MulticlassLaplace model = golden_model(c);
  const MulticlassOutput output = ok_value(MulticlassOutput::make(model, 2));
  SensitivityOptions options;
  options.gamma = 0.25;
  const std::vector<double> point = test_point(c, 1);
  const std::size_t before = thread_count();
  std::vector<LocalSensitivity> runs;
  for (std::size_t threads : {1, 2, 3}) {
    set_thread_count(threads);
    runs.push_back(ok_value(feature_sensitivity(output, point, options)));
  }
  set_thread_count(before);
  for (const LocalSensitivity& run : runs) {
    ASSERT_EQ(run.features.size(), runs[0].features.size());
    for (std::size_t a = 0; a < run.features.size(); ++a) {
      EXPECT_EQ(run.features[a].delta_lower, runs[0].features[a].delta_lower);
      EXPECT_EQ(run.features[a].delta, runs[0].features[a].delta);
      EXPECT_EQ(run.features[a].delta_upper, runs[0].features[a].delta_upper);
    }
  }
}

TEST(MulticlassSensitivity, AClassOutOfRangeIsNamed) {
  const nlohmann::json c = testing::multiclass_golden_cases()[0];
  const MulticlassLaplace model = golden_model(c);
  Result<MulticlassOutput> bad = MulticlassOutput::make(model, 3);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::invalid_argument);
  EXPECT_NE(bad.status().message().find("class 3 is out of range: the model has 3 classes"), std::string::npos)
      << bad.status().message();
}

}  // namespace
}  // namespace gpprobe
