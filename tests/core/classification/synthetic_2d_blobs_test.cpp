// The robustness paper's Synthetic2D generator: 600 points per class, the classes shifted by 5 along
// different axes, standardised over all 1,200 points, split without overlap, the same for the same seed.
#include <set>

#include <gtest/gtest.h>

#include "gpprobe/classification/synthetic_classification.h"

namespace gpprobe {
namespace {

TEST(Synthetic2dBlobs, StandardisedBalancedDisjointAndSeeded) {
  const SyntheticSplit all = synthetic_2d_blobs(1000, 200, 1);
  ASSERT_EQ(all.train.x.rows(), 1000);
  ASSERT_EQ(all.test.x.rows(), 200);
  RowMatrix x{1200, 2};
  x << all.train.x, all.test.x;
  std::vector<double> labels = all.train.labels;
  labels.insert(labels.end(), all.test.labels.begin(), all.test.labels.end());
  for (Eigen::Index j = 0; j < 2; ++j) {
    const double mean = x.col(j).mean();
    EXPECT_NEAR(mean, 0.0, 1e-14);
    EXPECT_NEAR((x.col(j).array() - mean).square().sum() / 1199.0, 1.0, 1e-13);  // sample variance 1
  }
  // 600 per class; class 1 lies along +x1 (shifted by 5 before scaling), class 0 along +x2.
  double ones = 0.0, x1_gap = 0.0, x2_gap = 0.0;
  for (Eigen::Index i = 0; i < 1200; ++i) {
    const double sign = labels[std::size_t(i)] == 1.0 ? 1.0 : -1.0;
    ones += labels[std::size_t(i)];
    x1_gap += sign * x(i, 0) / 600.0;
    x2_gap -= sign * x(i, 1) / 600.0;
  }
  EXPECT_EQ(ones, 600.0);
  EXPECT_GT(x1_gap, 1.5);  // 5 / sd, sd = sqrt(1 + 25/4) = 2.69 per column: a gap of 1.86 in expectation
  EXPECT_GT(x2_gap, 1.5);
  // Every row appears once (the split is a permutation), and the seed decides it.
  std::set<std::pair<double, double>> rows;
  for (Eigen::Index i = 0; i < 1200; ++i) rows.insert({x(i, 0), x(i, 1)});
  EXPECT_EQ(rows.size(), 1200u);
  EXPECT_EQ(synthetic_2d_blobs(1000, 200, 1).train.x, all.train.x);
  EXPECT_NE(synthetic_2d_blobs(1000, 200, 2).train.x, all.train.x);
  const SyntheticSplit small = synthetic_2d_blobs(120, 6, 1);
  EXPECT_EQ(small.train.x, all.train.x.topRows(120));
  EXPECT_EQ(small.test.x.row(0), all.train.x.row(120));
}

}  // namespace
}  // namespace gpprobe
