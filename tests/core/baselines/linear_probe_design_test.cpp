// LP and LPE on observations with columns that are zero in every observation (dead ReLU units): with
// O >= d the design leaves those columns out (linear_probe_design.h). The fit must be the fit to the other
// columns with exact zeros put back in the right places, so that queries, which may be non-zero
// there, get the same decisions; and with every column zero, the intercept-only model.
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/baselines/linear_probe.h"
#include "gpprobe/baselines/linear_probe_ensemble.h"

#include "result_assertions.h"

namespace gpprobe {
namespace {

TEST(ProbeDesign, ZeroColumnsAreLeftOutAndTheirWeightsAreExactlyZero) {
  std::mt19937 rng(17);
  std::normal_distribution<double> normal(0.0, 1.0);
  const Eigen::Index O = 40, d = 7, kept = 4;
  const std::vector<Eigen::Index> dead = {0, 3, 6};  // the first, a middle and the last column
  const std::vector<Eigen::Index> live = {1, 2, 4, 5};
  RowMatrix full = RowMatrix::Zero(O, d), reduced(O, kept);
  std::vector<std::uint8_t> labels(static_cast<std::size_t>(O));
  for (Eigen::Index i = 0; i < O; ++i) {
    for (Eigen::Index k = 0; k < kept; ++k) full(i, live[std::size_t(k)]) = reduced(i, k) = normal(rng);
    labels[std::size_t(i)] = reduced(i, 0) - 0.5 * reduced(i, 2) + 0.7 * normal(rng) > 0;
  }
  RowMatrix queries(9, d), queries_reduced(9, kept);
  for (Eigen::Index i = 0; i < 9; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) queries(i, j) = 3.0 * normal(rng);  // non-zero in the dead columns too
    for (Eigen::Index k = 0; k < kept; ++k) queries_reduced(i, k) = queries(i, live[std::size_t(k)]);
  }

  const LinearProbe a = ok_value(LinearProbe::fit(MatrixView(full), labels.data(), std::size_t(O)));
  const LinearProbe b = ok_value(LinearProbe::fit(MatrixView(reduced), labels.data(), std::size_t(O)));
  ASSERT_EQ(a.weights().size(), d);
  for (Eigen::Index j : dead) EXPECT_EQ(a.weights()[j], 0.0) << j;
  for (Eigen::Index k = 0; k < kept; ++k) EXPECT_NEAR(a.weights()[live[std::size_t(k)]], b.weights()[k], 1e-12) << k;
  EXPECT_NEAR(a.intercept(), b.intercept(), 1e-12);
  EXPECT_GT(a.weights().cwiseAbs().maxCoeff(), 0.1);  // a fit that learned something
  std::vector<double> da(9), db(9);
  ASSERT_TRUE(a.decision(MatrixView(queries), da.data()).ok());
  ASSERT_TRUE(b.decision(MatrixView(queries_reduced), db.data()).ok());
  for (std::size_t q = 0; q < 9; ++q) EXPECT_NEAR(da[q], db[q], 1e-11) << q;

  // LPE: every member likewise.
  EnsembleOptions options;
  options.members = 12;
  options.seed = 4;
  const LinearProbeEnsemble ea =
      ok_value(LinearProbeEnsemble::fit(MatrixView(full), labels.data(), std::size_t(O), options));
  const LinearProbeEnsemble eb =
      ok_value(LinearProbeEnsemble::fit(MatrixView(reduced), labels.data(), std::size_t(O), options));
  ASSERT_EQ(ea.weights().cols(), d + 1);
  for (Eigen::Index m = 0; m < 12; ++m) {
    for (Eigen::Index j : dead) EXPECT_EQ(ea.weights()(m, j), 0.0) << m << " " << j;
    for (Eigen::Index k = 0; k < kept; ++k)
      EXPECT_NEAR(ea.weights()(m, live[std::size_t(k)]), eb.weights()(m, k), 1e-12) << m << " " << k;
    EXPECT_NEAR(ea.weights()(m, d), eb.weights()(m, kept), 1e-12) << m;
  }

  // Every column zero: the intercept-only optimum, log(positives / negatives).
  const RowMatrix zeros = RowMatrix::Zero(O, d);
  const LinearProbe z = ok_value(LinearProbe::fit(MatrixView(zeros), labels.data(), std::size_t(O)));
  double positives = 0;
  for (std::uint8_t y : labels) positives += y;
  EXPECT_EQ(z.weights().cwiseAbs().maxCoeff(), 0.0);
  EXPECT_NEAR(z.intercept(), std::log(positives / (double(O) - positives)), 1e-12);
}

}  // namespace
}  // namespace gpprobe
