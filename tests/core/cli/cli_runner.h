// Runs the gpprobe binary with arguments and captures its exit code, stdout and stderr; CSV helpers.
#pragma once

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
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

// A numeric CSV with a header line: the header into *header, the cells as numbers.
inline std::vector<std::vector<double>> parse_output(const std::string& text, std::string* header) {
  std::istringstream in(text);
  std::getline(in, *header);
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<double> row;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace gpprobe::testing
