// The metrics against scikit-learn / scipy (tests/reference/evaluation/metrics.json), including scores
// with many ties, plus closed-form cases and every bad input's message.
#include "gpprobe/evaluation/metrics.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "evaluation_fixtures.h"
#include "result_assertions.h"

namespace gpprobe {
namespace {

TEST(Metrics, MatchScikitLearnAndScipy) {
  const nlohmann::json doc = testing::evaluation_fixture("metrics.json");
  for (const auto& c : doc["cases"]) {
    const std::string name = c["name"];
    const std::vector<std::uint8_t> y = testing::labels_of(c["labels"]);
    const std::vector<double> s = c["scores"], p = c["probability"], other = c["other"];
    const std::size_t n = y.size();
    EXPECT_NEAR(ok_value(auroc(y.data(), s.data(), n)), c["auroc"].get<double>(), 1e-15) << name;
    EXPECT_NEAR(ok_value(auprc(y.data(), s.data(), n)), c["auprc"].get<double>(), 1e-14) << name;
    EXPECT_NEAR(ok_value(accuracy(y.data(), p.data(), n)), c["accuracy"].get<double>(), 1e-15) << name;
    EXPECT_NEAR(ok_value(pearson(s.data(), other.data(), n)), c["pearson"].get<double>(), 1e-14) << name;
    const RocCurve roc = ok_value(roc_curve(y.data(), s.data(), n));
    testing::expect_near_all(roc.false_positive_rate, c["roc"]["false_positive_rate"], 1e-15, name + " fpr");
    testing::expect_near_all(roc.true_positive_rate, c["roc"]["true_positive_rate"], 1e-15, name + " tpr");
    EXPECT_EQ(roc.thresholds.front(), std::numeric_limits<double>::infinity());
    const std::vector<double> after(roc.thresholds.begin() + 1, roc.thresholds.end());
    testing::expect_near_all(after, c["roc"]["thresholds_after_first"], 0.0, name + " thresholds");
  }
}

TEST(Metrics, ClosedForms) {
  // One positive above, one tied with, and one below a negative: AUROC = (1 + ½ + 0) / 3.
  const std::vector<std::uint8_t> y = {1, 1, 1, 0};
  const std::vector<double> s = {3, 2, 1, 2};
  EXPECT_DOUBLE_EQ(ok_value(auroc(y.data(), s.data(), 4)), 0.5);
  const std::vector<double> ranked = {3, 2.5, 1, 2};
  EXPECT_DOUBLE_EQ(ok_value(auroc(y.data(), ranked.data(), 4)), 2.0 / 3.0);
  // AP: thresholds 3 (P=1, R=1/3), 2.5 (P=1, R=2/3), 2 (P=2/3), 1 (P=3/4, R=1).
  EXPECT_DOUBLE_EQ(ok_value(auprc(y.data(), ranked.data(), 4)), 1.0 / 3 + 1.0 / 3 + 0.25);
  // All scores equal: AUROC ½, AP = prevalence.
  const std::vector<double> flat = {1, 1, 1, 1};
  EXPECT_DOUBLE_EQ(ok_value(auroc(y.data(), flat.data(), 4)), 0.5);
  EXPECT_DOUBLE_EQ(ok_value(auprc(y.data(), flat.data(), 4)), 0.75);
  // Perfectly anti-correlated, and a probability of exactly 0.5 predicts 0.
  const std::vector<double> x = {1, 2, 3}, minus = {-2, -4, -6};
  EXPECT_DOUBLE_EQ(ok_value(pearson(x.data(), minus.data(), 3)), -1.0);
  const std::vector<double> half = {0.5, 0.9, 0.1, 0.2};
  EXPECT_DOUBLE_EQ(ok_value(accuracy(y.data(), half.data(), 4)), 0.5);
}

TEST(Metrics, EachBadInputNamesTheProblem) {
  const std::vector<std::uint8_t> ones = {1, 1}, bad = {1, 3};
  const std::vector<double> s = {0.1, 0.2}, nan = {0.1, std::nan("")}, constant = {1, 1};
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> infinite = {-inf, 0.2};
  testing::expect_statuses({
      {auroc(ones.data(), s.data(), 2).status(), StatusCode::invalid_argument,
       "auroc needs both classes; all 2 labels are 1"},
      {roc_curve(ones.data(), s.data(), 2).status(), StatusCode::invalid_argument,
       "roc_curve needs both classes; all 2 labels are 1"},
      {auroc(bad.data(), s.data(), 2).status(), StatusCode::invalid_argument,
       "auroc: label 1 is 3; labels must be 0 or 1"},
      {auroc(ones.data(), nan.data(), 2).status(), StatusCode::non_finite, "auroc: scores entry 1 is NaN"},
      {auprc(ones.data(), infinite.data(), 2).status(), StatusCode::non_finite, "auprc: scores entry 0 is -Inf"},
      {auprc(std::vector<std::uint8_t>{0, 0}.data(), s.data(), 2).status(), StatusCode::invalid_argument,
       "auprc needs at least one positive label"},
      {auroc(ones.data(), s.data(), 0).status(), StatusCode::invalid_argument, "auroc: no values (n = 0)"},
      {accuracy(ones.data(), nan.data(), 2).status(), StatusCode::non_finite, "accuracy: probability entry 1 is NaN"},
      {pearson(s.data(), constant.data(), 2).status(), StatusCode::invalid_argument,
       "pearson is undefined: y is constant"},
      {pearson(constant.data(), s.data(), 2).status(), StatusCode::invalid_argument,
       "pearson is undefined: x is constant"},
      {pearson(s.data(), s.data(), 1).status(), StatusCode::invalid_argument, "pearson needs at least 2 pairs, got 1"},
      {pearson(s.data(), nan.data(), 2).status(), StatusCode::non_finite, "pearson: y entry 1 is NaN"},
  });
}

}  // namespace
}  // namespace gpprobe
