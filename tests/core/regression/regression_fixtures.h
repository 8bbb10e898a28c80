// The scikit-learn reference cases of tests/reference/regression (scripts/fixtures/
// make_regression_fixtures.py): kernels from their JSON spelling, data as row-major matrices.
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpprobe/kernels/kernel.h"

#include "test_support.h"

namespace gpprobe::testing {

inline nlohmann::json regression_fixture(const std::string& file) {
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/tests/reference/regression/" + file);
  return nlohmann::json::parse(in)["cases"];
}

inline Kernel kernel_from_json(const nlohmann::json& s) {
  const std::string t = s["type"];
  if (t == "constant") return Kernel::constant(s["value"]);
  if (t == "rbf") return Kernel::rbf(s["length_scale"].get<std::vector<double>>());
  if (t == "matern12") return Kernel::matern12(s["length_scale"].get<std::vector<double>>());
  if (t == "matern32") return Kernel::matern32(s["length_scale"].get<std::vector<double>>());
  if (t == "matern52") return Kernel::matern52(s["length_scale"].get<std::vector<double>>());
  if (t == "periodic") return Kernel::periodic(s["length_scale"], s["periodicity"]);
  if (t == "linear") return Kernel::linear(s["offset"]);
  if (t == "cosine") return Kernel::cosine();
  if (t == "sum") return kernel_from_json(s["left"]) + kernel_from_json(s["right"]);
  return kernel_from_json(s["left"]) * kernel_from_json(s["right"]);
}

inline RowMatrix rows_from_json(const nlohmann::json& rows) { return matrix_from_json(rows, rows[0].size()); }

}  // namespace gpprobe::testing
