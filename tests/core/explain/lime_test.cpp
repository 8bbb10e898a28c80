// LIME (lime.h) against tests/reference/explain/lime_reference.json (scripts/fixtures/reference_lime.py:
// numpy, checked there against scikit-learn's Ridge): the same on/off samples from the same seed, the
// same weighted ridge coefficients, intercept and R^2 from the reference's samples and outputs to 1e-10,
// and end to end (sampling, the golden classifier's probabilities, the fit) the same coefficients to
// 1e-10. On linear models LIME recovers the signs and the order of the weights. Bad inputs name the
// problem.
#include "gpprobe/explain/lime.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/explain/gpc_output.h"

#include "certify/classifier_robustness_fixtures.h"

namespace gpprobe {
namespace {

using testing::read_json;

std::vector<std::uint8_t> reference_samples(const nlohmann::json& c) {
  std::vector<std::uint8_t> z;
  for (const auto& row : c["z"])
    for (char v : row.get<std::string>()) z.push_back(std::uint8_t(v - '0'));
  return z;
}

const nlohmann::json& golden_case(const std::string& name) {
  static const nlohmann::json cases = testing::gpc_golden_cases();
  for (const auto& c : cases)
    if (c["name"] == name) return c;
  throw std::runtime_error("no golden case " + name);
}

TEST(Lime, DrawsTheReferenceSamples) {
  for (const auto& c : read_json("explain/lime_reference.json")["cases"]) {
    const std::size_t k = c["dims"].size(), n = c["samples"].get<std::size_t>();
    EXPECT_EQ(lime_samples(n, k, c["seed"].get<std::uint64_t>()), reference_samples(c));
  }
}

TEST(Lime, FitsTheReferenceCoefficientsFromTheReferenceSamples) {
  for (const auto& c : read_json("explain/lime_reference.json")["cases"]) {
    const std::size_t k = c["dims"].size();
    Result<LimeExplanation> fit = lime_fit(reference_samples(c), k, c["outputs"].get<std::vector<double>>(),
                                           c["kernel_width"].get<double>(), c["ridge"].get<double>());
    ASSERT_TRUE(fit.ok()) << fit.status().message();
    const std::vector<double> expected = c["coefficients"].get<std::vector<double>>();
    ASSERT_EQ(fit.value().coefficients.size(), k);
    for (std::size_t j = 0; j < k; ++j) EXPECT_NEAR(fit.value().coefficients[j], expected[j], 1e-10) << j;
    EXPECT_NEAR(fit.value().intercept, c["intercept"].get<double>(), 1e-10);
    EXPECT_NEAR(fit.value().score, c["score"].get<double>(), 1e-10);
  }
}

TEST(Lime, ExplainsTheGoldenClassifierAsTheReferenceDoes) {
  for (const auto& c : read_json("explain/lime_reference.json")["cases"]) {
    const ClassifierCommonForm form = testing::reference_form(golden_case(c["case"]), c["model"]);
    const ClassifierOutput output(form);
    LimeOptions options;
    options.samples = c["samples"].get<std::size_t>();
    options.seed = c["seed"].get<std::uint64_t>();
    options.baseline = c["baseline"].get<std::vector<double>>();
    options.dims = c["dims"].get<std::vector<std::size_t>>();
    Result<LimeExplanation> lime = lime_explain(output, c["point"].get<std::vector<double>>(), options);
    ASSERT_TRUE(lime.ok()) << lime.status().message();
    EXPECT_EQ(lime.value().features, options.dims);
    EXPECT_DOUBLE_EQ(lime.value().kernel_width, c["kernel_width"].get<double>());
    const std::vector<double> expected = c["coefficients"].get<std::vector<double>>();
    for (std::size_t j = 0; j < expected.size(); ++j)
      EXPECT_NEAR(lime.value().coefficients[j], expected[j], 1e-10) << j;
    EXPECT_NEAR(lime.value().intercept, c["intercept"].get<double>(), 1e-10);
    EXPECT_NEAR(lime.value().local_prediction,
                lime.value().intercept + std::accumulate(expected.begin(), expected.end(), 0.0), 1e-10);
  }
}

// f(x) = squash(b + w'x), on or off: with squash the identity the output is exactly linear in the on/off
// representation; with the logistic it is monotone in each feature.
class LinearModel final : public ScalarOutput {
 public:
  LinearModel(std::vector<double> w, bool logistic) : w_(std::move(w)), logistic_(logistic) {}
  std::size_t dimension() const override { return w_.size(); }
  Status values(const MatrixView& points, double* out) const override {
    for (std::size_t r = 0; r < points.rows(); ++r) {
      double f = 0.1;
      for (std::size_t j = 0; j < w_.size(); ++j) f += w_[j] * points.at(r, j);
      out[r] = logistic_ ? 1.0 / (1.0 + std::exp(-f)) : f;
    }
    return Status::success();
  }

 private:
  std::vector<double> w_;
  bool logistic_;
};

std::vector<std::size_t> order_by_size(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return std::abs(values[a]) > std::abs(values[b]); });
  return order;
}

TEST(Lime, RecoversTheSignsAndOrderOfALinearModelsWeights) {
  const std::vector<double> w = {0.9, -0.6, 0.35, -0.2, 0.1, -0.05, 0.7, -1.2};
  for (bool logistic : {false, true}) {
    const LinearModel model(w, logistic);
    LimeOptions options;
    options.seed = 3;
    options.baseline.assign(w.size(), 0.0);  // "pixels": off means 0, on means x* = 1
    Result<LimeExplanation> lime = lime_explain(model, std::vector<double>(w.size(), 1.0), options);
    ASSERT_TRUE(lime.ok()) << lime.status().message();
    const std::vector<double>& beta = lime.value().coefficients;
    for (std::size_t j = 0; j < w.size(); ++j) EXPECT_EQ(beta[j] > 0, w[j] > 0) << "feature " << j;
    EXPECT_EQ(order_by_size(beta), order_by_size(w)) << (logistic ? "logistic" : "linear");
    if (!logistic) {
      // Exactly linear in z: the surrogate fits but for the ridge penalty's shrinkage.
      EXPECT_GT(lime.value().score, 1.0 - 1e-5);
      for (std::size_t j = 0; j < w.size(); ++j) EXPECT_NEAR(beta[j], w[j], 2e-3 * std::abs(w[j]) + 1e-4);
    }
    // Slopes: a coefficient over the step from the baseline, here 1.
    EXPECT_EQ(lime_slopes(lime.value(), std::vector<double>(w.size(), 1.0), options.baseline), beta);
  }
}

TEST(Lime, IsTheSameForTheSameSeedAndDiffersForAnother) {
  const LinearModel model({0.5, -0.4, 0.3}, true);
  LimeOptions options;
  options.samples = 400;
  options.baseline = {0.0, 0.0, 0.0};
  const std::vector<double> point = {1.0, 0.5, -2.0};
  Result<LimeExplanation> a = lime_explain(model, point, options), b = lime_explain(model, point, options);
  options.seed = 1;
  Result<LimeExplanation> c = lime_explain(model, point, options);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a.value().coefficients, b.value().coefficients);
  EXPECT_NE(a.value().coefficients, c.value().coefficients);
}

TEST(Lime, BadInputsNameTheProblem) {
  const LinearModel model({0.5, -0.4}, true);
  LimeOptions options;
  options.baseline = {0.0, 0.0};
  auto message = [&](const std::vector<double>& point) {
    Result<LimeExplanation> r = lime_explain(model, point, options);
    return r.ok() ? std::string("ok") : r.status().message();
  };
  EXPECT_EQ(message({1.0}), "the point has 1 coordinate, the model's inputs have 2 columns");
  EXPECT_EQ(message({1.0, INFINITY}), "the point entry 1 is +Inf");
  options.baseline = {0.0};
  EXPECT_EQ(message({1.0, 1.0}), "the baseline has 1 value, the point has 2 coordinates");
  options.baseline = {0.0, 0.0};
  options.samples = 1;
  EXPECT_EQ(message({1.0, 1.0}), "LIME needs at least 2 samples, got 1");
  options.samples = 100;
  options.dims = {3};
  EXPECT_EQ(message({1.0, 1.0}), "coordinate 3 is out of range: the point has 2 coordinates (0 to 1)");
  options.dims = {};
  options.kernel_width = -1.0;
  EXPECT_EQ(message({1.0, 1.0}), "the kernel width must be a finite number > 0, got -1");
  options.kernel_width = 0.0;
  options.ridge = 0.0;
  EXPECT_EQ(message({1.0, 1.0}), "the ridge penalty must be a finite number > 0, got 0");
  EXPECT_EQ(lime_fit({1, 1, 2, 0}, 2, {0.1, 0.2}, 1.0, 1.0).status().message(),
            "LIME's sample 1, feature 0 is 2; samples are 0 or 1");
  EXPECT_EQ(lime_fit({1, 1, 0}, 2, {0.1, 0.2}, 1.0, 1.0).status().message(),
            "LIME's samples hold 3 values; 2 outputs of 2 features need 4");
}

}  // namespace
}  // namespace gpprobe
