// The GP classification reference cases: tests/reference/gpc_golden.json (the settled
// reference values of docs/design/classification.md and certify.md) and tests/reference/classification/*.json
// (scikit-learn, written by scripts/fixtures/make_gpc_fixtures.py), with the comparison they prescribe.
#pragma once

#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpprobe/classification/gp_classifier.h"

#include "result_assertions.h"
#include "test_support.h"

namespace gpprobe::testing {

inline nlohmann::json read_json(const std::string& relative) {
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/tests/reference/" + relative);
  return nlohmann::json::parse(in);
}

inline nlohmann::json gpc_golden_cases() { return read_json("gpc_golden.json")["cases"]; }
inline nlohmann::json gpc_sklearn_cases(const std::string& file) {
  return read_json("classification/" + file)["cases"];
}

// X as a row-major matrix, whatever its key.
inline RowMatrix gpc_matrix(const nlohmann::json& rows) { return matrix_from_json(rows, rows[0].size()); }

inline ClassifierTrainingData gpc_data(const nlohmann::json& c) {
  const RowMatrix x = gpc_matrix(c["X_train"]);
  const std::vector<double> y = c["y_train"].get<std::vector<double>>();
  return ok_value(make_gpc_training_data(MatrixView(x), y.data(), y.size()));
}

inline SeArdKernel gpc_kernel(const nlohmann::json& c) {
  return {c["kernel"]["signal_variance"].get<double>(), c["kernel"]["lengthscales"].get<std::vector<double>>()};
}

// The reference's comparison: |a - b| <= tol * max(1, |b|).
inline ::testing::AssertionResult relatively_near(double actual, double expected, double tolerance) {
  const double error = std::abs(actual - expected);
  if (error <= tolerance * std::max(1.0, std::abs(expected))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << actual << " vs " << expected << " (error " << error << ", tolerance "
                                       << tolerance << " relative)";
}

// The largest |a - b| / max(1, |b|) seen, per quantity, printed at the end of a test for the README.
struct ErrorLog {
  std::map<std::string, double> largest;
  void add(const std::string& what, double actual, double expected) {
    double& e = largest[what];
    e = std::max(e, std::abs(actual - expected) / std::max(1.0, std::abs(expected)));
  }
  ~ErrorLog() {
    for (const auto& [what, e] : largest) std::cout << "  largest relative error, " << what << ": " << e << "\n";
  }
};

template <class Vector>
void expect_all_near(const Vector& actual, const nlohmann::json& expected, double tolerance, const std::string& what,
                     ErrorLog* log = nullptr) {
  ASSERT_EQ(std::size_t(actual.size()), expected.size()) << what;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_TRUE(relatively_near(actual[i], expected[i].get<double>(), tolerance)) << what << "[" << i << "]";
    if (log)
      log->add(what.substr(what.rfind(": ") == std::string::npos ? 0 : what.rfind(": ") + 2), actual[i],
               expected[i].get<double>());
  }
}

}  // namespace gpprobe::testing
