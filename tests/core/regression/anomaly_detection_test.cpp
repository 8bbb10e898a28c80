// Two-stage anomaly detection, ROC curves against hand-computed values, and the Fig. 3 experiment.
#include "gpprobe/regression/anomaly_detection.h"

#include <cmath>

#include <gtest/gtest.h>

#include "gpprobe/regression/anomaly_experiment.h"
#include "gpprobe/regression/gated_roc.h"
#include "gpprobe/regression/gp_regression.h"

#include "result_assertions.h"

namespace gpprobe {
namespace {

TEST(AnomalyDetection, GateThenThreshold) {
  // sd = 0.5 everywhere: residuals 0.5, 2.0 and 1.6 are 1, 4 and 3.2 sd; theta = 3.
  const double y[] = {1.5, 3.0, -0.6, 9.0}, mean[] = {1.0, 1.0, 1.0, 1.0}, var[] = {0.25, 0.25, 0.25, 0.25};
  const double G[] = {0.9, 0.9, 0.6, 0.1};
  PointStatus s[4];
  ASSERT_TRUE(classify_points(y, mean, var, G, 4, {0.5, 3.0}, s).ok());
  EXPECT_EQ(s[0], PointStatus::normal);
  EXPECT_EQ(s[1], PointStatus::anomaly);
  EXPECT_EQ(s[2], PointStatus::anomaly);
  EXPECT_EQ(s[3], PointStatus::unknown);  // 16 sd away, but the model knows nothing there
  ASSERT_TRUE(classify_points(y, mean, var, G, 4, {0.0, 3.5}, s).ok());
  EXPECT_EQ(s[2], PointStatus::normal);
  EXPECT_EQ(s[3], PointStatus::anomaly);
  double score[4];
  anomaly_scores(y, mean, var, 4, score);
  EXPECT_NEAR(score[2], 3.2, 1e-15);
  EXPECT_STREQ(status_name(PointStatus::unknown), "unknown");
  EXPECT_EQ(classify_points(y, mean, var, G, 4, {1.5, 3.0}, s).message(), "rho must be in [0, 1], got 1.5");
  EXPECT_EQ(classify_points(y, mean, var, G, 4, {0.5, 0.0}, s).message(), "theta must be a finite number > 0, got 0");
}

TEST(GatedRoc, MatchesAHandComputedCurveWithTies) {
  // Scores (label): 0.9 (1), 0.8 (0), 0.8 (1), 0.3 (0), 0.1 (0); 2 positives, 3 negatives.
  const double s[] = {0.9, 0.8, 0.8, 0.3, 0.1};
  const std::uint8_t pos[] = {1, 0, 1, 0, 0};
  const GatedRoc c = gated_roc(s, pos, nullptr, 5, 0.0);
  ASSERT_TRUE(c.defined);
  const std::vector<double> fpr{0, 0, 1.0 / 3, 2.0 / 3, 1}, tpr{0, 0.5, 1, 1, 1};
  ASSERT_EQ(c.false_positive_rate.size(), fpr.size());
  for (std::size_t i = 0; i < fpr.size(); ++i) {
    EXPECT_NEAR(c.false_positive_rate[i], fpr[i], 1e-15);
    EXPECT_NEAR(c.true_positive_rate[i], tpr[i], 1e-15);
  }
  // P(s+ > s-) + P(tie)/2 = (3 + 2 + 0.5) / 6.
  EXPECT_NEAR(c.auc, 5.5 / 6.0, 1e-15);
  // Gated on knowledge: only the points with G >= 0.5 count.
  const double G[] = {0.9, 0.2, 0.9, 0.9, 0.1};
  const GatedRoc g = gated_roc(s, pos, G, 5, 0.5);
  EXPECT_EQ(g.points, 3u);
  EXPECT_NEAR(g.auc, 1.0, 1e-15);
  const GatedRoc none = gated_roc(s, pos, G, 5, 0.95);
  EXPECT_FALSE(none.defined);
  EXPECT_TRUE(none.false_positive_rate.empty());
}

TEST(AnomalyExperiment, TheKnowledgeGateImprovesDetectionAsInFig3) {
  AnomalyExperimentOptions o;
  o.seed = 5;
  Result<AnomalyExperiment> r = run_anomaly_experiment(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const AnomalyExperiment& e = r.value();
  EXPECT_EQ(e.train_x.rows(), 50);
  EXPECT_EQ(e.test_x.rows(), 1000);
  EXPECT_GE(e.train_x.minCoeff(), 0.0);
  EXPECT_LT(e.train_x.maxCoeff(), 1.0);
  ASSERT_TRUE(e.ungated.defined);
  ASSERT_EQ(e.gated.size(), 5u);
  // Anomalies among well-known points are easy; outside [0, 1] the model cannot tell.
  for (const GatedRoc& c : e.gated) {
    ASSERT_TRUE(c.defined) << c.rho;
    EXPECT_GT(c.auc, e.ungated.auc) << c.rho;
  }
  for (const GatedRoc& c : e.gated) std::cout << "rho " << c.rho << ": AUC " << c.auc << " over " << c.points << "\n";
  std::cout << "ungated: AUC " << e.ungated.auc << "\n";
  // An anomaly drawn from U(-5, 5) lands within 3 sd (0.3) of F with probability ~ 0.06: even a
  // perfectly informed detector misses those.
  EXPECT_GT(e.gated[2].auc, 0.9);
  EXPECT_GT(e.gated[4].auc, e.ungated.auc + 0.1);
  // The learned noise is close to the generating sd of 0.1.
  EXPECT_NEAR(std::sqrt(e.noise_variance), 0.1, 0.04);
  std::size_t unknown = 0;
  for (std::size_t i = 0; i < 1000; ++i) {
    const double x = e.test_x(Eigen::Index(i), 0);
    if (e.status[i] == PointStatus::unknown) {
      ++unknown;
      EXPECT_TRUE(x < 0.0 || x > 1.0) << x;
    }
  }
  EXPECT_GT(unknown, 400u);  // two thirds of the test range lies outside the training range
  AnomalyExperimentOptions bad;
  bad.anomaly_fraction = 1.0;
  EXPECT_EQ(run_anomaly_experiment(bad).status().message(), "anomaly fraction must be in [0, 1)");
}

TEST(AnomalyExperiment, PredictsTheLearnedModelOnAGridOverTheTestRange) {
  // The grid is the experiment's own model (learned kernel and noise, normal training points), evenly on
  // [test_lower, test_upper], with the knowledge high over the training range [0, 1] and low beyond.
  AnomalyExperimentOptions o;
  o.seed = 5;
  const AnomalyExperiment e = ok_value(run_anomaly_experiment(o));
  ASSERT_EQ(e.grid_x.size(), o.grid_points);
  EXPECT_EQ(e.grid_x.front(), o.test_lower);
  EXPECT_EQ(e.grid_x.back(), o.test_upper);
  std::vector<double> x, y;
  for (std::size_t i = 0; i < e.train_y.size(); ++i) {
    if (e.train_anomaly[i]) continue;
    x.push_back(e.train_x(Eigen::Index(i), 0));
    y.push_back(e.train_y[i]);
  }
  const GpRegression gp =
      ok_value(GpRegression::fit(MatrixView(x.data(), x.size(), 1), y.data(), y.size(), e.kernel, e.noise_variance));
  Predictions expected = Predictions::sized(o.grid_points);
  ASSERT_TRUE(gp.predict(MatrixView(e.grid_x.data(), e.grid_x.size(), 1), expected.columns()).ok());
  EXPECT_EQ(e.grid.mean, expected.mean);
  EXPECT_EQ(e.grid.observation_upper, expected.observation_upper);
  const std::size_t middle = o.grid_points / 2;  // x = 0.5
  EXPECT_GT(e.grid.knowledge[middle], 0.9);
  EXPECT_LT(e.grid.knowledge.back(), 0.5);
  o.grid_points = 1;
  EXPECT_EQ(run_anomaly_experiment(o).status().message(), "grid_points must be at least 2");
}

}  // namespace
}  // namespace gpprobe
