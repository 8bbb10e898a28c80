// Runs the gpprobe binary with arguments and captures its exit code, stdout and stderr; CSV helpers.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "test_support.h"

namespace gpprobe::testing {

struct CliRun {
  int exit_code = -1;
  std::string out, err;
};

inline CliRun run_cli(const std::string& args) {
  const TempFile err_file("stderr.txt");
  const std::string command = std::string(GPPROBE_CLI_PATH) + " " + args + " 2>" + err_file.path();
  CliRun r;
  FILE* pipe = popen(command.c_str(), "r");
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_file.path());
  std::stringstream ss;
  ss << in.rdbuf();
  r.err = ss.str();
  return r;
}

// Rows of m as CSV lines with 17 significant digits.
inline std::string csv_of(const RowMatrix& m) {
  std::ostringstream os;
  os.precision(17);
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) os << (j ? "," : "") << m(i, j);
    os << "\n";
  }
  return os.str();
}

// A numeric CSV with a header line: the header into *header, the cells as numbers. Read with strtod, each
// cell whole (a failure names it): a prior-like far point's latent mean can be subnormal (1.5e-323), which
// std::stod rejects as out of range.
inline std::vector<std::vector<double>> parse_output(const std::string& text, std::string* header) {
  std::istringstream in(text);
  std::getline(in, *header);
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<double> row;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) {
      char* end = nullptr;
      row.push_back(std::strtod(cell.c_str(), &end));
      EXPECT_TRUE(!cell.empty() && *end == '\0') << "cell '" << cell << "'";
    }
    rows.push_back(row);
  }
  return rows;
}

// Checks that every field of a CSV line is printed as %.17g prints its number (17 significant digits, the
// shortest form not cut); returns how many fields are 17 characters or longer (%.6g prints at most 8).
inline int expect_seventeen_digit_fields(const std::string& line) {
  std::istringstream fields(line);
  int long_fields = 0;
  for (std::string field; std::getline(fields, field, ',');) {
    char printed[32];
    std::snprintf(printed, sizeof printed, "%.17g", std::strtod(field.c_str(), nullptr));
    EXPECT_EQ(field, printed);
    long_fields += field.size() >= 17;
  }
  return long_fields;
}

// A golden classification case's training set as CSV, 17 significant digits: the features of each row
// of X_train, then its label from `labels` ("y_train": -1/+1; "y": class indices); no header.
inline std::string golden_train_csv(const nlohmann::json& c, const char* labels = "y_train") {
  std::ostringstream os;
  os.precision(17);
  for (std::size_t i = 0; i < c["X_train"].size(); ++i) {
    for (const auto& v : c["X_train"][i]) os << v.get<double>() << ',';
    os << c[labels][i].get<int>() << '\n';
  }
  return os.str();
}

}  // namespace gpprobe::testing
