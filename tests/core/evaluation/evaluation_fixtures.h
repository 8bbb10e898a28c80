// Readers for tests/reference/evaluation/*.json (scripts/fixtures/make_evaluation_fixtures.py: values
// from scikit-learn, numpy and scipy) and small helpers the evaluation tests share.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"

#include "test_support.h"

namespace gpprobe::testing {

inline nlohmann::json evaluation_fixture(const std::string& name) {
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/tests/reference/evaluation/" + name);
  return nlohmann::json::parse(in);
}

inline RowMatrix matrix_of(const nlohmann::json& rows) { return matrix_from_json(rows, rows[0].size()); }

inline std::vector<std::uint8_t> labels_of(const nlohmann::json& values) {
  std::vector<std::uint8_t> out;
  for (const auto& v : values) out.push_back(std::uint8_t(v.get<int>()));
  return out;
}

inline void expect_near_all(const std::vector<double>& actual, const nlohmann::json& expected, double tolerance,
                            const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i].get<double>(), tolerance) << what << "[" << i << "]";
  }
}

// A status a bad input must produce: its code and exact message.
struct ExpectedStatus {
  Status status;
  StatusCode code;
  std::string message;
};

inline void expect_statuses(const std::vector<ExpectedStatus>& cases) {
  for (const ExpectedStatus& c : cases) {
    EXPECT_EQ(c.status.code(), c.code) << c.message;
    EXPECT_EQ(c.status.message(), c.message);
  }
}

}  // namespace gpprobe::testing
