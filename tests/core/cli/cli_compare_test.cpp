// gpprobe compare: the header the issue fixes, every number equal to the library's comparison of the same
// files (which tests/core/compare pins to probing each embedding alone), the leave-one-out AUROC equal to
// `gpprobe loo` on one embedding's observations, --per-class equal to `gpprobe draw`'s rows, concepts from
// a table, a Projector config equal to the same tensors as .npy files, and the refusals.
#include <cmath>
#include <random>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpprobe/compare/draw_comparison.h"
#include "gpprobe/compare/representation_comparison.h"

#include "cli_runner.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::run_cli;
using testing::TempFile;

constexpr std::size_t kRows = 60;
constexpr const char* kHeader =
    "embedding,width,loo_auroc,loo_auroc_lower,loo_auroc_upper,heldout_auroc,mean_episteme,mean_alea,"
    "decided_fraction,ood_auroc,heldout_auroc_lower,heldout_auroc_upper,loo_verdict,observations,heldout_rows,"
    "queries,separates,p_value_against_best,indistinguishable_from_best,concept,below_half,draws,draw_mean_auroc,"
    "draw_sd_auroc,draw_min_auroc,draw_max_auroc,draw_auroc_lower,draw_auroc_upper,draw_difference_from_best,"
    "draw_p_value_against_best,draw_holm_p_value,draw_indistinguishable_from_best,draw_separates,draw_below_half,"
    "draw_highest_in,draw_claimed_best_in";
constexpr std::size_t kColumns = 36;

// Three float32 layers of the same 60 rows: noise, a weak and a strong signal of "i % 3 == 0".
std::vector<std::uint8_t> thirds() {
  std::vector<std::uint8_t> labels;
  for (std::size_t i = 0; i < kRows; ++i) labels.push_back(std::uint8_t(i % 3 == 0));
  return labels;
}

std::string text_of(const std::vector<std::uint8_t>& labels) {
  std::string text;
  for (std::uint8_t y : labels) text += std::to_string(int(y)) + "\n";
  return text;
}

// (TempFile removes its file when destroyed: the vectors reserve their room so none is copied.)
struct Files {
  std::vector<std::vector<float>> layers;
  std::vector<std::size_t> widths = {3, 5, 8};
  std::vector<std::uint8_t> labels = thirds();
  std::vector<TempFile> npy;
  TempFile labels_file{"cmp_labels.txt", text_of(labels)};

  Files() {
    std::mt19937 rng(9);
    std::normal_distribution<float> z(0.0f, 1.0f);
    npy.reserve(3);
    const float signal[3] = {0.0f, 0.7f, 2.5f};
    for (std::size_t k = 0; k < 3; ++k) {
      std::vector<float> x(kRows * widths[k]);
      for (std::size_t i = 0; i < kRows; ++i)
        for (std::size_t j = 0; j < widths[k]; ++j)
          x[i * widths[k] + j] = z(rng) + (j == 0 ? signal[k] * (labels[i] ? 1.0f : -1.0f) : 0.0f);
      layers.push_back(x);
      npy.emplace_back(
          "cmp_layer_" + std::to_string(k) + ".npy",
          testing::npy_bytes("<f4", false, "(" + std::to_string(kRows) + ", " + std::to_string(widths[k]) + ")",
                             testing::raw_bytes(x)));
    }
  }
  std::string embeddings() const { return npy[0].path() + " " + npy[1].path() + " " + npy[2].path(); }
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.push_back("");
  return cells;
}

std::vector<std::vector<std::string>> rows_of(const std::string& out, std::string* header) {
  std::istringstream in(out);
  std::getline(in, *header);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) rows.push_back(split(line));
  return rows;
}

double number(const std::string& cell) { return cell.empty() ? NAN : std::stod(cell); }

void expect_cell(const std::string& cell, double expected, const std::string& what) {
  if (std::isnan(expected)) {
    EXPECT_EQ(cell, "") << what;
  } else {
    EXPECT_NEAR(number(cell), expected, 1e-12) << what;
  }
}

const std::vector<std::size_t> kObservations = {0, 1, 2, 3, 4, 5, 6, 7, 9, 12};

TEST(CliCompare, WritesTheLibrarysComparisonUnderTheFixedHeader) {
  const Files f;
  const CliRun r = run_cli("compare --embeddings " + f.embeddings() + " --labels " + f.labels_file.path() +
                           " --observations 0,1,2,3,4,5,6,7,9,12 --epsilon 0.2 --strength 4 --draws 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string header;
  const auto rows = rows_of(r.out, &header);
  EXPECT_EQ(header.rfind(
                "embedding,width,loo_auroc,loo_auroc_lower,loo_auroc_upper,heldout_auroc,mean_episteme,mean_alea", 0),
            0u);
  EXPECT_EQ(header, kHeader);
  ASSERT_EQ(rows.size(), 3u);

  std::vector<Representation> reps;
  for (std::size_t k = 0; k < 3; ++k)
    reps.push_back({f.npy[k].path(), MatrixView(f.layers[k].data(), kRows, f.widths[k]), {}});
  ComparisonOptions options;
  options.probe.epsilon = 0.2;
  options.probe.strength = 4;
  const ComparisonResult lib =
      compare_representations(reps, {{f.labels_file.path(), f.labels.data(), kRows, kObservations}}, options).value();
  const ConceptComparison& c = lib.concepts[0];
  for (std::size_t k = 0; k < 3; ++k) {
    const RepresentationProbe& p = c.probes[k];
    const auto& row = rows[k];
    ASSERT_EQ(row.size(), kColumns);
    EXPECT_EQ(row[0], f.npy[k].path());
    EXPECT_EQ(row[1], std::to_string(f.widths[k]));
    expect_cell(row[2], p.loo_auroc, "loo_auroc");
    expect_cell(row[3], p.loo_auroc_lower, "loo_auroc_lower");
    expect_cell(row[4], p.loo_auroc_upper, "loo_auroc_upper");
    expect_cell(row[5], p.heldout_auroc, "heldout_auroc");
    expect_cell(row[6], p.mean_episteme, "mean_episteme");
    expect_cell(row[7], p.mean_alea, "mean_alea");
    expect_cell(row[8], p.decided_fraction, "decided_fraction");
    EXPECT_EQ(row[9], "");  // no OOD set
    expect_cell(row[10], p.heldout_auroc_lower, "heldout_auroc_lower");
    expect_cell(row[11], p.heldout_auroc_upper, "heldout_auroc_upper");
    EXPECT_EQ(row[12], verdict_name(p.loo_verdict));
    EXPECT_EQ(row[13], "10");
    EXPECT_EQ(row[14], "50");
    EXPECT_EQ(row[15], "50");
    EXPECT_EQ(row[16], p.separates ? "yes" : "no");
    expect_cell(row[17], p.p_value_against_best, "p_value_against_best");
    EXPECT_EQ(row[18], p.indistinguishable_from_best ? "yes" : "no");
    EXPECT_EQ(row[19], f.labels_file.path());
    EXPECT_EQ(row[20], p.below_half ? "yes" : "no");
    EXPECT_EQ(row[21], "1");  // one set of observations: the draw_ columns are empty
    for (std::size_t col = 22; col < kColumns; ++col) EXPECT_EQ(row[col], "") << col;
  }
  // The strong layer is best, the noise does not separate the concept.
  EXPECT_EQ(rows[2][18], "yes");
  EXPECT_EQ(rows[0][16], "no");
  const nlohmann::json line = nlohmann::json::parse(r.err.substr(0, r.err.find('\n')));
  EXPECT_EQ(line["basis"], "heldout");
  EXPECT_EQ(line["basis_rows"], 50);
  EXPECT_EQ(line["best"], f.npy[2].path());
  EXPECT_EQ(line["sentence"], c.sentence);
  EXPECT_NEAR(line["episteme_threshold"].get<double>(), lib.episteme_threshold, 1e-12);

  // The leave-one-out AUROC of the strong layer is gpprobe loo's on its observations alone.
  std::string obs_text, label_text;
  for (std::size_t row : kObservations) {
    for (std::size_t j = 0; j < f.widths[2]; ++j) {
      char buffer[40];
      std::snprintf(buffer, sizeof buffer, "%.9g", double(f.layers[2][row * f.widths[2] + j]));
      obs_text += (j ? "," : "") + std::string(buffer);
    }
    obs_text += "\n";
    label_text += std::to_string(int(f.labels[row])) + "\n";
  }
  const TempFile obs("cmp_obs.csv", obs_text), obs_labels("cmp_obs_labels.txt", label_text);
  const CliRun loo =
      run_cli("loo --observations " + obs.path() + " --labels " + obs_labels.path() + " --epsilon 0.2 --strength 4");
  ASSERT_EQ(loo.exit_code, 0) << loo.err;
  EXPECT_NEAR(number(rows[2][2]), nlohmann::json::parse(loo.err)["auroc"].get<double>(), 1e-12);
}

TEST(CliCompare, PerClassDrawsTheRowsOfGpprobeDraw) {
  const Files f;
  const CliRun draw = run_cli("draw --labels " + f.labels_file.path() + " --per-class 4 --seed 3");
  ASSERT_EQ(draw.exit_code, 0) << draw.err;
  std::string rows_text;
  std::istringstream in(draw.out);
  std::string line;
  std::getline(in, line);  // header "row"
  while (std::getline(in, line)) rows_text += (rows_text.empty() ? "" : ",") + line;
  const CliRun drawn = run_cli("compare --embeddings " + f.embeddings() + " --labels " + f.labels_file.path() +
                               " --per-class 4 --seed 3 --draws 1");
  const CliRun given = run_cli("compare --embeddings " + f.embeddings() + " --labels " + f.labels_file.path() +
                               " --observations " + rows_text + " --draws 1");
  ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_EQ(drawn.out, given.out);
  std::string header;
  EXPECT_EQ(rows_of(drawn.out, &header)[0][13], "8");
}

TEST(CliCompare, ConceptsFromATableMakeTheGrid) {
  const Files f;
  std::string table = "digit\tloop\n";
  for (std::size_t i = 0; i < kRows; ++i)
    table += std::to_string(i % 4) + "\t" + std::to_string(int(f.labels[i])) + "\n";
  const TempFile metadata("cmp_meta.tsv", table);
  const CliRun r = run_cli("compare --embeddings " + f.embeddings() + " --labels " + metadata.path() +
                           " --concepts loop digit=1 --per-class 5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string header;
  const auto rows = rows_of(r.out, &header);
  ASSERT_EQ(rows.size(), 6u);
  for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(rows[k][19], k < 3 ? "loop" : "digit=1");
  // "loop" is the 0/1 labels file's concept: the same rows as comparing with that file.
  const CliRun same =
      run_cli("compare --embeddings " + f.embeddings() + " --labels " + f.labels_file.path() + " --per-class 5");
  std::string same_header;
  const auto same_rows = rows_of(same.out, &same_header);
  for (std::size_t k = 0; k < 3; ++k) {
    for (std::size_t col = 1; col < 19; ++col) EXPECT_EQ(rows[k][col], same_rows[k][col]) << col;
  }
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2);

  const CliRun missing =
      run_cli("compare --embeddings " + f.embeddings() + " --labels " + metadata.path() + " --concepts colour");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "gpprobe compare: " + metadata.path() + ": no column 'colour' (columns: digit, loop)\n");
  const CliRun not_binary =
      run_cli("compare --embeddings " + f.embeddings() + " --labels " + metadata.path() + " --concepts digit");
  EXPECT_EQ(not_binary.err,
            "gpprobe compare: " + metadata.path() +
                ": column 'digit' holds '2' on data row 3; a concept column holds 0 or 1 (or write digit=VALUE)\n");
}

TEST(CliCompare, AProjectorConfigEqualsItsTensorsAsFiles) {
  const Files f;
  std::vector<TempFile> bytes;
  bytes.reserve(3);
  nlohmann::json config = {{"embeddings", nlohmann::json::array()}};
  for (std::size_t k = 0; k < 3; ++k) {
    bytes.emplace_back("cmp_tensor_" + std::to_string(k) + ".bytes", testing::raw_bytes(f.layers[k]));
    const std::string file = bytes.back().path().substr(bytes.back().path().find_last_of('/') + 1);
    config["embeddings"].push_back(
        {{"tensorName", "layer " + std::to_string(k)}, {"tensorShape", {kRows, f.widths[k]}}, {"tensorPath", file}});
  }
  const TempFile config_file("cmp_projector_config.json", config.dump());
  const CliRun r =
      run_cli("compare --config " + config_file.path() + " --labels " + f.labels_file.path() + " --per-class 5");
  const CliRun files =
      run_cli("compare --embeddings " + f.embeddings() + " --labels " + f.labels_file.path() + " --per-class 5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string header, files_header;
  const auto rows = rows_of(r.out, &header), file_rows = rows_of(files.out, &files_header);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(rows[k][0], "layer " + std::to_string(k));
    for (std::size_t col = 1; col < 20; ++col) EXPECT_EQ(rows[k][col], file_rows[k][col]) << col;
  }
  EXPECT_NE(r.err.find("\"best\":\"layer 2\""), std::string::npos) << r.err;

  nlohmann::json short_config = config;
  short_config["embeddings"][1]["tensorShape"] = {kRows - 1, f.widths[1]};
  const TempFile bad("cmp_bad_config.json", short_config.dump());
  const CliRun refused = run_cli("compare --config " + bad.path() + " --labels " + f.labels_file.path());
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.err, "gpprobe compare: " + bad.path() + ": embeddings[1]: " + bytes[1].path() + " holds " +
                             std::to_string(kRows * 5 * 4) + " bytes; tensorShape 59 x 5 float32 needs " +
                             std::to_string(59 * 5 * 4) + "\n");
}

TEST(CliCompare, RefusesWhatDoesNotFit) {
  const Files f;
  std::vector<float> short_rows(f.layers[1].begin(), f.layers[1].end() - 5);
  const TempFile shorter("cmp_short.npy", testing::npy_bytes("<f4", false, "(59, 5)", testing::raw_bytes(short_rows)));
  const CliRun mismatch =
      run_cli("compare --embeddings " + f.npy[0].path() + " " + shorter.path() + " --labels " + f.labels_file.path());
  EXPECT_EQ(mismatch.exit_code, 1);
  EXPECT_EQ(mismatch.err, "gpprobe compare: embedding '" + shorter.path() + "' has 59 rows, embedding '" +
                              f.npy[0].path() + "' has 60 rows; every embedding must hold the same rows\n");
  const CliRun no_labels = run_cli("compare --embeddings " + f.embeddings());
  EXPECT_EQ(no_labels.err, "gpprobe compare: missing --labels\n");
  const CliRun both =
      run_cli("compare --embeddings " + f.embeddings() + " --config x.json --labels " + f.labels_file.path());
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_EQ(both.err, "gpprobe compare: --embeddings and --config exclude each other; give one\n");
  const CliRun ood = run_cli("compare --embeddings " + f.embeddings() + " --ood " + f.npy[0].path() + " --labels " +
                             f.labels_file.path());
  EXPECT_EQ(
      ood.err,
      "gpprobe compare: --ood names 1 file for 3 embeddings; give one OOD file per embedding, in the same order\n");
  const CliRun unlabelled_rows = run_cli("compare --embeddings " + f.embeddings() + " --labels " +
                                         f.labels_file.path() + " --observations 1,2,60");
  EXPECT_EQ(unlabelled_rows.err,
            "gpprobe compare: concept '" + f.labels_file.path() + "': observation row 60 is out of range (60 rows)\n");
  const CliRun help = run_cli("compare --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.out.rfind("usage: gpprobe compare --embeddings", 0), 0u);
  EXPECT_NE(help.out.find("loo_auroc,loo_auroc_lower,loo_auroc_upper,heldout_auroc,mean_episteme,mean_alea"),
            std::string::npos);
}

// Over draws: the columns after `concept` equal the library's compare_over_draws of the same files (which
// tests/core/compare/draw_comparison_test.cpp pins to the reference), for redraws and for a bootstrap.
TEST(CliCompare, DrawColumnsAreTheLibrarysComparisonOverDraws) {
  const Files f;
  std::vector<Representation> reps;
  for (std::size_t k = 0; k < 3; ++k)
    reps.push_back({f.npy[k].path(), MatrixView(f.layers[k].data(), kRows, f.widths[k]), {}});
  for (const bool bootstrap : {false, true}) {
    SCOPED_TRACE(bootstrap ? "bootstrap" : "redraw");
    const CliRun r =
        run_cli("compare --embeddings " + f.embeddings() + " --labels " + f.labels_file.path() +
                (bootstrap ? " --observations 0,1,2,3,4,5,6,7,9,12" : " --per-class 5") + " --seed 7 --draws 6");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    DrawOptions draws;
    draws.draws = 6;
    draws.seed = 7;
    draws.per_class = 5;
    draws.mode = bootstrap ? DrawMode::bootstrap : DrawMode::redraw;
    const ComparisonResult lib =
        compare_over_draws(reps, {{f.labels_file.path(), f.labels.data(), kRows, kObservations}}, {}, draws).value();
    const ConceptComparison& c = lib.concepts[0];
    std::string header;
    const auto rows = rows_of(r.out, &header);
    EXPECT_EQ(header, kHeader);
    ASSERT_EQ(rows.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      const DrawnProbe& p = c.draws.probes[k];
      const auto& row = rows[k];
      ASSERT_EQ(row.size(), kColumns);
      expect_cell(row[5], c.probes[k].heldout_auroc, "heldout_auroc (the first draw's)");
      EXPECT_EQ(row[21], "6");
      expect_cell(row[22], p.mean, "draw_mean_auroc");
      expect_cell(row[23], p.standard_deviation, "draw_sd_auroc");
      expect_cell(row[24], p.minimum, "draw_min_auroc");
      expect_cell(row[25], p.maximum, "draw_max_auroc");
      expect_cell(row[26], p.lower, "draw_auroc_lower");
      expect_cell(row[27], p.upper, "draw_auroc_upper");
      expect_cell(row[28], p.difference_from_best, "draw_difference_from_best");
      expect_cell(row[29], p.p_value_against_best, "draw_p_value_against_best");
      expect_cell(row[30], p.holm_p_value, "draw_holm_p_value");
      EXPECT_EQ(row[31], p.indistinguishable_from_best ? "yes" : "no");
      EXPECT_EQ(row[32], p.separates ? "yes" : "no");
      EXPECT_EQ(row[33], p.below_half ? "yes" : "no");
      EXPECT_EQ(row[34], std::to_string(p.highest_in_draws));
      EXPECT_EQ(row[35], std::to_string(p.claimed_in_draws));
    }
    const nlohmann::json line = nlohmann::json::parse(r.err.substr(0, r.err.find('\n')));
    EXPECT_EQ(line["sentence"], c.sentence);
    EXPECT_EQ(line["draws"]["mode"], bootstrap ? "bootstrap" : "redraw");
    EXPECT_EQ(line["draws"]["draws"], 6);
    EXPECT_EQ(line["draws"]["comparisons"], 2);
    EXPECT_EQ(line["draws"]["best"], f.npy[2].path());
  }
  // Given observations and no other labelled rows: without --draws the one set alone, saying why; with
  // --draws, refused.
  std::string only;
  for (std::size_t i = 0; i < kRows; ++i)
    only += (i < 12 ? std::to_string(int(f.labels[i])) : std::string("")) + "," + std::to_string(i) + "\n";
  const TempFile only_file("cmp_only_labels.csv", "y,row\n" + only);
  const CliRun alone = run_cli("compare --embeddings " + f.embeddings() + " --labels " + only_file.path() +
                               " --concepts y --observations 0,1,2,3,4,5,6,7,9");
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  const nlohmann::json line = nlohmann::json::parse(alone.err.substr(0, alone.err.find('\n')));
  EXPECT_EQ(line["draws"]["draws"], 1);
  EXPECT_EQ(line["draws"]["skipped"],
            "concept 'y' has fewer than 2 labelled rows of each class besides the given observations to measure "
            "resampled draws on");
  const CliRun refused = run_cli("compare --embeddings " + f.embeddings() + " --labels " + only_file.path() +
                                 " --concepts y --observations 0,1,2,3,4,5,6,7,9 --draws 20");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("resampling the given observations needs at least 2 other labelled rows of each class"),
            std::string::npos)
      << refused.err;
  for (const std::string bad : {"0", "10001", "x"}) {
    const CliRun r =
        run_cli("compare --embeddings " + f.embeddings() + " --labels " + f.labels_file.path() + " --draws " + bad);
    EXPECT_NE(r.exit_code, 0) << bad;
    EXPECT_NE(r.err.find("--draws"), std::string::npos) << r.err;
  }
  const CliRun help = run_cli("compare --help");
  EXPECT_NE(help.out.find("  --draws          R, how many draws of the observations"), std::string::npos);
}

// The digits layers bundled with the app (web/public/demo/digits_layers: 1,797 rows, pixels, two hidden
// layers and the logits). One set of 16 observations per class lets DeLong's test call a different layer
// "best at 99 %" from seed to seed; over 20 draws no two seeds claim different layers best.
struct Claims {
  std::vector<std::string> single, drawn;  // per concept: the layer claimed best ("" for none)
  std::vector<std::size_t> claimed_in;     // per concept: draws whose own DeLong test claimed some layer
  std::vector<std::string> sentence;
};

std::string digits_dir() { return std::string(GPPROBE_SOURCE_DIR) + "/web/public/demo/digits_layers/"; }

// The one layer whose indistinguishable column (col) is the only "yes" of its concept, or "".
std::string claimed(const std::vector<std::vector<std::string>>& rows, std::size_t first, std::size_t col) {
  std::string name;
  std::size_t yes = 0;
  for (std::size_t k = first; k < first + 4; ++k) {
    if (rows[k][col] == "yes") {
      ++yes;
      name = rows[k][0].substr(rows[k][0].find_last_of('/') + 1);
    }
  }
  return yes == 1 ? name : "";
}

Claims digits_claims(std::size_t seed) {
  const std::string d = digits_dir();
  const CliRun r = run_cli("compare --embeddings " + d + "layer_0_pixels.npy " + d + "layer_1_hidden.npy " + d +
                           "layer_2_hidden.npy " + d + "layer_3_logits.npy --labels " + d +
                           "metadata.csv --concepts ge5 even closed_loop digit=3 --per-class 16 --seed " +
                           std::to_string(seed) + " --draws 20");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string header;
  const auto rows = rows_of(r.out, &header);
  Claims c;
  if (rows.size() != 16) {
    ADD_FAILURE() << r.out;
    return c;
  }
  for (std::size_t concept = 0; concept < 4; ++concept) {
    c.single.push_back(claimed(rows, 4 * concept, 18));
    c.drawn.push_back(claimed(rows, 4 * concept, 31));
    std::size_t in = 0;
    for (std::size_t k = 4 * concept; k < 4 * concept + 4; ++k) in += std::stoul(rows[k][35]);
    c.claimed_in.push_back(in);
  }
  std::istringstream err(r.err);
  for (std::string line; std::getline(err, line);) c.sentence.push_back(nlohmann::json::parse(line)["sentence"]);
  return c;
}

TEST(CliCompare, OnTheDigitsLayersSeedsNeverClaimDifferentLayersBestOverDraws) {
  std::vector<std::set<std::string>> single(4), drawn(4);
  std::vector<Claims> all;
  for (std::size_t seed = 0; seed < 10; ++seed) {
    all.push_back(digits_claims(seed));
    const Claims& c = all.back();
    if (c.drawn.size() != 4) return;
    for (std::size_t concept = 0; concept < 4; ++concept) {
      if (!c.single[concept].empty()) single[concept].insert(c.single[concept]);
      if (!c.drawn[concept].empty()) drawn[concept].insert(c.drawn[concept]);
      // Every over-draws sentence says what it is conditional on.
      EXPECT_NE(c.sentence[concept].find("Conditional on these 1,797 labelled rows: each draw takes 32 observations"),
                std::string::npos)
          << c.sentence[concept];
    }
  }
  for (std::size_t concept = 0; concept < 4; ++concept) {
    SCOPED_TRACE(concept);
    EXPECT_LE(drawn[concept].size(), 1u);  // never two different layers claimed best
  }
  // Not vacuous: one set of observations did claim different layers best (ge5: layers 1 and 2 on
  // different seeds; digit=3: layers 2 and 3), and the draws still claim a best where the evidence is
  // strong (even: layer 2, on every seed).
  EXPECT_GE(single[0].size(), 2u);
  EXPECT_GE(single[3].size(), 2u);
  EXPECT_EQ(drawn[1], (std::set<std::string>{"layer_2_hidden.npy"}));
  for (const Claims& c : all) EXPECT_EQ(c.drawn[1], "layer_2_hidden.npy");
}

// Seed 0, ge5: the first draw's DeLong test puts layer 1 above every other at 99 %; within the same run
// other draws' DeLong tests put other layers there (and seed 3's first draw puts layer 2 there, p < 0.01
// against layer 1). Over the draws, layer 1 is not claimed best.
TEST(CliCompare, OneDrawsWinnerThatOtherDrawsRefuteIsNotClaimedOverDraws) {
  const Claims zero = digits_claims(0), three = digits_claims(3);
  ASSERT_EQ(zero.single.size(), 4u);
  ASSERT_EQ(three.single.size(), 4u);
  EXPECT_EQ(zero.single[0], "layer_1_hidden.npy");
  EXPECT_EQ(three.single[0], "layer_2_hidden.npy");
  EXPECT_EQ(zero.drawn[0], "");
  EXPECT_EQ(zero.sentence[0].find("holds the concept best"), std::string::npos) << zero.sentence[0];
  EXPECT_NE(zero.sentence[0].find("are indistinguishable at 99 % (a t-test across the 20 draws"), std::string::npos)
      << zero.sentence[0];
  EXPECT_GE(zero.claimed_in[0], 2u);  // the draws' own DeLong tests claimed some layer best in several draws
}

}  // namespace
}  // namespace gpprobe
