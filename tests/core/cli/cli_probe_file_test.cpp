// `gpprobe probe --probe FILE`: the probe files of tests/reference/probe_file (written by
// scripts/fixtures/make_probe_file_fixtures.py with numpy and base64, never with our code) fit the
// golden cases' probes, which score the cases' queries with the golden numbers; certified columns
// work with a probe file; each bad file or flag gives one line naming the file or flag.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "gpprobe/probe/probe_file.h"

#include "cli_runner.h"
#include "test_support.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::csv_of;
using testing::parse_output;
using testing::run_cli;
using testing::TempFile;

std::string fixture(const std::string& name) {
  return std::string(GPPROBE_SOURCE_DIR) + "/tests/reference/probe_file/" + name;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const testing::GoldenCase& golden(const std::vector<testing::GoldenCase>& cases, const std::string& name) {
  for (const auto& c : cases)
    if (c.name == name) return c;
  throw std::runtime_error("no golden case " + name);
}

TEST(CliProbeFile, FixturesReproduceTheGoldenCases) {
  const auto cases = testing::golden_cases();
  // float64 observations reproduce the reference like the flags do (1e-8); float32 ones within the
  // float32 tolerance of the golden tests (the reference is float64). In the file's space, and with
  // --space naming either space instead.
  for (const auto& [file, name, tolerance] :
       {std::tuple{"random_o40_d16.float64.probe.json", "random O=40 d=16", 1e-8},
        std::tuple{"random_o30_d64.float32.probe.json", "random O=30 d=64", 4.5e-7}}) {
    const testing::GoldenCase& g = golden(cases, name);
    const TempFile queries("queries.csv", csv_of(g.queries));
    for (const std::string space : {"", " --space function", " --space weight"}) {
      const CliRun r = run_cli("probe --probe " + fixture(file) + " --queries " + queries.path() + space);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.err, "");
      std::string header;
      const auto rows = parse_output(r.out, &header);
      ASSERT_EQ(rows.size(), g.judged.size()) << file;
      for (std::size_t q = 0; q < rows.size(); ++q) {
        EXPECT_NEAR(rows[q][1], g.judged[q], tolerance) << file << space << " query " << q;
        EXPECT_NEAR(rows[q][2], g.episteme[q], tolerance) << file << space << " query " << q;
        EXPECT_NEAR(rows[q][3], g.alea[q], tolerance) << file << space << " query " << q;
        EXPECT_NEAR(rows[q][4], g.mean[q], tolerance) << file << space << " query " << q;
        EXPECT_NEAR(rows[q][5], g.variance[q], tolerance) << file << space << " query " << q;
      }
    }
  }
}

TEST(CliProbeFile, ReadsTheFileAsStoredWithItsSpace) {
  Result<ProbeFile> f = read_probe_file(fixture("random_o30_d64.float32.probe.json"));
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f.value().options.epsilon, 0.5);
  EXPECT_EQ(f.value().options.strength, 5.0);
  EXPECT_EQ(f.value().options.space, PosteriorSpace::weight);
  EXPECT_EQ(f.value().observations.type, ScalarType::float32);
  EXPECT_EQ(f.value().observations.rows, 30u);
  EXPECT_EQ(f.value().observations.cols, 64u);
  // The first value, as numpy stored it: float32(golden observation [0][0]).
  const auto g = golden(testing::golden_cases(), "random O=30 d=64");
  EXPECT_EQ(f.value().observations.float32[0], float(g.observations(0, 0)));
  EXPECT_EQ(f.value().observations.float32.back(), float(g.observations(29, 63)));
  EXPECT_EQ(f.value().labels, g.labels);
}

TEST(CliProbeFile, CertifiedColumnsWorkWithAProbeFile) {
  const auto g = golden(testing::golden_cases(), "random O=40 d=16");
  const TempFile queries("queries.csv", csv_of(g.queries));
  const CliRun r = run_cli("probe --probe " + fixture("random_o40_d16.float64.probe.json") + " --queries " +
                           queries.path() + " --certify-gamma 0.1 --norm 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.out);
  std::string header, row;
  std::getline(in, header);
  EXPECT_NE(header.find(",judged_probability_lower,"), std::string::npos);
  std::size_t lines = 0;
  while (std::getline(in, row)) {
    std::vector<std::string> cells;
    std::stringstream ss(row);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    // judged_probability_lower <= judged_probability <= judged_probability_upper
    const double judged = std::stod(cells[1]), lower = std::stod(cells[8]), upper = std::stod(cells[11]);
    EXPECT_LE(lower, judged);
    EXPECT_GE(upper, judged);
    ++lines;
  }
  EXPECT_EQ(lines, g.judged.size());
}

TEST(CliProbeFile, DecodesBase64WithAndWithoutPadding) {
  std::vector<unsigned char> bytes;
  ASSERT_TRUE(decode_base64("aGVsbG8=", &bytes));
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "hello");
  ASSERT_TRUE(decode_base64("aGVsbG8", &bytes));
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "hello");
  ASSERT_TRUE(decode_base64("/+8=", &bytes));
  EXPECT_EQ(bytes, (std::vector<unsigned char>{0xff, 0xef}));
  EXPECT_FALSE(decode_base64("aGVsb$8=", &bytes));
  EXPECT_FALSE(decode_base64("aGVsbG8=x", &bytes));
  EXPECT_FALSE(decode_base64("a", &bytes));
}

TEST(CliProbeFile, EachBadFileOrFlagGivesOneLine) {
  const std::string good = read_text(fixture("random_o40_d16.float64.probe.json"));
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  const TempFile queries("queries.csv", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n");
  const TempFile narrow("narrow.csv", "1,2,3\n");
  struct Case {
    std::string content, expected;
  };
  const std::vector<Case> cases = {
      {"", ": file is empty"},
      {"{not json", ": not JSON"},
      {"{\"format\": \"something\"}", ": not a gpprobe probe file (expected \"format\": \"gpprobe-probe\")"},
      {with("\"version\": 1", "\"version\": 2"), ": version 2 is not one this gpprobe reads (version 1)"},
      {with("\"epsilon\": 0.05", "\"epsilon\": -1"), ": \"epsilon\" must be a positive number, got -1"},
      {with("\"space\": \"function\"", "\"space\": \"fast\""),
       ": \"space\" must be \"automatic\", \"function\" or \"weight\", got \"fast\""},
      {with("\"dtype\": \"float64\"", "\"dtype\": \"int8\""),
       ": \"observations.dtype\" must be \"float32\" or \"float64\", got \"int8\""},
      {with("\"rows\": 40", "\"rows\": 41"), ": observations.data holds 5120 bytes; 41 x 16 float64 values need 5248"},
      {with("\"labels\": [", "\"labels\": [1, "), ": \"labels\" has 41 values for 40 observation rows"},
      {with("\"data\": \"", "\"data\": \"!"), ": \"observations.data\" must be base64 text"},
  };
  for (const Case& c : cases) {
    const TempFile file("bad.probe.json", c.content);
    const CliRun r = run_cli("probe --probe " + file.path() + " --queries " + queries.path());
    EXPECT_EQ(r.exit_code, 1) << c.expected;
    EXPECT_EQ(r.err, "gpprobe probe: " + file.path() + c.expected + "\n");
  }
  {
    std::string s = good;
    const auto at = s.find("\"labels\": [") + 12;
    s.replace(s.find_first_of("01", at), 1, "2");
    const TempFile file("label2.probe.json", s);
    const CliRun r = run_cli("probe --probe " + file.path() + " --queries " + queries.path());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "gpprobe probe: " + file.path() + ": label 0 is 2; labels must be 0 or 1\n");
  }
  {
    const std::string path = fixture("random_o40_d16.float64.probe.json");
    const CliRun r = run_cli("probe --probe " + path + " --queries " + narrow.path());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err.rfind("gpprobe probe: " + narrow.path() + ": queries have 3 columns", 0), 0u) << r.err;
  }
  {
    const CliRun r = run_cli("probe --probe " + fixture("random_o40_d16.float64.probe.json") + " --queries " +
                             queries.path() + " --epsilon 0.2");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "gpprobe probe: --probe holds the observations, labels, epsilon and strength; remove --epsilon\n");
  }
  {
    const CliRun r = run_cli("probe --probe /nonexistent/p.json --queries " + queries.path());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "gpprobe probe: /nonexistent/p.json: cannot open file\n");
  }
}

}  // namespace
}  // namespace gpprobe
