// DeferredCovariance (EP's Sigma under rank-one downdates, kept aside and applied in blocks) against the
// same downdates applied one by one to a dense matrix in long double: every column, after every
// downdate, across several block flushes and a block size that does not divide the count.
#include "core/src/linalg/deferred_covariance.h"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.h"

namespace gpprobe {
namespace {

using testing::random_values;

TEST(DeferredCovariance, ColumnsEqualTheDowndatesAppliedOneByOne) {
  for (const std::size_t block : {std::size_t(1), std::size_t(5), std::size_t(64)}) {
    const std::size_t n = 23;
    std::mt19937 rng{unsigned(block)};
    // Sigma = X X' / n + I: symmetric positive definite; only its lower triangle is handed over.
    const std::vector<double> x = random_values(n * n, rng);
    std::vector<long double> dense(n * n);
    RowMatrix lower = RowMatrix::Zero(Eigen::Index(n), Eigen::Index(n));
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        long double s = i == j ? 1.0L : 0.0L;
        for (std::size_t k = 0; k < n; ++k) s += (long double)x[i * n + k] * x[j * n + k] / n;
        dense[i * n + j] = s;
        if (j <= i) lower(Eigen::Index(i), Eigen::Index(j)) = double(s);
      }
    }
    DeferredCovariance sigma(block);
    sigma.reset(lower);
    std::vector<double> column(n);
    double largest = 0.0;
    for (std::size_t step = 0; step < 3 * n + 7; ++step) {  // several flushes, then some pending
      const std::vector<double> s = random_values(n, rng);
      const double kappa = 0.01 * (double(step % 7) - 3.0);
      sigma.downdate(s.data(), kappa);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) dense[i * n + j] -= (long double)kappa * s[i] * s[j];
      for (std::size_t i = 0; i < n; ++i) {
        sigma.column(i, column.data());
        for (std::size_t j = 0; j < n; ++j) {
          largest = std::max(largest, double(std::fabs((long double)column[j] - dense[j * n + i])));
        }
      }
    }
    EXPECT_LT(largest, 1e-13) << "block " << block;
    EXPECT_GT(largest, 0.0) << "block " << block;  // the comparison is against long double, not itself
  }
}

}  // namespace
}  // namespace gpprobe
