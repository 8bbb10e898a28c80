// Fig. 5's class-specificity check (gpprobe/explain/paper_figures.h): pearson_correlation against numpy's
// corrcoef (scripts/fixtures/reference_delta_correlation.py), with and without the features constant in
// training; and `gpprobe paper-robustness --figure 5`'s delta_correlation against the correlation of the
// `delta` columns of its own CSV, computed here from the printed table over the pixels it marks as varying.
// The core's run_figure_5, called directly as any face would, gives the same numbers as the CLI.
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpprobe/explain/paper_figures.h"

#include "cli/cli_runner.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::run_cli;

const std::vector<double> kA{0.12, -0.05, 0.31, 0.0, -0.22, 0.07, 0.15, -0.4};
const std::vector<double> kB{0.10, -0.01, 0.25, 0.9, -0.30, 0.02, 0.20, -0.35};
const std::vector<double> kC{-0.2, 0.3, 0.05, 0.0, 0.1, -0.15, 0.0, 0.4};
const std::vector<bool> kConstant{false, false, false, true, false, false, false, false};

TEST(Figure5Specificity, PearsonCorrelationMatchesNumpy) {
  EXPECT_NEAR(pearson_correlation(kA, kB), 0.54348148452211331, 1e-14);
  EXPECT_NEAR(pearson_correlation(kA, kB, kConstant), 0.97270827977141461, 1e-14);
  EXPECT_NEAR(pearson_correlation(kA, kC, kConstant), -0.67554726220052241, 1e-14);
  EXPECT_NEAR(pearson_correlation(kB, kC), -0.420866307150083, 1e-14);
  EXPECT_NEAR(pearson_correlation(kA, kA, kConstant), 1.0, 1e-15);
}

TEST(Figure5Specificity, UndefinedCorrelationsAreNaNNotNumbers) {
  const std::vector<double> flat(8, 0.25);
  EXPECT_TRUE(std::isnan(pearson_correlation(kA, flat)));
  std::vector<bool> all_but_one(8, true);
  all_but_one[2] = false;
  EXPECT_TRUE(std::isnan(pearson_correlation(kA, kB, all_but_one)));  // one entry left
  EXPECT_TRUE(std::isnan(pearson_correlation(kA, std::vector<double>(7, 1.0))));
}

const std::string kData = std::string(GPPROBE_SOURCE_DIR) + "/web/public/demo/classification/digits358.csv";
const std::string kFlags = "paper-robustness --figure 5 --data " + kData +
                           " --train-rows 60 --test-points 30 --epochs 0 --lime-samples 300 --gamma 0.25 --patch 3";

TEST(Figure5Specificity, TheCliReportsTheCorrelationOfItsOwnDeltaColumns) {
  const CliRun run = run_cli(kFlags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // The table's delta column (9) per point, and which pixels it marks constant (12) or nearly constant (13).
  std::istringstream in(run.out);
  std::string line;
  std::getline(in, line);
  std::map<std::string, std::vector<double>> maps;
  std::vector<std::string> order;
  std::vector<bool> constant;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (!maps.count(cells[0])) order.push_back(cells[0]);
    maps[cells[0]].push_back(std::stod(cells[9]));
    if (order.size() == 1) constant.push_back(cells[12] == "yes" || cells[13] == "yes");
  }
  ASSERT_EQ(order.size(), 3u);
  std::size_t varying = 0;
  for (bool c : constant) varying += !c;
  // Two-pass Pearson over the varying pixels, written out here.
  auto correlation = [&](const std::vector<double>& x, const std::vector<double>& y) {
    double mx = 0, my = 0;
    for (std::size_t j = 0; j < x.size(); ++j)
      if (!constant[j]) mx += x[j] / double(varying), my += y[j] / double(varying);
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t j = 0; j < x.size(); ++j) {
      if (constant[j]) continue;
      sxy += (x[j] - mx) * (y[j] - my);
      sxx += (x[j] - mx) * (x[j] - mx);
      syy += (y[j] - my) * (y[j] - my);
    }
    return sxy / std::sqrt(sxx * syy);
  };
  const nlohmann::json summary = nlohmann::json::parse(run.err);
  EXPECT_EQ(summary["delta_correlation_features"].get<std::size_t>(), varying);
  const auto& r = summary["delta_correlation"];
  ASSERT_EQ(r.size(), 3u);
  for (std::size_t a = 0; a < 3; ++a) {
    ASSERT_EQ(r[a].size(), 3u);
    EXPECT_NEAR(r[a][a].get<double>(), 1.0, 1e-12);
    for (std::size_t b = 0; b < 3; ++b) {
      if (a == b) continue;
      // The CSV prints 17 significant digits: the same numbers up to rounding.
      EXPECT_NEAR(r[a][b].get<double>(), correlation(maps[order[a]], maps[order[b]]), 1e-12) << a << "," << b;
      EXPECT_LT(std::abs(r[a][b].get<double>()), 1.0);
    }
  }

  // The core's run_figure_5 on the same split, as a face other than the CLI calls it.
  PaperMulticlassData data;
  data.source = kData;
  std::ifstream file(kData);
  std::getline(file, line);  // header
  std::vector<std::vector<double>> rows;
  while (std::getline(file, line)) {
    std::vector<double> row;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  const Eigen::Index d = Eigen::Index(rows[0].size() - 1);
  data.train_x = RowMatrix(60, d);
  data.test = RowMatrix(30, d);
  for (std::size_t i = 0; i < 90; ++i) {
    for (Eigen::Index j = 0; j < d; ++j)
      (i < 60 ? data.train_x(Eigen::Index(i), j) : data.test(Eigen::Index(i - 60), j)) = rows[i][std::size_t(j)];
    (i < 60 ? data.train_y : data.test_labels).push_back(rows[i].back());
  }
  data.classes = 3;
  Figure5Options options;
  options.epochs = 0;
  options.lime_samples = 300;
  Result<Figure5Result> result = run_figure_5(data, options);
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_EQ(result.value().points.size(), 3u);
  for (std::size_t a = 0; a < 3; ++a) {
    EXPECT_EQ(std::to_string(result.value().points[a].point), order[a]);
    for (std::size_t b = 0; b < 3; ++b)
      EXPECT_NEAR(result.value().delta_correlation[a][b], r[a][b].get<double>(), 1e-15) << a << "," << b;
    double sum = 0;
    for (double p : result.value().points[a].whitened) sum += p;
    EXPECT_NEAR(sum, 1.0, 1e-9);
  }
}

}  // namespace
}  // namespace gpprobe
