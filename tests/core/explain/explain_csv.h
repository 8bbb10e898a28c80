// The CSV `gpprobe explain` writes, read back for tests: the header must be
// feature,delta_lower,delta,delta_upper,lime,rank,constant_in_training,nearly_constant_in_training,
// varying_rows; the five numbers of each row as doubles, the rank (0 for an empty cell: not ranked), the two
// marks (yes/no) and the count apart.
#pragma once

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gpprobe::testing {

struct ExplainCsv {
  std::vector<std::vector<double>> rows;  // feature, delta_lower, delta, delta_upper, lime
  std::vector<std::size_t> rank;          // 1, 2, ...; 0: not ranked
  std::vector<bool> constant_in_training, nearly_constant_in_training;
  std::vector<std::size_t> varying_rows;
};

inline ExplainCsv parse_explain_csv(const std::string& text) {
  ExplainCsv out;
  std::istringstream in(text);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header,
            "feature,delta_lower,delta,delta_upper,lime,rank,constant_in_training,nearly_constant_in_training,"
            "varying_rows");
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.push_back("");
    EXPECT_EQ(cells.size(), 9u) << line;
    if (cells.size() != 9) continue;
    std::vector<double> row;
    for (std::size_t i = 0; i < 5; ++i) {
      char* end = nullptr;
      row.push_back(std::strtod(cells[i].c_str(), &end));
      EXPECT_TRUE(!cells[i].empty() && *end == '\0') << "cell '" << cells[i] << "'";
    }
    out.rows.push_back(row);
    out.rank.push_back(cells[5].empty() ? 0 : std::size_t(std::stoul(cells[5])));
    EXPECT_TRUE(cells[6] == "yes" || cells[6] == "no") << line;
    out.constant_in_training.push_back(cells[6] == "yes");
    EXPECT_TRUE(cells[7] == "yes" || cells[7] == "no") << line;
    out.nearly_constant_in_training.push_back(cells[7] == "yes");
    out.varying_rows.push_back(std::size_t(std::stoul(cells[8])));
  }
  return out;
}

}  // namespace gpprobe::testing
