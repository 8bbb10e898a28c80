// The multi-class GP classification reference cases: tests/reference/gpc_multiclass_golden.json (a copy of
// the project's settled reference, docs/design/multiclass.md's numbers; its README field is the
// schema), and small helpers for the multi-class tests.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpprobe/classification/multiclass_laplace.h"

#include "classification/gpc_fixtures.h"

namespace gpprobe::testing {

inline nlohmann::json multiclass_golden_cases() { return read_json("gpc_multiclass_golden.json")["cases"]; }

inline MulticlassTrainingData multiclass_data(const nlohmann::json& c) {
  const RowMatrix x = gpc_matrix(c["X_train"]);
  const std::vector<double> y = c["y"].get<std::vector<double>>();
  Result<MulticlassTrainingData> data =
      make_multiclass_training_data(MatrixView(x), y.data(), y.size(), c["C"].get<std::size_t>());
  EXPECT_TRUE(data.ok()) << data.status().message();
  return std::move(data).value();
}

inline std::vector<SeArdKernel> multiclass_kernels(const nlohmann::json& c) {
  std::vector<SeArdKernel> kernels;
  for (const auto& k : c["kernels"])
    kernels.push_back({k["signal_variance"].get<double>(), k["lengthscales"].get<std::vector<double>>()});
  return kernels;
}

inline MulticlassLaplace fitted_multiclass(const MulticlassTrainingData& data, const std::vector<SeArdKernel>& kernels,
                                           bool with_gradient = true) {
  MulticlassOptions options;
  options.with_gradient = with_gradient;
  Result<MulticlassLaplace> fit = MulticlassLaplace::fit(data, kernels, options);
  EXPECT_TRUE(fit.ok()) << fit.status().message();
  return std::move(fit).value();
}

}  // namespace gpprobe::testing
