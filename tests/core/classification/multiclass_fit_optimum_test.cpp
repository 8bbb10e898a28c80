// The optimum the multi-class hyperparameter fit finds is pinned: whatever makes the fit cheaper (its start,
// its iterations, shared gradient terms, threads) must end at the same log marginal likelihood, within 1e-6.
// The committed value was computed by the fit of commit 6ee08f6 (before any speed-up) through the CLI:
//   gpprobe gpc --likelihood softmax --train TRAIN --test TEST --signal-variance 1 --length-scales 1
//               --optimize --restarts 0
// on TRAIN = the first 120 rows of web/public/demo/classification/digits358.csv (3 classes, 64 pixels): it
// printed log_marginal_likelihood -23.981159911305024, signal variance 1060.84 (optimizer_converged true,
// 62 L-BFGS iterations, 72 evaluations).
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/classification/multiclass_hyperparameter_fit.h"
#include "gpprobe/classification/multiclass_laplace.h"
#include "gpprobe/common/matrix_view.h"

namespace gpprobe {
namespace {

TEST(MulticlassFitOptimum, DigitsOptimumIsTheCommittedOne) {
  constexpr Eigen::Index kRows = 120, kPixels = 64;
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/web/public/demo/classification/digits358.csv");
  ASSERT_TRUE(in.good());
  std::string line;
  std::getline(in, line);  // header
  RowMatrix x(kRows, kPixels);
  std::vector<double> y(static_cast<std::size_t>(kRows));
  for (Eigen::Index i = 0; i < kRows; ++i) {
    ASSERT_TRUE(std::getline(in, line));
    std::stringstream cells(line);
    std::string cell;
    for (Eigen::Index j = 0; j < kPixels; ++j) {
      ASSERT_TRUE(std::getline(cells, cell, ','));
      x(i, j) = std::stod(cell);
    }
    ASSERT_TRUE(std::getline(cells, cell, ','));
    y[std::size_t(i)] = std::stod(cell);
  }
  const MulticlassTrainingData data = make_multiclass_training_data(MatrixView(x), y.data(), y.size(), 3).value();
  ASSERT_EQ(data.classes, 3u);
  MulticlassHyperparameterOptions options;
  options.shared = true;
  const std::vector<SeArdKernel> start{SeArdKernel{1.0, std::vector<double>(std::size_t(kPixels), 1.0)}};
  const MulticlassHyperparameterFit fit = fit_multiclass_hyperparameters(data, start, options).value();
  EXPECT_TRUE(fit.converged);
  EXPECT_NEAR(fit.log_marginal_likelihood, -23.981159911305024, 1e-6);
  // The same optimum, not merely the same value: the signal variance to 1e-3 relative.
  EXPECT_NEAR(fit.kernels[0].signal_variance / 1060.8416168662995, 1.0, 1e-3);
}

}  // namespace
}  // namespace gpprobe
