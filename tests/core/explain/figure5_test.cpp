// `gpprobe paper-robustness --figure 5` pinned on a small configuration of
// web/public/demo/classification/digits358.csv (scripts/data/make_classification_datasets.py): 60 training images of 3,
// 5 and 8, untrained hyperparameters (s2 = 1, l = 1), gamma 0.25 on [0, 1], LIME on 300 samples. The table is the same
// on a second run; it has 64 rows (one per pixel, with its row and column of the 8 x 8 image) for each of the three
// points, each point of its own class; every Delta lies in its certified interval; and the whitening check holds: the
// pixels the metric points to (the most negative certified Delta) set to 1 lower the class's probability, as the JSON
// line reports and as the model's own prediction of the whitened image (gpprobe gpc --likelihood softmax, an
// independent path through the CLI) confirms.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_runner.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::run_cli;

const std::string kData = std::string(GPPROBE_SOURCE_DIR) + "/web/public/demo/classification/digits358.csv";
const std::string kFlags = "paper-robustness --figure 5 --data " + kData +
                           " --train-rows 60 --test-points 30 --epochs 0 --lime-samples 300 --gamma 0.25 --patch 3";

std::vector<std::vector<std::string>> cells_of(const std::string& text, std::string* header) {
  std::istringstream in(text);
  std::getline(in, *header);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

TEST(Figure5, HeatMapsAreDeterministicAndWhiteningThePatchLowersTheClassProbability) {
  const CliRun a = run_cli(kFlags), b = run_cli(kFlags);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  std::string header;
  const auto rows = cells_of(a.out, &header);
  EXPECT_EQ(header,
            "point,label,class,probability,feature,row,col,value,delta_lower,delta,delta_upper,lime,"
            "constant_in_training,nearly_constant_in_training,varying_rows");
  ASSERT_EQ(rows.size(), 3u * 64u);
  std::vector<std::string> classes;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    ASSERT_EQ(rows[r].size(), 15u);
    const std::size_t feature = std::stoul(rows[r][4]);
    EXPECT_EQ(feature, r % 64);
    EXPECT_EQ(std::stoul(rows[r][5]), feature / 8);
    EXPECT_EQ(std::stoul(rows[r][6]), feature % 8);
    EXPECT_EQ(rows[r][1], rows[r][2]);  // the point's own class is explained
    const double lower = std::stod(rows[r][8]), delta = std::stod(rows[r][9]), upper = std::stod(rows[r][10]);
    EXPECT_LE(lower, delta) << r;
    EXPECT_LE(delta, upper) << r;
    // Two boxes of 0.25 cannot move a probability by more than 1 each way.
    EXPECT_LE(upper - lower, 4.0 * 0.002 + 1e-9) << r;
    if (r % 64 == 0) classes.push_back(rows[r][2]);
  }
  EXPECT_EQ(classes, (std::vector<std::string>{"0", "1", "2"}));

  // The JSON line on stderr: the whitening check per point.
  const nlohmann::json summary = nlohmann::json::parse(a.err);
  ASSERT_EQ(summary["points"].size(), 3u);
  for (const auto& p : summary["points"]) {
    ASSERT_FALSE(p["patch"].empty()) << p.dump();
    EXPECT_LT(p["whitened_probability"].get<double>(), p["probability"].get<double>()) << p.dump();
    std::cout << "  point " << p["point"] << " (class " << p["class"] << "): p = " << p["probability"] << ", patch "
              << p["patch"] << " whitened: " << p["whitened_probability"] << "; LIME's patch " << p["lime_patch"]
              << " whitened: " << p["lime_whitened_probability"] << "\n";
  }

  // The first point's whitened image predicted by `gpprobe gpc --likelihood softmax` on the same training rows.
  std::ifstream in(kData);
  std::string line;
  std::getline(in, line);
  std::ostringstream train;
  std::vector<std::string> test_rows;
  std::vector<std::vector<double>> train_pixels;
  for (std::size_t i = 0; std::getline(in, line); ++i) {
    if (i < 60) {
      train << line << '\n';
      std::vector<double> row;
      std::stringstream ss(line);
      for (std::string cell; std::getline(ss, cell, ',');) row.push_back(std::stod(cell));
      train_pixels.push_back(row);
    } else {
      test_rows.push_back(line);
    }
  }
  // The pixels equal in all 60 training images, read off the file: marked in the CSV and the JSON line,
  // and never in a patch (whitening one only moves the image away from the data).
  std::vector<std::size_t> constant;
  for (std::size_t j = 0; j < 64; ++j) {
    bool same = true;
    for (const auto& row : train_pixels) same = same && row[j] == train_pixels[0][j];
    if (same) constant.push_back(j);
  }
  EXPECT_FALSE(constant.empty());
  EXPECT_EQ(summary["constant_in_training"].get<std::vector<std::size_t>>(), constant);
  // Each pixel's training images off its most common value (column 14); nearly constant (13) when 1 or
  // more and fewer than max(2, 0.02 x n).
  std::vector<std::size_t> varying(64);
  for (std::size_t j = 0; j < 64; ++j) {
    std::map<double, std::size_t> count;
    for (const auto& row : train_pixels) ++count[row[j]];
    std::size_t most = 0;
    for (const auto& [value, c] : count) most = std::max(most, c);
    varying[j] = train_pixels.size() - most;
  }
  const double cut = std::max(2.0, 0.02 * double(train_pixels.size()));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::size_t j = r % 64;
    const bool is_constant = std::find(constant.begin(), constant.end(), j) != constant.end();
    EXPECT_EQ(rows[r][12], is_constant ? "yes" : "no") << r;
    EXPECT_EQ(rows[r][13], varying[j] > 0 && double(varying[j]) < cut ? "yes" : "no") << r;
    EXPECT_EQ(std::stoul(rows[r][14]), varying[j]) << r;
  }
  for (const auto& p : summary["points"]) {
    for (const auto& j : p["patch"])
      EXPECT_EQ(std::find(constant.begin(), constant.end(), j.get<std::size_t>()), constant.end()) << p.dump();
    // Every class's probability before and after whitening: C = 3 values summing to 1, the point's own
    // class the explained output.
    for (const char* key : {"probabilities", "whitened_probabilities", "lime_whitened_probabilities"}) {
      const std::vector<double> all = p[key].get<std::vector<double>>();
      ASSERT_EQ(all.size(), 3u) << key;
      EXPECT_NEAR(all[0] + all[1] + all[2], 1.0, 1e-9) << key;
    }
    const std::size_t c = p["class"].get<std::size_t>();
    EXPECT_NEAR(p["probabilities"][c].get<double>(), p["probability"].get<double>(), 1e-6);
    EXPECT_NEAR(p["whitened_probabilities"][c].get<double>(), p["whitened_probability"].get<double>(), 1e-6);
  }
  const auto& first = summary["points"][0];
  std::vector<std::string> image;
  {
    std::stringstream ss(test_rows[first["point"].get<std::size_t>()]);
    for (std::string cell; std::getline(ss, cell, ',');) image.push_back(cell);
  }
  image.pop_back();  // the label
  for (const auto& j : first["patch"]) image[j.get<std::size_t>()] = "1";
  std::string whitened;
  for (std::size_t j = 0; j < image.size(); ++j) whitened += (j ? "," : "") + image[j];
  const testing::TempFile train_file("figure5_train.csv", train.str()), test_file("figure5_test.csv", whitened + "\n");
  const CliRun gpc = run_cli("gpc --likelihood softmax --train " + train_file.path() + " --test " + test_file.path());
  ASSERT_EQ(gpc.exit_code, 0) << gpc.err;
  std::string gpc_header;
  const auto predicted = cells_of(gpc.out, &gpc_header);
  ASSERT_EQ(predicted.size(), 1u);
  std::vector<std::string> names;
  {
    std::stringstream ss(gpc_header);
    for (std::string cell; std::getline(ss, cell, ',');) names.push_back(cell);
  }
  const std::string column = "probability_" + first["class"].dump();
  std::size_t at = names.size();
  for (std::size_t j = 0; j < names.size(); ++j)
    if (names[j] == column) at = j;
  ASSERT_LT(at, names.size()) << gpc_header;
  EXPECT_NEAR(std::stod(predicted[0][at]), first["whitened_probability"].get<double>(), 1e-9);
}

}  // namespace
}  // namespace gpprobe
