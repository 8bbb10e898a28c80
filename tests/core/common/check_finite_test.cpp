// check_finite scans a view in place, eight lanes at a time in blocks of 1,024 values: the first NaN or
// +-Inf must be the one reported, wherever it falls (first or last value of a block, in the tail after
// the last whole block, after a finite block that holds huge values), for float32 and float64 views.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/common/matrix_view.h"

namespace gpprobe {
namespace {

template <class T>
void expect_first(std::size_t rows, std::size_t cols, const std::vector<std::pair<std::size_t, T>>& bad,
                  const std::string& expected) {
  std::vector<T> values(rows * cols);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = T((k % 7 == 0) ? 1e30 : 0.5 * double(k % 13));
  if (sizeof(T) == 4) values[5] = std::numeric_limits<T>::max();  // finite, and x - x is still 0
  for (const auto& [k, v] : bad) values[k] = v;
  const Status s = check_finite(MatrixView(values.data(), rows, cols), "queries");
  if (expected.empty()) {
    EXPECT_TRUE(s.ok()) << s.message();
  } else {
    EXPECT_EQ(s.code(), StatusCode::non_finite);
    EXPECT_EQ(s.message(), expected);
  }
}

template <class T>
void check_positions() {
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  const std::size_t rows = 101, cols = 37;  // 3,737 values: three whole blocks and a tail of 665
  expect_first<T>(rows, cols, {}, "");
  expect_first<T>(rows, cols, {{0, nan}}, "queries row 0, column 0 is NaN");
  expect_first<T>(rows, cols, {{1023, inf}}, "queries row 27, column 24 is +Inf");   // last of block 0
  expect_first<T>(rows, cols, {{1024, -inf}}, "queries row 27, column 25 is -Inf");  // first of block 1
  expect_first<T>(rows, cols, {{3072, nan}}, "queries row 83, column 1 is NaN");     // first of the tail
  expect_first<T>(rows, cols, {{3736, inf}}, "queries row 100, column 36 is +Inf");  // the very last value
  // Two in one block and one earlier in a later position order: the first by index wins.
  expect_first<T>(rows, cols, {{2047, nan}, {1500, -inf}, {3000, nan}}, "queries row 40, column 20 is -Inf");
  expect_first<T>(1, 5, {{3, nan}}, "queries row 0, column 3 is NaN");  // shorter than one step
}

TEST(CheckFinite, ReportsTheFirstNonFiniteValueWhereverItFallsInFloat64) { check_positions<double>(); }

TEST(CheckFinite, ReportsTheFirstNonFiniteValueWhereverItFallsInFloat32) { check_positions<float>(); }

// The smallest views: an empty one is finite, a single value is scanned like any other (the mutation run's
// survivor took the empty view's shortcut for one value, so a lone NaN passed).
TEST(CheckFinite, ScansASingleValueAndPassesAnEmptyView) {
  for (const double v : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    double one = v;
    const Status s = check_finite(MatrixView(&one, 1, 1), "x");
    EXPECT_EQ(s.code(), StatusCode::non_finite);
    EXPECT_EQ(s.message(), std::string("x row 0, column 0 is ") + (std::isnan(v) ? "NaN" : "+Inf"));
    float single = float(v);
    EXPECT_EQ(check_finite(MatrixView(&single, 1, 1), "x").code(), StatusCode::non_finite);
    double two[2] = {1.0, v};
    EXPECT_EQ(check_finite(MatrixView(two, 1, 2), "x").message(),
              std::string("x row 0, column 1 is ") + (std::isnan(v) ? "NaN" : "+Inf"));
  }
  double finite = 2.5;
  EXPECT_TRUE(check_finite(MatrixView(&finite, 1, 1), "x").ok());
  EXPECT_TRUE(check_finite(MatrixView(&finite, 0, 3), "x").ok());
}

}  // namespace
}  // namespace gpprobe
