// gpprobe loo: each observation's leave-one-out judged probability equals `gpprobe probe` fitted on the
// other observations and scoring it; the verdict line (a perfect ranking judged by the honest AUROC interval);
// a probe file gives the same rows; bad input.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <tuple>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::run_cli;
using testing::TempFile;

struct Case {
  RowMatrix x;
  std::vector<int> y;
};

// 12 observations of 5 dimensions whose label follows the first coordinate.
Case separable() {
  std::mt19937 rng(4);
  std::normal_distribution<double> z;
  Case c{RowMatrix(12, 5), {}};
  for (int i = 0; i < 12; ++i) {
    c.y.push_back(i % 2);
    for (int j = 0; j < 5; ++j) c.x(i, j) = z(rng) * 0.5 + (j == 0 ? (i % 2 ? 1.5 : -1.5) : 0.0);
  }
  return c;
}

std::string labels_text(const std::vector<int>& y) {
  std::string s;
  for (int v : y) s += std::to_string(v) + "\n";
  return s;
}

TEST(CliLoo, EachRowIsTheProbeFittedOnTheOthers) {
  const Case c = separable();
  const TempFile obs("loo_obs.csv", testing::csv_of(c.x)), labels("loo_labels.txt", labels_text(c.y));
  const CliRun r =
      run_cli("loo --observations " + obs.path() + " --labels " + labels.path() + " --epsilon 0.2 --strength 4");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string header;
  const auto rows = testing::parse_output(r.out, &header);
  EXPECT_EQ(header, "observation,label,judged_probability,latent_mean,latent_variance");
  ASSERT_EQ(rows.size(), 12u);
  for (int i : {0, 5, 11}) {
    RowMatrix rest(11, 5), query = c.x.row(i);
    std::vector<int> rest_y;
    for (int k = 0, m = 0; k < 12; ++k) {
      if (k == i) continue;
      rest.row(m++) = c.x.row(k);
      rest_y.push_back(c.y[std::size_t(k)]);
    }
    const TempFile o("loo_rest.csv", testing::csv_of(rest)), l("loo_rest.txt", labels_text(rest_y)),
        q("loo_query.csv", testing::csv_of(query));
    const CliRun refit = run_cli("probe --observations " + o.path() + " --labels " + l.path() + " --queries " +
                                 q.path() + " --epsilon 0.2 --strength 4");
    ASSERT_EQ(refit.exit_code, 0) << refit.err;
    std::string probe_header;
    const auto scored = testing::parse_output(refit.out, &probe_header);
    EXPECT_EQ(rows[std::size_t(i)][1], c.y[std::size_t(i)]);
    EXPECT_NEAR(rows[std::size_t(i)][2], scored[0][1], 1e-9) << "judged probability of observation " << i;
    EXPECT_NEAR(rows[std::size_t(i)][3], scored[0][4], 1e-9) << "latent mean of observation " << i;
    EXPECT_NEAR(rows[std::size_t(i)][4], scored[0][5], 1e-9) << "latent variance of observation " << i;
  }
  const nlohmann::json verdict = nlohmann::json::parse(r.err);
  EXPECT_EQ(verdict["observations"], 12);
  EXPECT_EQ(verdict["positives"], 6);
  EXPECT_EQ(verdict["verdict"], "separates");
  // Every positive is judged above every negative: AUROC 1, and DeLong's placements are all 1 (error 0).
  EXPECT_EQ(verdict["auroc"].get<double>(), 1.0);
  EXPECT_EQ(verdict["auroc_standard_error"].get<double>(), 0.0);
  EXPECT_LT(verdict["log_loss"].get<double>(), std::log(2.0));
}

TEST(CliLoo, UnrelatedLabelsAreAtChanceAndTooFewSaySo) {
  std::mt19937 rng(9);
  std::normal_distribution<double> z;
  RowMatrix x(16, 32);
  for (int i = 0; i < x.size(); ++i) x.data()[i] = z(rng);
  std::vector<int> y;
  for (int i = 0; i < 16; ++i) y.push_back(i % 2);
  const TempFile obs("loo_random.csv", testing::csv_of(x)), labels("loo_random.txt", labels_text(y));
  const CliRun r = run_cli("loo --observations " + obs.path() + " --labels " + labels.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json chance = nlohmann::json::parse(r.err);
  EXPECT_EQ(chance["verdict"], "chance");
  // The JSON carries the intervals the verdict judged: value -/+ z standard errors, z the standard normal's
  // 99.5 % quantile (scipy.stats.norm.ppf(0.995)); chance: the AUROC interval does not lie above 1/2.
  const double z995 = 2.5758293035489004, auroc = chance["auroc"], se = chance["auroc_standard_error"];
  EXPECT_EQ(chance["confidence"].get<double>(), 0.99);
  EXPECT_NEAR(chance["auroc_delong_lower"].get<double>(), auroc - z995 * se, 1e-15);
  EXPECT_NEAR(chance["auroc_delong_upper"].get<double>(), auroc + z995 * se, 1e-15);
  EXPECT_LE(chance["auroc_delong_lower"].get<double>(), 0.5);
  // The honest interval holds DeLong's (clipped to [0, 1]), so it reaches 1/2 too.
  EXPECT_LE(chance["auroc_lower"].get<double>(), std::max(0.0, auroc - z995 * se) + 1e-15);
  EXPECT_GE(chance["auroc_upper"].get<double>(), std::min(1.0, auroc + z995 * se) - 1e-15);
  const double loss = chance["log_loss"], loss_se = chance["log_loss_standard_error"];
  EXPECT_NEAR(chance["log_loss_lower"].get<double>(), loss - z995 * loss_se, 1e-15);
  EXPECT_NEAR(chance["log_loss_upper"].get<double>(), loss + z995 * loss_se, 1e-15);

  const TempFile one("loo_one.txt", labels_text({1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  const CliRun few = run_cli("loo --observations " + obs.path() + " --labels " + one.path());
  const nlohmann::json v = nlohmann::json::parse(few.err);
  EXPECT_EQ(v["verdict"], "too_few");
  EXPECT_TRUE(v["auroc_standard_error"].is_null());
  EXPECT_TRUE(v["auroc_lower"].is_null());
  EXPECT_TRUE(v["auroc_upper"].is_null());
  EXPECT_TRUE(v["auroc_delong_lower"].is_null());
  EXPECT_TRUE(v["auroc"].is_number());
}

// Newcombe's score interval at AUROC 1 by scipy's root finder (scripts/fixtures/reference_compare_draws.py).
double reference_perfect_lower(int positives, int negatives) {
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/tests/reference/compare/draws.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  for (const nlohmann::json& c : doc["score_intervals"]) {
    if (c["auroc"] == 1.0 && c["positives"] == positives && c["negatives"] == negatives) return c["lower"];
  }
  ADD_FAILURE() << "no reference interval for " << positives << " + " << negatives;
  return NAN;
}

// Issue 34: a perfect ranking's AUROC interval does not collapse to 1–1 (DeLong's standard error is 0 there);
// the verdict judges the honest one: 8 + 8 separate (0.633–1), 3 + 5 are too few (0.430–1 reaches 1/2).
TEST(CliLoo, APerfectRankingIsJudgedByTheHonestInterval) {
  for (auto [positives, negatives, verdict] : {std::tuple{8, 8, "separates"}, std::tuple{3, 5, "too_few"}}) {
    SCOPED_TRACE(std::to_string(positives) + " + " + std::to_string(negatives));
    std::mt19937 rng(21);
    std::normal_distribution<double> z(0.0, 0.3);
    const int n = positives + negatives;
    RowMatrix x(n, 6);
    std::vector<int> y;
    for (int i = 0; i < n; ++i) {
      y.push_back(i < positives);
      for (int j = 0; j < 6; ++j) x(i, j) = z(rng) + (j == 0 ? (i < positives ? 2.0 : -2.0) : 0.0);
    }
    const TempFile obs("loo_perfect.csv", testing::csv_of(x)), labels("loo_perfect.txt", labels_text(y));
    const CliRun r = run_cli("loo --observations " + obs.path() + " --labels " + labels.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json v = nlohmann::json::parse(r.err);
    ASSERT_EQ(v["auroc"].get<double>(), 1.0);
    EXPECT_EQ(v["auroc_standard_error"].get<double>(), 0.0);
    EXPECT_EQ(v["auroc_delong_lower"].get<double>(), 1.0);
    EXPECT_EQ(v["auroc_delong_upper"].get<double>(), 1.0);
    EXPECT_NEAR(v["auroc_lower"].get<double>(), reference_perfect_lower(positives, negatives), 1e-10);
    EXPECT_EQ(v["auroc_upper"].get<double>(), 1.0);
    EXPECT_EQ(v["verdict"], verdict);
  }
}

TEST(CliLoo, EachBadInputGivesOneLineNamingTheFileAndTheProblem) {
  const Case c = separable();
  const TempFile obs("loo_bad_obs.csv", testing::csv_of(c.x)), labels("loo_bad.txt", "1\n0\n");
  const CliRun missing = run_cli("loo --observations " + obs.path());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "gpprobe loo: missing --labels\n");
  const CliRun count = run_cli("loo --observations " + obs.path() + " --labels " + labels.path());
  EXPECT_EQ(count.exit_code, 1);
  EXPECT_EQ(count.err, "gpprobe loo: " + labels.path() + ": 2 labels for 12 observation rows in " + obs.path() + "\n");
  const CliRun space = run_cli("loo --observations " + obs.path() + " --labels " + labels.path() + " --space diagonal");
  EXPECT_EQ(space.err, "gpprobe loo: --space must be automatic, function or weight, got 'diagonal'\n");
}

}  // namespace
}  // namespace gpprobe
