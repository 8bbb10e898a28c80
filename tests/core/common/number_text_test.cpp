// number_text against Python's '%.17g' % v (an independent formatter): every face writes doubles this way.
#include "gpprobe/common/number_text.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace gpprobe {
namespace {

TEST(NumberText, SeventeenSignificantDigitsAsPythonsPercentG) {
  EXPECT_EQ(number_text(0.1), "0.10000000000000001");
  EXPECT_EQ(number_text(1.0 / 3.0), "0.33333333333333331");
  EXPECT_EQ(number_text(5e-324), "4.9406564584124654e-324");
  EXPECT_EQ(number_text(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(number_text(1e-301), "1.0000000000000001e-301");
  EXPECT_EQ(number_text(-0.0), "-0");
  EXPECT_EQ(number_text(123456789012345678.0), "1.2345678901234568e+17");
  EXPECT_EQ(number_text(9007199254740994.0), "9007199254740994");
}

TEST(NumberText, FewerDigitsWhenAsked) {
  // Python: '%.3g' % 2.5e9, '%.3g' % 0.000123456, '%.1g' % 0.96
  EXPECT_EQ(number_text(2.5e9, 3), "2.5e+09");
  EXPECT_EQ(number_text(0.000123456, 3), "0.000123");
  EXPECT_EQ(number_text(0.96, 1), "1");
}

TEST(NumberText, NonFiniteValuesAreSpelledOut) {
  EXPECT_EQ(number_text(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(number_text(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(number_text(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(NumberText, ReadsBackToTheSameDouble) {
  for (double v : {0.1, 1.0 / 3.0, 5e-324, 2.718281828459045, -1e-300, 6.02214076e23}) {
    EXPECT_EQ(std::strtod(number_text(v).c_str(), nullptr), v) << number_text(v);
  }
}

}  // namespace
}  // namespace gpprobe
