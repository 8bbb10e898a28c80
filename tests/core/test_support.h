// Helpers shared by the core tests: the golden reference cases, temporary files, a minimal .npy writer, a fitted probe.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/probe/probe.h"

#include "result_assertions.h"

namespace gpprobe::testing {

// n values uniform in [-1, 1) from `rng` (inputs of the kernel tests).
inline std::vector<double> random_values(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng);
  return v;
}

struct GoldenCase {
  std::string name;
  double epsilon = 0, strength = 0;
  std::size_t dimension = 0;
  RowMatrix observations, queries;
  std::vector<std::uint8_t> labels;
  std::vector<double> mean, variance, judged, episteme, alea;
};

// A probe fitted to (X, y); a failed fit fails the test (and returns a probe of nothing further used).
inline Probe fitted_probe(const RowMatrix& X, const std::vector<std::uint8_t>& y, double epsilon, double strength,
                          PosteriorSpace space) {
  ProbeOptions o;
  o.epsilon = epsilon;
  o.strength = strength;
  o.space = space;
  Result<Probe> p = Probe::fit(MatrixView(X), y.data(), y.size(), o);
  EXPECT_TRUE(p.ok()) << p.status().message();
  return ok_value(std::move(p));
}

inline RowMatrix matrix_from_json(const nlohmann::json& rows, std::size_t cols) {
  RowMatrix m(Eigen::Index(rows.size()), Eigen::Index(cols));
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < cols; ++j) m(Eigen::Index(i), Eigen::Index(j)) = rows[i][j].get<double>();
  return m;
}

// tests/reference/gpp_golden.json (the probe's settled reference values).
inline std::vector<GoldenCase> golden_cases() {
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/tests/reference/gpp_golden.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::vector<GoldenCase> cases;
  for (const auto& c : doc["cases"]) {
    GoldenCase g;
    g.name = c["name"];
    g.epsilon = c["epsilon"];
    g.strength = c["strength"];
    g.dimension = c["queries"][0].size();
    g.observations = matrix_from_json(c["observations"], g.dimension);
    g.queries = matrix_from_json(c["queries"], g.dimension);
    for (const auto& y : c["labels"]) g.labels.push_back(std::uint8_t(y.get<int>()));
    const auto& e = c["expected"];
    g.mean = e["mean"].get<std::vector<double>>();
    g.variance = e["var"].get<std::vector<double>>();
    g.judged = e["judged"].get<std::vector<double>>();
    g.episteme = e["episteme"].get<std::vector<double>>();
    g.alea = e["alea"].get<std::vector<double>>();
    cases.push_back(std::move(g));
  }
  return cases;
}

// A file under the test's temporary directory, removed when the object dies.
class TempFile {
 public:
  explicit TempFile(const std::string& name, const std::string& content = "")
      // The process id keeps two test binaries (two checkouts on one machine) off each other's files.
      : path_(std::string(::testing::TempDir()) + "gpprobe_" + std::to_string(::getpid()) + "_" + name) {
    std::ofstream(path_, std::ios::binary) << content;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The bytes of a version-1 .npy file with the given header fields and raw data.
inline std::string npy_bytes(const std::string& descr, bool fortran, const std::string& shape,
                             const std::string& data) {
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  return out + header + data;
}

template <class T>
std::string raw_bytes(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

}  // namespace gpprobe::testing
