// Certified feature sensitivity (feature_sensitivity.h) against brute force: on every model of
// tests/reference/gpc_golden.json (the reference's own fitted blocks), at its robustness points and test
// points, each of the four extremes is bracketed by its certified interval (upper >= the largest value
// on a dense grid of the one-sided box, lower <= the smallest) and Delta computed from the grid's
// extremes lies in [delta_lower, delta_upper]. Plus: an exactly linear output gives Delta = w (to - from)
// (2 gamma w unclipped); a classifier whose labels follow one feature gets Delta of that feature's sign
// with the whole interval on that side; the same numbers for any thread count and on every run; the
// global metric is the mean of the local ones; bad inputs name the problem.
#include "gpprobe/explain/feature_sensitivity.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/common/random_stream.h"
#include "gpprobe/explain/gpc_output.h"
#include "gpprobe/linalg/parallel_for.h"

#include "certify/classifier_robustness_fixtures.h"

namespace gpprobe {
namespace {

using testing::gpc_golden_cases;
using testing::reference_form;

constexpr std::size_t kGrid = 2000;  // intervals of each one-sided box

struct GridExtremes {
  double minimum, maximum;
};

// The output on kGrid + 1 evenly spaced values of `feature` from..to (both ends included).
GridExtremes grid_extremes(const ScalarOutput& output, std::vector<double> point, std::size_t feature, double from,
                           double to) {
  const std::size_t d = point.size();
  std::vector<double> rows((kGrid + 1) * d), values(kGrid + 1);
  for (std::size_t g = 0; g <= kGrid; ++g) {
    point[feature] = g == kGrid ? to : from + (to - from) * double(g) / double(kGrid);
    std::copy(point.begin(), point.end(), rows.begin() + std::ptrdiff_t(g * d));
  }
  EXPECT_TRUE(output.values(MatrixView(rows.data(), kGrid + 1, d), values.data()).ok());
  return {*std::min_element(values.begin(), values.end()), *std::max_element(values.begin(), values.end())};
}

// Every claim of one feature's result against the grid; returns how far the grid's Delta sits from the
// point value (for the log).
double check_against_grid(const ScalarOutput& output, const LocalSensitivity& local, const FeatureSensitivity& f,
                          double tolerance, const std::string& where) {
  const GridExtremes minus = grid_extremes(output, local.point, f.feature, f.minus.from, f.minus.to);
  const GridExtremes plus = grid_extremes(output, local.point, f.feature, f.plus.from, f.plus.to);
  const struct {
    const char* name;
    const OutputExtreme& extreme;
    double grid;
    bool maximum;
  } checks[] = {{"min T-", f.minus.minimum, minus.minimum, false},
                {"max T-", f.minus.maximum, minus.maximum, true},
                {"min T+", f.plus.minimum, plus.minimum, false},
                {"max T+", f.plus.maximum, plus.maximum, true}};
  for (const auto& c : checks) {
    // Sound: the certified end on the grid's side holds every grid value exactly.
    if (c.maximum) EXPECT_GE(c.extreme.upper, c.grid) << where << " " << c.name;
    else EXPECT_LE(c.extreme.lower, c.grid) << where << " " << c.name;
    // And attained up to the tolerance: the witness's value is within it of the grid's extreme.
    if (c.maximum) EXPECT_GE(c.extreme.lower, c.grid - tolerance) << where << " " << c.name;
    else EXPECT_LE(c.extreme.upper, c.grid + tolerance) << where << " " << c.name;
    EXPECT_LE(c.extreme.upper - c.extreme.lower, tolerance) << where << " " << c.name;
    EXPECT_EQ(c.extreme.status, SearchStatus::converged) << where << " " << c.name;
    EXPECT_EQ(c.extreme.witness.size(), 1u);
  }
  const double grid_delta = (plus.maximum - minus.maximum) + (plus.minimum - minus.minimum);
  EXPECT_LE(f.delta_lower, grid_delta + 1e-9) << where;
  EXPECT_GE(f.delta_upper, grid_delta - 1e-9) << where;
  EXPECT_LE(f.delta_lower, f.delta) << where;
  EXPECT_GE(f.delta_upper, f.delta) << where;
  EXPECT_LE(f.delta_upper - f.delta_lower, 4.0 * tolerance + 1e-12) << where;
  return std::abs(f.delta - grid_delta);
}

TEST(FeatureSensitivity, IntervalsHoldTheBruteForceDeltaOnEveryGoldenModel) {
  SensitivityOptions options;
  options.tolerance = 1e-3;
  std::size_t features_checked = 0;
  double largest_gap = 0.0;
  for (const auto& c : gpc_golden_cases()) {
    for (const std::string model : {"laplace_probit", "laplace_logistic", "ep_probit"}) {
      if (!c.contains(model)) continue;
      const ClassifierCommonForm form = reference_form(c, model);
      const ClassifierOutput output(form);
      std::vector<std::vector<double>> points;
      for (const auto& box : c["robustness"]) points.push_back(box["x_star"].get<std::vector<double>>());
      for (std::size_t t = 0; t < 2 && t < c["X_test"].size(); ++t)
        points.push_back(c["X_test"][t].get<std::vector<double>>());
      for (double gamma : {0.15, 0.6}) {
        options.gamma = gamma;
        for (const std::vector<double>& point : points) {
          Result<LocalSensitivity> local = feature_sensitivity(output, point, options);
          ASSERT_TRUE(local.ok()) << local.status().message();
          EXPECT_DOUBLE_EQ(local.value().value, form.probability(point.data()));
          ASSERT_EQ(local.value().features.size(), form.dimension());
          for (const FeatureSensitivity& f : local.value().features) {
            const std::string where = c["name"].get<std::string>() + " " + model + " gamma " + std::to_string(gamma) +
                                      " feature " + std::to_string(f.feature);
            EXPECT_DOUBLE_EQ(f.minus.from, point[f.feature] - gamma) << where;
            EXPECT_DOUBLE_EQ(f.plus.to, point[f.feature] + gamma) << where;
            largest_gap = std::max(largest_gap, check_against_grid(output, local.value(), f, options.tolerance, where));
            ++features_checked;
          }
        }
      }
    }
  }
  EXPECT_GT(features_checked, 150u);
  std::cout << "  " << features_checked << " features; largest |delta - grid delta| " << largest_gap << "\n";
}

// A model linear in every feature, with exact bounds: f(x) = b + w'x over any box.
class LinearOutput final : public BoundedOutput {
 public:
  LinearOutput(double b, std::vector<double> w) : b_(b), w_(std::move(w)) {}
  std::size_t dimension() const override { return w_.size(); }
  Status values(const MatrixView& points, double* out) const override {
    for (std::size_t r = 0; r < points.rows(); ++r) {
      out[r] = b_;
      for (std::size_t j = 0; j < w_.size(); ++j) out[r] += w_[j] * points.at(r, j);
    }
    return Status::success();
  }
  Result<std::unique_ptr<BoxBounder>> around(const std::vector<double>& point,
                                             const std::vector<std::size_t>& dims) const override {
    return std::unique_ptr<BoxBounder>(new Bounder(this, point, dims));
  }

 private:
  struct Bounder final : BoxBounder {
    Bounder(const LinearOutput* f, std::vector<double> point, std::vector<std::size_t> dims)
        : f(f), point(std::move(point)), dims(std::move(dims)) {}
    double at(const std::vector<double>& moving) const {
      std::vector<double> x = point;
      for (std::size_t a = 0; a < dims.size(); ++a) x[dims[a]] = moving[a];
      double out = 0.0;
      f->values(MatrixView(x.data(), 1, x.size()), &out);
      return out;
    }
    BoxBound bound(const Box& box, Extremum extremum, bool) const override {
      BoxBound out{0.0, {{box.lower, at(box.lower)}, {box.upper, at(box.upper)}}};
      out.bound = extremum == Extremum::minimum ? std::min(out.candidates[0].value, out.candidates[1].value)
                                                : std::max(out.candidates[0].value, out.candidates[1].value);
      return out;
    }
    std::vector<double> scales() const override { return std::vector<double>(dims.size(), 1.0); }
    const LinearOutput* f;
    std::vector<double> point;
    std::vector<std::size_t> dims;
  };
  double b_;
  std::vector<double> w_;
};

TEST(FeatureSensitivity, ALinearOutputGivesTwiceGammaTimesItsWeight) {
  const std::vector<double> w = {0.3, -0.05, 0.0, -0.2};
  const LinearOutput output(0.4, w);
  SensitivityOptions options;
  options.gamma = 0.25;
  Result<LocalSensitivity> local = feature_sensitivity(output, {0.5, 0.5, 0.5, 0.9}, options);
  ASSERT_TRUE(local.ok()) << local.status().message();
  for (const FeatureSensitivity& f : local.value().features) {
    EXPECT_NEAR(f.delta, 2.0 * options.gamma * w[f.feature], 1e-15);
    EXPECT_LE(f.delta_lower, f.delta);
    EXPECT_GE(f.delta_upper, f.delta);
    EXPECT_NEAR(f.delta_upper - f.delta_lower, 0.0, 1e-14);
  }
  // Clipped to [0, 1]: feature 3 at 0.9 can rise by 0.1 only, so Delta = w (1 - 0.65).
  options.valid_range = Interval{0.0, 1.0};
  local = feature_sensitivity(output, {0.5, 0.5, 0.5, 0.9}, options);
  ASSERT_TRUE(local.ok()) << local.status().message();
  const FeatureSensitivity& clipped = local.value().features[3];
  EXPECT_DOUBLE_EQ(clipped.plus.to, 1.0);
  EXPECT_DOUBLE_EQ(clipped.minus.from, 0.65);
  EXPECT_NEAR(clipped.delta, w[3] * 0.35, 1e-15);
}

// Labels +1 where x_0 > 0 (x_1 is noise): pi rises with x_0 around the boundary.
GpClassifier one_feature_classifier(double sign, ClassifierMethod method) {
  RandomStream stream(5);
  const std::size_t n = 40;
  RowMatrix X(Eigen::Index(n), 2);
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    X(Eigen::Index(i), 0) = stream.uniform(-2.0, 2.0);
    X(Eigen::Index(i), 1) = stream.uniform(-2.0, 2.0);
    y[i] = sign * X(Eigen::Index(i), 0) > 0.0 ? 1.0 : -1.0;
  }
  ClassifierOptions options;
  options.method = method;
  return GpClassifier::fit(MatrixView(X), y.data(), n, SeArdKernel{4.0, {1.0, 20.0}}, options).value();
}

TEST(FeatureSensitivity, HasTheSignOfTheFeatureTheLabelsFollow) {
  for (ClassifierMethod method : {ClassifierMethod::laplace, ClassifierMethod::ep}) {
    for (double sign : {1.0, -1.0}) {
      const GpClassifier gpc = one_feature_classifier(sign, method);
      const ClassifierOutput output(gpc.common_form());
      SensitivityOptions options;
      options.gamma = 0.3;
      for (const std::vector<double>& point : std::vector<std::vector<double>>{{0.1, 0.0}, {-0.4, 1.0}, {0.7, -1.2}}) {
        Result<LocalSensitivity> local = feature_sensitivity(output, point, options);
        ASSERT_TRUE(local.ok()) << local.status().message();
        const FeatureSensitivity& informative = local.value().features[0];
        const FeatureSensitivity& noise = local.value().features[1];
        const std::string where = std::string(method_name(method)) + " sign " + std::to_string(sign);
        // The whole certified interval is on the weight's side.
        if (sign > 0) EXPECT_GT(informative.delta_lower, 0.0) << where;
        else EXPECT_LT(informative.delta_upper, 0.0) << where;
        EXPECT_GT(std::abs(informative.delta), 10.0 * std::abs(noise.delta)) << where;
      }
    }
  }
}

TEST(FeatureSensitivity, TheSameNumbersOnEveryThreadCountAndRun) {
  const nlohmann::json c = gpc_golden_cases()[3];  // blobs-5d-ard
  const ClassifierCommonForm form = reference_form(c, "ep_probit");
  const ClassifierOutput output(form);
  const RowMatrix points = testing::gpc_matrix(c["X_test"]);
  SensitivityOptions options;
  options.gamma = 0.4;
  const std::size_t before = thread_count();
  std::vector<GlobalSensitivity> runs;
  for (std::size_t threads : {1, 2, 2, 3}) {
    set_thread_count(threads);
    Result<GlobalSensitivity> g = global_sensitivity(output, MatrixView(points), options);
    ASSERT_TRUE(g.ok()) << g.status().message();
    runs.push_back(std::move(g).value());
  }
  set_thread_count(before);
  for (std::size_t r = 1; r < runs.size(); ++r) {
    EXPECT_EQ(runs[r].delta, runs[0].delta);
    EXPECT_EQ(runs[r].delta_lower, runs[0].delta_lower);
    EXPECT_EQ(runs[r].delta_upper, runs[0].delta_upper);
    for (std::size_t p = 0; p < runs[0].points.size(); ++p)
      for (std::size_t a = 0; a < runs[0].features.size(); ++a)
        EXPECT_EQ(runs[r].points[p].features[a].plus.maximum.witness,
                  runs[0].points[p].features[a].plus.maximum.witness);
  }
  // The global metric is the mean of the local ones (eq. 26), and its interval holds that mean.
  const GlobalSensitivity& g = runs[0];
  ASSERT_EQ(g.points.size(), std::size_t(points.rows()));
  for (std::size_t a = 0; a < g.features.size(); ++a) {
    double mean = 0.0, lower = 0.0, upper = 0.0;
    for (const LocalSensitivity& local : g.points) {
      mean += local.features[a].delta / double(points.rows());
      lower += local.features[a].delta_lower / double(points.rows());
      upper += local.features[a].delta_upper / double(points.rows());
    }
    EXPECT_NEAR(g.delta[a], mean, 1e-15);
    EXPECT_LE(g.delta_lower[a], lower);
    EXPECT_GE(g.delta_upper[a], upper);
    EXPECT_LE(g.delta_lower[a], g.delta[a]);
    EXPECT_GE(g.delta_upper[a], g.delta[a]);
  }
}

TEST(FeatureSensitivity, ExplainsOnlyTheChosenFeaturesInTheirOrder) {
  const nlohmann::json c = gpc_golden_cases()[3];
  const ClassifierCommonForm form = reference_form(c, "laplace_probit");
  const ClassifierOutput output(form);
  const std::vector<double> point = c["X_test"][1].get<std::vector<double>>();
  SensitivityOptions options;
  options.gamma = 0.3;
  Result<LocalSensitivity> all = feature_sensitivity(output, point, options);
  options.dims = {4, 1};
  Result<LocalSensitivity> some = feature_sensitivity(output, point, options);
  ASSERT_TRUE(all.ok() && some.ok());
  ASSERT_EQ(some.value().features.size(), 2u);
  EXPECT_EQ(some.value().features[0].feature, 4u);
  EXPECT_EQ(some.value().features[1].feature, 1u);
  EXPECT_EQ(some.value().features[0].delta, all.value().features[4].delta);
  EXPECT_EQ(some.value().features[1].delta_upper, all.value().features[1].delta_upper);
}

TEST(FeatureSensitivity, ConstantFeaturesAreThoseWhoseSpreadIsWithinTheTolerance) {
  // Columns: all 3; 1e6 and 1e6 + 0.5 (spread 0.5 <= 1e-6 x 1e6); 0 and 1e-7 (<= 1e-6 x 1); 0 and 1e-5;
  // -2, 0, 2.
  const RowMatrix X = (RowMatrix(3, 5) << 3, 1e6, 0, 0, -2,  //
                       3, 1e6 + 0.5, 1e-7, 1e-5, 0,          //
                       3, 1e6, 0, 0, 2)
                          .finished();
  EXPECT_EQ(kConstantFeatureTolerance, 1e-6);
  EXPECT_EQ(constant_features(MatrixView(X)), (std::vector<bool>{true, true, true, false, false}));
  EXPECT_EQ(constant_features(MatrixView(X), 0.0), (std::vector<bool>{true, false, false, false, false}));
  EXPECT_EQ(constant_features(MatrixView(X), 1e-4), (std::vector<bool>{true, true, true, true, false}));
  // One row: nothing varies; no row: nothing is known.
  EXPECT_EQ(constant_features(MatrixView(X.data(), 1, 5)), std::vector<bool>(5, true));
  EXPECT_EQ(constant_features(MatrixView(X.data(), 0, 5)), std::vector<bool>(5, false));
}

// n training points: labels follow feature 0, feature 1 is noise (both uniform on [-1, 1]), feature 2 is 0 but
// in row 7, where it is `lit` (0: constant).
GpClassifier classifier_with_a_third_feature(std::size_t n, double lit) {
  RowMatrix X{Eigen::Index(n), 3};
  std::vector<double> y(n);
  RandomStream stream(5);
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Index r = Eigen::Index(i);
    X(r, 0) = stream.uniform() * 2.0 - 1.0, X(r, 1) = stream.uniform() * 2.0 - 1.0, X(r, 2) = i == 7 ? lit : 0.0;
    y[i] = X(r, 0) > 0 ? 1.0 : -1.0;
  }
  return GpClassifier::fit(MatrixView(X), y.data(), n, SeArdKernel{9.0, {0.5, 20.0, 0.3}}).value();
}

TEST(FeatureSensitivity, TrainingVariationCountsTheRowsOffTheMostCommonValue) {
  // Ten rows, counted by hand: column 0 is 0 everywhere (0 rows vary: constant); column 1 is 0 but for one
  // 1 (1 row); column 2 has 0.5 and 0.7 in two rows (2); column 3 is 1 x6, 2 x2, 3 x2 (4 rows off the
  // 1s); column 4 is 5 x7 and 5 + 1e-7 x3 (within the constant tolerance of its scale 5: one value, 0
  // rows, constant); column 5 is 0, 1, ..., 9 (9 rows off any one value); column 6 is 4 x5 and 7 x5 (5).
  const RowMatrix X = (RowMatrix(10, 7) << 0, 0, 0, 1, 5, 0, 4,  //
                       0, 1, 0, 1, 5, 1, 7,                      //
                       0, 0, 0.5, 2, 5 + 1e-7, 2, 4,             //
                       0, 0, 0, 1, 5, 3, 7,                      //
                       0, 0, 0.7, 3, 5, 4, 4,                    //
                       0, 0, 0, 1, 5 + 1e-7, 5, 7,               //
                       0, 0, 0, 3, 5, 6, 4,                      //
                       0, 0, 0, 1, 5, 7, 7,                      //
                       0, 0, 0, 2, 5 + 1e-7, 8, 4,               //
                       0, 0, 0, 1, 5, 9, 7)
                          .finished();
  EXPECT_EQ(kNearlyConstantShare, 0.02);
  const TrainingVariation v = training_variation(MatrixView(X));
  EXPECT_EQ(v.varying_rows, (std::vector<std::size_t>{0, 1, 2, 4, 0, 9, 5}));
  EXPECT_EQ(v.constant, (std::vector<bool>{true, false, false, false, true, false, false}));
  EXPECT_EQ(v.constant, constant_features(MatrixView(X)));
  // n = 10, share 0.02: fewer than max(2, 0.2) = 2 rows, so only the column off in 1 row.
  EXPECT_EQ(v.nearly_constant, (std::vector<bool>{false, true, false, false, false, false, false}));
  // Share 0.3: fewer than 3 rows (1 and 2); 0.45: fewer than 4.5 (1, 2 and 4); 0.5: fewer than 5 (not 5).
  EXPECT_EQ(training_variation(MatrixView(X), kConstantFeatureTolerance, 0.3).nearly_constant,
            (std::vector<bool>{false, true, true, false, false, false, false}));
  EXPECT_EQ(training_variation(MatrixView(X), kConstantFeatureTolerance, 0.45).nearly_constant,
            (std::vector<bool>{false, true, true, true, false, false, false}));
  EXPECT_EQ(training_variation(MatrixView(X), kConstantFeatureTolerance, 0.5).nearly_constant,
            (std::vector<bool>{false, true, true, true, false, false, false}));
  // Share 0 turns the rule off; tolerance 0 splits column 4 into two values (3 rows off the 5s).
  EXPECT_EQ(training_variation(MatrixView(X), kConstantFeatureTolerance, 0.0).nearly_constant,
            std::vector<bool>(7, false));
  EXPECT_EQ(training_variation(MatrixView(X), 0.0).varying_rows, (std::vector<std::size_t>{0, 1, 2, 4, 3, 9, 5}));

  // n = 500 (the authors' Fig. 5 training set): 2 % is 10 rows, so 9 rows off is nearly constant, 10 is not.
  RowMatrix big = RowMatrix::Zero(500, 3);
  for (Eigen::Index i = 0; i < 9; ++i) big(i, 0) = 0.25;     // 9 rows lit
  for (Eigen::Index i = 0; i < 10; ++i) big(i, 1) = 0.25;    // 10 rows lit
  for (Eigen::Index i = 0; i < 2; ++i) big(3 * i, 2) = 1.0;  // 2 rows lit
  const TrainingVariation b = training_variation(MatrixView(big));
  EXPECT_EQ(b.varying_rows, (std::vector<std::size_t>{9, 10, 2}));
  EXPECT_EQ(b.nearly_constant, (std::vector<bool>{true, false, true}));
  // No rows: nothing known, nothing marked.
  const TrainingVariation none = training_variation(MatrixView(X.data(), 0, 7));
  EXPECT_EQ(none.varying_rows, std::vector<std::size_t>(7, 0));
  EXPECT_EQ(none.constant, std::vector<bool>(7, false));
  EXPECT_EQ(none.nearly_constant, std::vector<bool>(7, false));
}

TEST(FeatureSensitivity, AFeatureNearlyConstantInTrainingIsMarkedAndNotRankedUnlessAsked) {
  // As below, but feature 2 is 0 in all of the 60 training points except one (0.9): one row in 60 is
  // fewer than max(2, 0.02 x 60), so it is nearly constant, marked with its count and left out of the
  // ranking; with the rule off (share 0) it is ranked.
  const std::size_t n = 60;
  const GpClassifier gpc = classifier_with_a_third_feature(n, 0.9);
  const ClassifierOutput output(gpc.common_form());
  SensitivityOptions options;
  options.gamma = 0.5;
  options.valid_range = Interval{0.0, 1.0};
  const std::vector<double> point = {0.6, 0.1, 0.0};
  Result<LocalSensitivity> local = feature_sensitivity(output, point, options);
  ASSERT_TRUE(local.ok()) << local.status().message();
  const std::vector<FeatureSensitivity>& f = local.value().features;
  EXPECT_FALSE(f[2].constant_in_training);
  EXPECT_TRUE(f[2].nearly_constant_in_training);
  EXPECT_FALSE(f[0].nearly_constant_in_training);
  EXPECT_FALSE(f[1].nearly_constant_in_training);
  EXPECT_EQ(f[2].varying_rows, 1u);
  EXPECT_EQ(f[0].varying_rows, n - 1);
  EXPECT_EQ(rank_features(local.value()), (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(rank_features(local.value(), true).size(), 3u);
  Result<GlobalSensitivity> global = global_sensitivity(output, MatrixView(point.data(), 1, 3), options);
  ASSERT_TRUE(global.ok());
  EXPECT_EQ(global.value().nearly_constant_in_training, (std::vector<bool>{false, false, true}));
  EXPECT_EQ(global.value().varying_rows, (std::vector<std::size_t>{n - 1, n - 1, 1}));
  options.nearly_constant_share = 0.0;
  Result<LocalSensitivity> off = feature_sensitivity(output, point, options);
  ASSERT_TRUE(off.ok());
  EXPECT_FALSE(off.value().features[2].nearly_constant_in_training);
  EXPECT_EQ(off.value().features[2].varying_rows, 1u);
  EXPECT_EQ(rank_features(off.value()).size(), 3u);
  options.nearly_constant_share = 1.5;
  EXPECT_EQ(feature_sensitivity(output, point, options).status().message(),
            "the nearly-constant share must be a number in [0, 1], got 1.5");
}

TEST(FeatureSensitivity, AFeatureConstantInTrainingIsMarkedAndNotRankedUnlessAsked) {
  // Labels follow feature 0; feature 1 is noise; feature 2 is 0 in every training point, as a border
  // pixel. Moving feature 2 from 0 into [0, 0.5] (the valid range [0, 1] clips T- to the point, as for a
  // blank pixel) moves the point away from all the data, so p drifts to 1/2 and |Delta_2| is large:
  // distance from the data, not evidence. (Unclipped, T- and T+ would mirror each other and Delta_2 = 0.)
  const GpClassifier gpc = classifier_with_a_third_feature(40, 0.0);
  const ClassifierOutput output(gpc.common_form());
  ASSERT_NE(output.training_inputs(), nullptr);
  SensitivityOptions options;
  options.gamma = 0.5;
  options.valid_range = Interval{0.0, 1.0};
  const std::vector<double> point = {0.6, 0.1, 0.0};
  Result<LocalSensitivity> local = feature_sensitivity(output, point, options);
  ASSERT_TRUE(local.ok()) << local.status().message();
  const std::vector<FeatureSensitivity>& f = local.value().features;
  EXPECT_FALSE(f[0].constant_in_training);
  EXPECT_FALSE(f[1].constant_in_training);
  EXPECT_TRUE(f[2].constant_in_training);
  // The artefact: p (> 1/2 here) falls towards 1/2 as feature 2 leaves 0, so Delta_2 < 0, certified.
  EXPECT_GT(local.value().value, 0.5);
  EXPECT_LT(f[2].delta_upper, 0.0);
  EXPECT_GT(std::abs(f[2].delta), 10.0 * std::abs(f[1].delta));
  EXPECT_EQ(rank_features(local.value()), (std::vector<std::size_t>{0, 1}));
  // Asked to include it, it even ranks first, above the feature the labels follow.
  EXPECT_EQ(rank_features(local.value(), true), (std::vector<std::size_t>{2, 0, 1}));
  // The global result carries the same flags.
  Result<GlobalSensitivity> global = global_sensitivity(output, MatrixView(point.data(), 1, 3), options);
  ASSERT_TRUE(global.ok());
  EXPECT_EQ(global.value().constant_in_training, (std::vector<bool>{false, false, true}));
  options.dims = {2, 0};
  Result<GlobalSensitivity> some = global_sensitivity(output, MatrixView(point.data(), 1, 3), options);
  ASSERT_TRUE(some.ok());
  EXPECT_EQ(some.value().constant_in_training, (std::vector<bool>{true, false}));
  options.constant_tolerance = -1.0;
  EXPECT_EQ(feature_sensitivity(output, point, options).status().message(),
            "the constant-feature tolerance must be a finite number >= 0, got -1");
}

TEST(FeatureSensitivity, RanksByTheCertifiedDistanceFromZero) {
  // Hand-made intervals: [0.1, 0.3] (certainly positive, 0.1 from 0), [-0.5, 0.4] (may be 0, reach 0.5),
  // [-0.2, -0.15] (certainly negative, 0.15 from 0), [-0.1, 0.2] (reach 0.2), [-0.2, 0.1] (reach 0.2,
  // |delta| larger).
  LocalSensitivity local;
  const double intervals[5][3] = {
      {0.1, 0.2, 0.3}, {-0.5, 0.0, 0.4}, {-0.2, -0.18, -0.15}, {-0.1, 0.01, 0.2}, {-0.2, -0.05, 0.1}};
  for (std::size_t a = 0; a < 5; ++a) {
    FeatureSensitivity f;
    f.feature = a;
    f.delta_lower = intervals[a][0], f.delta = intervals[a][1], f.delta_upper = intervals[a][2];
    local.features.push_back(f);
  }
  EXPECT_EQ(rank_features(local), (std::vector<std::size_t>{2, 0, 1, 4, 3}));
  local.features[2].constant_in_training = true;
  EXPECT_EQ(rank_features(local), (std::vector<std::size_t>{0, 1, 4, 3}));
  EXPECT_EQ(rank_features(local, true), (std::vector<std::size_t>{2, 0, 1, 4, 3}));
}

TEST(FeatureSensitivity, BadInputsNameTheProblem) {
  const nlohmann::json c = gpc_golden_cases()[2];  // xor-2d
  const ClassifierCommonForm form = reference_form(c, "laplace_probit");
  const ClassifierOutput output(form);
  SensitivityOptions options;
  auto message = [&](const std::vector<double>& point) {
    Result<LocalSensitivity> r = feature_sensitivity(output, point, options);
    return r.ok() ? std::string("ok") : r.status().message();
  };
  EXPECT_EQ(message({0.0}), "the point has 1 coordinate, the model's inputs have 2 columns");
  EXPECT_EQ(message({0.0, std::nan("")}), "the point entry 1 is NaN");
  options.gamma = 0.0;
  EXPECT_EQ(message({0.0, 0.0}), "gamma must be a finite number > 0, got 0");
  options.gamma = 0.1;
  options.dims = {2};
  EXPECT_EQ(message({0.0, 0.0}), "coordinate 2 is out of range: the points have 2 coordinates (0 to 1)");
  options.dims = {1, 1};
  EXPECT_EQ(message({0.0, 0.0}), "coordinate 1 is listed twice");
  options.dims = {};
  options.valid_range = Interval{0.0, 1.0};
  EXPECT_EQ(message({0.5, 1.5}), "the point's coordinate 1 is 1.5, outside the valid range [0, 1]");
  options.valid_range = Interval{1.0, 0.0};
  EXPECT_EQ(message({0.5, 0.5}), "the valid range [1, 0] is empty or not finite");
  options.valid_range.reset();
  options.tolerance = -1.0;
  EXPECT_EQ(message({0.5, 0.5}), "tolerance must be a finite number >= 0, got -1");
  options.tolerance = 1e-3;
  EXPECT_EQ(
      global_sensitivity(output, MatrixView(static_cast<const double*>(nullptr), 0, 2), options).status().message(),
      "there are no points to explain (0 rows)");
  // Cancelled between features.
  Result<LocalSensitivity> cancelled =
      feature_sensitivity(output, {0.5, 0.5}, options, [](std::size_t, std::size_t) { return false; });
  EXPECT_EQ(cancelled.status().code(), StatusCode::cancelled);
}

}  // namespace
}  // namespace gpprobe
