// "N random observations per class": the rows of an independent Python mirror of the documented draw
// (scripts/fixtures/make_draw_fixture.py), natively and through `gpprobe draw` (the wasm module is
// held to the same rows, and to the CLI's, in tests/wasm/observation_draw.test.ts).
#include "gpprobe/probe/observation_draw.h"

#include <gtest/gtest.h>

#include "cli/cli_runner.h"
#include "evaluation/evaluation_fixtures.h"

namespace gpprobe {
namespace {

TEST(ObservationDraw, MatchesTheReferenceDraw) {
  for (const auto& c : testing::evaluation_fixture("observation_draw.json")["cases"]) {
    const std::vector<std::uint8_t> labels = testing::labels_of(c["labels"]);
    Result<std::vector<std::size_t>> rows = draw_observations(labels.data(), labels.size(), c["per_class"], c["seed"]);
    ASSERT_TRUE(rows.ok()) << rows.status().message();
    EXPECT_EQ(rows.value(), c["rows"].get<std::vector<std::size_t>>()) << "seed " << c["seed"];
  }
  const std::uint8_t bad[] = {0, 1, 2};
  EXPECT_EQ(draw_observations(bad, 3, 1, 0).status().message(), "label 2 is 2, not 0 or 1");
}

TEST(ObservationDraw, TheCliDrawsTheSameRows) {
  const auto c = testing::evaluation_fixture("observation_draw.json")["cases"][0];
  std::string text;
  for (const auto& y : c["labels"]) text += std::to_string(y.get<int>()) + "\n";
  const testing::TempFile labels("draw_labels.txt", text);
  const auto r =
      testing::run_cli("draw --labels " + labels.path() + " --per-class " + std::to_string(c["per_class"].get<int>()) +
                       " --seed " + std::to_string(c["seed"].get<int>()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string expected = "row\n";
  for (const auto& row : c["rows"]) expected += std::to_string(row.get<int>()) + "\n";
  EXPECT_EQ(r.out, expected);
  EXPECT_EQ(testing::run_cli("draw --labels " + labels.path()).err, "gpprobe draw: missing --per-class\n");
}

}  // namespace
}  // namespace gpprobe
