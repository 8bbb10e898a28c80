// The core's probe file reader (gpprobe/probe/probe_file.h), which the CLI calls, against the validation
// table (issue 23, item 9): tests/reference/probe_file/{valid,invalid}/
// (scripts/fixtures/make_probe_file_cases.py), read by tests/wasm/probe_file_table.test.ts for the library.
// When the library had a reader of its own the two disagreed: "rows": 6.0 was refused here and accepted
// there; a negative or short "observation_rows" was refused there and ignored here.
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpprobe/probe/probe_file.h"

#include "cli/cli_runner.h"

namespace gpprobe {
namespace {

using nlohmann::json;

std::string table_path(const std::string& kind, const std::string& name) {
  return std::string(GPPROBE_SOURCE_DIR) + "/tests/reference/probe_file/" + kind + "/" + name;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(TrustProbeFileTable, InvalidFilesAreRefusedWithTheTablesMessage) {
  const json expected = json::parse(read_text(table_path("invalid", "expected.json")));
  ASSERT_GE(expected.size(), 30u);
  for (const auto& [name, message] : expected.items()) {
    Result<ProbeFile> file = parse_probe_file(read_text(table_path("invalid", name + ".json")), "p.json");
    ASSERT_FALSE(file.ok()) << name;
    EXPECT_EQ(file.status().code(), StatusCode::parse_error) << name;
    EXPECT_EQ(file.status().message(), "p.json: " + message.get<std::string>()) << name;
  }
}

TEST(TrustProbeFileTable, ValidFilesGiveTheTablesContent) {
  const json expected = json::parse(read_text(table_path("valid", "expected.json")));
  ASSERT_GE(expected.size(), 4u);
  for (const auto& [name, want] : expected.items()) {
    Result<ProbeFile> file = parse_probe_file(read_text(table_path("valid", name + ".json")), "p.json");
    ASSERT_TRUE(file.ok()) << name << ": " << file.status().message();
    const ProbeFile& f = file.value();
    EXPECT_EQ(f.observations.rows, want["rows"].get<std::size_t>()) << name;
    EXPECT_EQ(f.observations.cols, want["cols"].get<std::size_t>()) << name;
    EXPECT_EQ(std::vector<int>(f.labels.begin(), f.labels.end()), want["labels"].get<std::vector<int>>()) << name;
    EXPECT_EQ(space_name(f.options.space), want["space"].get<std::string>()) << name;
    EXPECT_EQ(f.options.epsilon, 0.1) << name;
    EXPECT_EQ(f.options.strength, 5.0) << name;
    if (want["observation_rows"].is_null()) {
      EXPECT_FALSE(f.observation_rows.has_value()) << name;
    } else {
      ASSERT_TRUE(f.observation_rows.has_value()) << name;
      EXPECT_EQ(*f.observation_rows, want["observation_rows"].get<std::vector<std::uint64_t>>()) << name;
    }
    // [[1, 0], [0, 1]] in float64.
    ASSERT_EQ(f.observations.float64.size(), 4u) << name;
    EXPECT_EQ(f.observations.float64, (std::vector<double>{1.0, 0.0, 0.0, 1.0})) << name;
  }
}

TEST(TrustProbeFileTable, TheCommandRefusesAnInvalidFileAndScoresAValidOne) {
  const testing::TempFile queries("q.csv", "1,0\n0.5,0.5\n");
  const std::string bad = table_path("invalid", "observation_rows_negative.json");
  const testing::CliRun refused = testing::run_cli("probe --probe " + bad + " --queries " + queries.path());
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.out, "");
  EXPECT_EQ(refused.err,
            "gpprobe probe: " + bad + ": \"observation_rows[1]\" must be a non-negative integer, got -1\n");
  const std::string good = table_path("valid", "counts_written_as_floats.json");
  const testing::CliRun scored = testing::run_cli("probe --probe " + good + " --queries " + queries.path());
  EXPECT_EQ(scored.exit_code, 0) << scored.err;
}

}  // namespace
}  // namespace gpprobe
