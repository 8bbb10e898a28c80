// Results in tests are checked before their value is used (issue 23, item 16). value() of a failed Result
// throws std::logic_error carrying its status's message (status.h; it was undefined behaviour, an empty
// optional, and crashed the whole test binary), which GoogleTest reports as that test's failure; these helpers
// say the same earlier and more plainly:
//
//   ASSERT_OK(r)      r a Result or a Status: fails the test, with its message, and returns when not ok
//   ok_value(expr)    the value of a Result where a test cannot return (inside an expression, in a helper
//                     that returns a value): when it failed, throws with its message, which GoogleTest
//                     reports as that test's failure
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "gpprobe/common/status.h"

namespace gpprobe::testing {

inline const Status& status_of(const Status& s) { return s; }
template <class T>
const Status& status_of(const Result<T>& r) {
  return r.status();
}

template <class T>
void throw_unless_ok(const Result<T>& r) {
  if (!r.ok()) throw std::runtime_error("a Result that was expected to be ok failed: " + r.status().message());
}

}  // namespace gpprobe::testing

#define ASSERT_OK(r) ASSERT_TRUE((r).ok()) << ::gpprobe::testing::status_of(r).message()

template <class T>
T& ok_value(gpprobe::Result<T>& r) {
  gpprobe::testing::throw_unless_ok(r);
  return r.value();
}
template <class T>
const T& ok_value(const gpprobe::Result<T>& r) {
  gpprobe::testing::throw_unless_ok(r);
  return r.value();
}
template <class T>
T ok_value(gpprobe::Result<T>&& r) {
  gpprobe::testing::throw_unless_ok(r);
  return std::move(r).value();
}
