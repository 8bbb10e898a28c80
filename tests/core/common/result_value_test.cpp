// value() of a failed Result (issue 40, item 8): it was an empty optional's *, undefined behaviour that crashed
// the whole test binary (a segfault) instead of failing one test. It now throws std::logic_error carrying the
// status's message, which GoogleTest reports as the calling test's failure, with the reason.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/common/status.h"

namespace gpprobe {
namespace {

template <class Call>
std::string thrown_message(Call call) {
  try {
    call();
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

TEST(ResultValue, AFailedResultThrowsItsStatusMessage) {
  const std::string expected = "the value of a failed Result was asked for: gamma must be a finite number >= 0";
  Result<std::vector<double>> failed(Status(StatusCode::invalid_argument, "gamma must be a finite number >= 0"));
  EXPECT_EQ(thrown_message([&] { (void)failed.value(); }), expected);
  const Result<std::vector<double>>& constant = failed;
  EXPECT_EQ(thrown_message([&] { (void)constant.value(); }), expected);
  EXPECT_EQ(thrown_message([&] { (void)std::move(failed).value(); }), expected);

  Result<std::vector<double>> good(std::vector<double>{1.0, 2.0});
  EXPECT_EQ(good.value().size(), 2u);
  EXPECT_EQ(std::move(good).value()[1], 2.0);
}

}  // namespace
}  // namespace gpprobe
