// The `gpprobe probe` command end to end: files in, CSV out, and one stderr line per bad input.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "gpprobe/evaluation/synthetic_embeddings.h"

#include "cli_runner.h"
#include "csv_output.h"
#include "test_support.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::csv_of;
using testing::parse_output;
using testing::run_cli;
using testing::TempFile;

const char* kHeader = "query,judged_probability,episteme,alea,latent_mean,latent_variance,knowledge,ood_score";

TEST(CliProbe, CsvAndNpyInputsReproduceTheGoldenCase) {
  const auto cases = testing::golden_cases();
  const testing::GoldenCase& g = cases[5];  // random O=12 d=5
  ASSERT_EQ(g.name, "random O=12 d=5");
  // CSV with a header row, labels as text; then the same arrays as float64 .npy.
  const TempFile obs_csv("obs.csv", "a,b,c,d,e\n" + csv_of(g.observations));
  const TempFile queries_tsv("queries.tsv", [&] {
    std::string s = csv_of(g.queries);
    for (char& c : s) c = c == ',' ? '\t' : c;
    return s;
  }());
  std::string labels_text;
  for (auto y : g.labels) labels_text += std::to_string(int(y)) + "\n";
  const TempFile labels_txt("labels.txt", labels_text);
  std::vector<double> obs(g.observations.data(), g.observations.data() + g.observations.size());
  std::vector<double> qs(g.queries.data(), g.queries.data() + g.queries.size());
  const TempFile obs_npy("obs.npy", testing::npy_bytes("<f8", false, "(12, 5)", testing::raw_bytes(obs)));
  const TempFile q_npy("q.npy", testing::npy_bytes("<f8", false, "(8, 5)", testing::raw_bytes(qs)));
  std::vector<std::int64_t> labels64(g.labels.begin(), g.labels.end());
  const TempFile labels_npy("labels.npy", testing::npy_bytes("<i8", false, "(12,)", testing::raw_bytes(labels64)));

  for (const std::string& args :
       {"--observations " + obs_csv.path() + " --labels " + labels_txt.path() + " --queries " + queries_tsv.path(),
        "--observations " + obs_npy.path() + " --labels " + labels_npy.path() + " --queries " + q_npy.path()}) {
    const CliRun r = run_cli("probe " + args + " --epsilon 0.1 --strength 5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    std::string header;
    const auto rows = parse_output(r.out, &header);
    EXPECT_EQ(header, kHeader);
    ASSERT_EQ(rows.size(), 8u);
    for (std::size_t q = 0; q < 8; ++q) {
      EXPECT_EQ(rows[q][0], double(q));
      EXPECT_NEAR(rows[q][1], g.judged[q], 1e-8);
      EXPECT_NEAR(rows[q][2], g.episteme[q], 1e-8);
      EXPECT_NEAR(rows[q][3], g.alea[q], 1e-8);
      EXPECT_NEAR(rows[q][4], g.mean[q], 1e-8);
      EXPECT_NEAR(rows[q][5], g.variance[q], 1e-8);
      EXPECT_NEAR(rows[q][7], -g.variance[q], 1e-8);
    }
  }
}

TEST(CliProbe, WritesSeventeenSignificantDigitsToOut) {
  const TempFile obs("o.csv", "1,0\n0,1\n"), labels("l.csv", "1\n0\n"), queries("q.csv", "0.5,0.25\n");
  const TempFile out("result.csv");
  const CliRun r = run_cli("probe --observations " + obs.path() + " --labels " + labels.path() + " --queries " +
                           queries.path() + " --out " + out.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  std::ifstream in(out.path());
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(header, kHeader);
  // The judged probability is printed with all its digits (not the 6 of a default stream).
  const std::string judged = row.substr(2, row.find(',', 2) - 2);
  EXPECT_GE(judged.size(), 17u) << judged;
}

TEST(CliProbe, NumbersRoundTripWithSeventeenDigits) {
  EXPECT_EQ(cli::format_number(0.1), "0.10000000000000001");
  EXPECT_EQ(cli::format_number(1.0 / 3.0), "0.33333333333333331");
  EXPECT_EQ(cli::format_number(-4.795790545596741), "-4.7957905455967413");
  EXPECT_EQ(cli::format_number(2.2250738585072014e-308), "2.2250738585072014e-308");
  EXPECT_EQ(cli::format_number(0.5), "0.5");
}

struct BadCase {
  std::string name;
  std::string args;  // placeholders replaced below
  std::string expected_stderr;
};

TEST(CliProbe, EachBadInputGivesOneLineNamingTheFileAndTheProblem) {
  const TempFile good_obs("good_obs.csv", "1,0\n0,1\n1,1\n");
  const TempFile good_labels("good_labels.txt", "1\n0\n1\n");
  const TempFile good_q("good_q.csv", "0.5,0.5\n");
  const TempFile ragged("ragged.csv", "1,0\n0,1,2\n1,1\n");
  const TempFile text_cell("text_cell.csv", "1,0\n0,abc\n1,1\n");
  const TempFile nan_cell("nan_cell.csv", "1,0\n0,nan\n1,1\n");
  const TempFile wide_q("wide_q.csv", "0.5,0.5,1\n");
  const TempFile short_labels("short_labels.txt", "1\n0\n");
  const TempFile bad_label("bad_label.txt", "1\n0.5\n1\n");
  const TempFile empty("empty.csv", "");
  const TempFile header_only("header_only.csv", "a,b\n");
  const std::vector<float> six(6, 1.0f);
  const TempFile int_npy("int.npy", testing::npy_bytes("<i2", false, "(3, 2)", std::string(12, '\0')));
  const TempFile fortran_npy("fortran.npy", testing::npy_bytes("<f4", true, "(3, 2)", testing::raw_bytes(six)));
  const TempFile cube_npy("cube.npy", testing::npy_bytes("<f4", false, "(3, 1, 2)", testing::raw_bytes(six)));
  const TempFile short_npy("short.npy", testing::npy_bytes("<f4", false, "(3, 4)", testing::raw_bytes(six)));
  const TempFile not_npy("fake.npy", "hello");
  const TempFile image("picture.png", "\x89PNG\r\n");
  const std::string obs = " --observations ", lab = " --labels ", q = " --queries ";
  const std::string good = obs + good_obs.path() + lab + good_labels.path() + q + good_q.path();
  const std::vector<BadCase> cases = {
      {"missing file", obs + "/nonexistent/x.csv" + lab + good_labels.path() + q + good_q.path(),
       "/nonexistent/x.csv: cannot open file"},
      {"ragged rows", obs + ragged.path() + lab + good_labels.path() + q + good_q.path(),
       ragged.path() + ": line 2 has 3 columns, line 1 has 2"},
      {"non-numeric cell", obs + text_cell.path() + lab + good_labels.path() + q + good_q.path(),
       text_cell.path() + ": line 2, column 2: 'abc' is not a number"},
      {"NaN cell", obs + nan_cell.path() + lab + good_labels.path() + q + good_q.path(),
       nan_cell.path() + ": line 2, column 2 is NaN"},
      {"column mismatch", obs + good_obs.path() + lab + good_labels.path() + q + wide_q.path(),
       wide_q.path() + ": queries have 3 columns, observations have 2 columns"},
      {"label count", obs + good_obs.path() + lab + short_labels.path() + q + good_q.path(),
       short_labels.path() + ": 2 labels for 3 observation rows in " + good_obs.path()},
      {"label not 0/1", obs + good_obs.path() + lab + bad_label.path() + q + good_q.path(),
       bad_label.path() + ": label on data line 2 is 0.5; labels must be 0 or 1"},
      {"empty file", obs + empty.path() + lab + good_labels.path() + q + good_q.path(),
       empty.path() + ": file is empty"},
      {"empty query set", obs + good_obs.path() + lab + good_labels.path() + q + header_only.path(),
       header_only.path() + ": no data rows"},
      {"npy dtype", obs + int_npy.path() + lab + good_labels.path() + q + good_q.path(),
       int_npy.path() + ": unsupported dtype '<i2' (expected float32 or float64)"},
      {"npy fortran", obs + fortran_npy.path() + lab + good_labels.path() + q + good_q.path(),
       fortran_npy.path() + ": Fortran-ordered arrays are not supported (save with C order)"},
      {"npy 3-D", obs + cube_npy.path() + lab + good_labels.path() + q + good_q.path(),
       cube_npy.path() + ": expected a 2-D array, got shape (3, 1, 2)"},
      {"npy truncated", obs + short_npy.path() + lab + good_labels.path() + q + good_q.path(),
       short_npy.path() + ": truncated: the header promises 48 bytes of data, the file holds 24"},
      {"not an npy", obs + not_npy.path() + lab + good_labels.path() + q + good_q.path(),
       not_npy.path() + ": not a .npy file (missing the \\x93NUMPY magic)"},
      {"wrong file type", obs + image.path() + lab + good_labels.path() + q + good_q.path(),
       image.path() + ": unsupported file type '.png' (expected .npy, .csv, .tsv or .txt)"},
      {"epsilon", good + " --epsilon 0", "epsilon must be a finite number > 0, got 0"},
      {"strength", good + " --strength -1", "strength must be a finite number > 0, got -1"},
      {"epsilon text", good + " --epsilon abc", "--epsilon expects a finite number, got 'abc'"},
      {"missing flag", obs + good_obs.path() + q + good_q.path(), "missing --labels"},
      {"unknown flag", good + " --colour red", "unknown option --colour"},
  };
  for (const BadCase& c : cases) {
    const CliRun r = run_cli("probe" + c.args);
    EXPECT_NE(r.exit_code, 0) << c.name;
    EXPECT_EQ(r.out, "") << c.name;
    EXPECT_EQ(r.err, "gpprobe probe: " + c.expected_stderr + "\n") << c.name;
  }
}

TEST(CliProbe, UnknownCommandAndHelp) {
  EXPECT_EQ(run_cli("frobnicate").exit_code, 2);
  const CliRun help = run_cli("help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("probe   --observations FILE --labels FILE --queries FILE"), std::string::npos);
}

TEST(CliProbe, ThreadsFlagGivesTheSameBytesOnAnyCount) {
  // 1,300 queries (five blocks of 256 and a ragged 20): the CSV on 3 threads is the CSV on 1, byte for byte.
  const SyntheticEmbeddings obs = synthetic_embeddings(30, 9, 1), queries = synthetic_embeddings(1300, 9, 2);
  std::string labels;
  for (auto y : obs.labels) labels += std::to_string(int(y)) + "\n";
  const TempFile obs_csv("threads_obs.csv", csv_of(obs.x)), q_csv("threads_q.csv", csv_of(queries.x));
  const TempFile labels_txt("threads_labels.txt", labels);
  const std::string args =
      "probe --observations " + obs_csv.path() + " --labels " + labels_txt.path() + " --queries " + q_csv.path();
  const CliRun one = run_cli(args + " --threads 1"), three = run_cli(args + " --threads 3");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(three.exit_code, 0) << three.err;
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 1301);
  EXPECT_EQ(three.out, one.out);
  for (const char* bad : {"0", "x", "-2"}) {
    const CliRun r = run_cli(args + " --threads " + bad);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_EQ(r.err, "gpprobe probe: --threads expects a positive integer\n") << bad;
  }
}

}  // namespace
}  // namespace gpprobe
