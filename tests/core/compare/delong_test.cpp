// DeLong's paired AUROC comparison against its definition computed in plain Python
// (scripts/fixtures/reference_delong.py -> tests/reference/compare/delong.json: pairwise placements, no
// mid-ranks, no numpy), the single-scorer case against metrics.h, and each bad input's message.
#include "gpprobe/compare/delong.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include <gtest/gtest.h>

#include "gpprobe/evaluation/metrics.h"

#include "evaluation/evaluation_fixtures.h"

namespace gpprobe {
namespace {

nlohmann::json delong_fixture() {
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/tests/reference/compare/delong.json");
  return nlohmann::json::parse(in);
}

TEST(DeLong, EqualsTheDefinitionOnFixedData) {
  const nlohmann::json doc = delong_fixture();
  ASSERT_EQ(doc["cases"].size(), 4u);
  for (const auto& c : doc["cases"]) {
    const std::string name = c["name"];
    const std::vector<std::uint8_t> y = testing::labels_of(c["labels"]);
    std::vector<std::vector<double>> scores;
    for (const auto& s : c["scores"]) scores.push_back(s.get<std::vector<double>>());
    std::vector<const double*> pointers;
    for (const auto& s : scores) pointers.push_back(s.data());
    Result<AurocCovariance> r = delong_covariance(y.data(), y.size(), pointers);
    ASSERT_TRUE(r.ok()) << name << ": " << r.status().message();
    const AurocCovariance& cov = r.value();
    EXPECT_EQ(cov.scorers, scores.size());
    EXPECT_EQ(cov.positives, std::size_t(std::count(y.begin(), y.end(), 1)));
    testing::expect_near_all(cov.auroc, c["auroc"], 1e-12, name + " auroc");
    testing::expect_near_all(cov.covariance, c["covariance"], 1e-12, name + " covariance");
    for (const auto& t : c["tests"]) {
      const std::size_t a = t["a"], b = t["b"];
      const PairedAurocTest test = paired_auroc_test(cov, a, b);
      SCOPED_TRACE(name + " a " + std::to_string(a) + " b " + std::to_string(b));
      EXPECT_NEAR(test.difference, t["difference"].get<double>(), 1e-12);
      EXPECT_NEAR(test.standard_error, t["standard_error"].get<double>(), 1e-12);
      const double p = t["p_value"];
      EXPECT_NEAR(test.p_value, p, 1e-12);
      EXPECT_NEAR(test.p_value, p, 1e-9 * p);  // tiny p-values too, relatively
    }
  }
}

TEST(DeLong, OneScorerIsMetricsAurocAndItsStandardError) {
  const nlohmann::json doc = delong_fixture();
  for (const auto& c : doc["cases"]) {
    const std::vector<std::uint8_t> y = testing::labels_of(c["labels"]);
    for (const auto& s : c["scores"]) {
      const std::vector<double> scores = s.get<std::vector<double>>();
      const AurocCovariance cov = delong_covariance(y.data(), y.size(), {scores.data()}).value();
      EXPECT_NEAR(cov.auroc[0], auroc(y.data(), scores.data(), y.size()).value(), 1e-15);
      EXPECT_NEAR(cov.standard_error(0), auroc_standard_error(y.data(), scores.data(), y.size()).value(), 1e-15);
    }
  }
}

TEST(DeLong, TheSameRankingTwiceHasNoDifference) {
  const std::vector<std::uint8_t> y = {1, 0, 1, 0, 1, 0};
  const std::vector<double> s = {0.9, 0.1, 0.4, 0.5, 0.7, 0.2};
  const std::vector<double> monotone = {9.0, 1.0, 4.0, 5.0, 7.0, 2.0};  // the same order, other values
  const AurocCovariance cov = delong_covariance(y.data(), 6, {s.data(), monotone.data()}).value();
  const PairedAurocTest t = paired_auroc_test(cov, 0, 1);
  EXPECT_EQ(t.difference, 0.0);
  EXPECT_EQ(t.p_value, 1.0);
}

TEST(DeLong, EachBadInputNamesTheProblem) {
  const std::vector<std::uint8_t> y = {1, 0, 1, 0}, one_positive = {1, 0, 0, 0}, bad = {1, 0, 2, 0};
  const std::vector<double> s = {0.9, 0.1, 0.4, 0.5}, nan = {0.9, 0.1, std::nan(""), 0.5};
  testing::expect_statuses({
      {delong_covariance(y.data(), 4, {}).status(), StatusCode::invalid_argument,
       "delong_covariance needs at least one scorer"},
      {delong_covariance(bad.data(), 4, {s.data()}).status(), StatusCode::invalid_argument,
       "delong_covariance: label 2 is 2; labels must be 0 or 1"},
      {delong_covariance(one_positive.data(), 4, {s.data()}).status(), StatusCode::invalid_argument,
       "delong_covariance needs at least 2 labels of each class, got 1 positive and 3 negative"},
      {delong_covariance(y.data(), 4, {s.data(), nan.data()}).status(), StatusCode::non_finite,
       "scores 1 entry 2 is NaN"},
  });
}

}  // namespace
}  // namespace gpprobe
