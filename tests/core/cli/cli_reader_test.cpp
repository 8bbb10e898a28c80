// Hostile files for the native readers (issue 9, items 1-3): each reproducer of the reliability run, end
// to end through the CLI and directly through the parsers, with the exact message a user reads.
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/probe/probe_file.h"

#include "cli_runner.h"
#include "readers/delimited_reader.h"
#include "readers/loaded_matrix.h"
#include "readers/npy_reader.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::npy_bytes;
using testing::run_cli;
using testing::TempFile;

std::vector<unsigned char> bytes_of(const std::string& s) { return std::vector<unsigned char>(s.begin(), s.end()); }

// A string literal with its NUL bytes.
template <std::size_t N>
std::string raw(const char (&s)[N]) {
  return std::string(s, N - 1);
}

// A version-1 .npy with `dict` as its header text, verbatim.
std::string npy_with_header(std::string dict, const std::string& data) {
  while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  return raw("\x93NUMPY\x01\x00") + char(dict.size() & 0xff) + char(dict.size() >> 8) + dict + data;
}

std::string repeated(const std::string& s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

TEST(CliReaders, FormFeedAndVerticalTabLinesAreBlankLines) {
  // "a b\n\f\n1 2\n" used to be two data rows, the first with no values: rows * cols = 4 > 2 values
  // stored, and the probe read past the buffer. It is one row, like the file without the \f line.
  for (const char* blank : {"\f", "\v", " \f\v\t "}) {
    Result<cli::DelimitedTable> t = cli::parse_delimited(std::string("a b\n") + blank + "\n1 2\n", "obs.txt", 0);
    ASSERT_TRUE(t.ok()) << t.status().message();
    EXPECT_EQ(t.value().rows, 1u);
    EXPECT_EQ(t.value().cols, 2u);
    EXPECT_EQ(t.value().values, (std::vector<double>{1, 2}));
    EXPECT_EQ(t.value().header, (std::vector<std::string>{"a", "b"}));
  }
  // The command: 1 observation row, 2 labels.
  const TempFile obs("ff_obs.txt", "a b\n\f\n1 2\n"), labels("ff_labels.txt", "0\n1\n"), q("ff_q.csv", "1,2\n");
  const CliRun r =
      run_cli("probe --observations " + obs.path() + " --labels " + labels.path() + " --queries " + q.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "gpprobe probe: " + labels.path() + ": 2 labels for 1 observation rows in " + obs.path() + "\n");
}

TEST(CliReaders, LabelFileWithAVerticalTabLine) {
  // "label\n\v\n1\n" used to be labels {?, 1} with the first read past the values: it is the label 1.
  const TempFile labels("vt_labels.txt", "label\n\v\n1\n");
  Result<std::vector<std::uint8_t>> read = cli::read_labels(labels.path());
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read.value(), (std::vector<std::uint8_t>{1}));
}

TEST(CliReaders, FourHundredThousandFormFeedLinesScoreLikeTheCleanFile) {
  // 400,000 \f lines used to segfault the probe; now they are skipped and the scores are those of the
  // same file without them.
  const TempFile clean("clean_obs.txt", "a b\n1 2\n-1 0.5\n"), labels("clean_labels.txt", "1\n0\n");
  const TempFile noisy("noisy_obs.txt",
                       "a b\n" + repeated("\f\n", 200000) + "1 2\n" + repeated("\v\n", 200000) + "-1 0.5\n");
  const TempFile q("noisy_q.csv", "1,2\n0,0\n-3,1\n");
  const std::string rest = " --labels " + labels.path() + " --queries " + q.path();
  const CliRun expected = run_cli("probe --observations " + clean.path() + rest);
  const CliRun got = run_cli("probe --observations " + noisy.path() + rest);
  ASSERT_EQ(expected.exit_code, 0) << expected.err;
  ASSERT_EQ(got.exit_code, 0) << got.err;
  EXPECT_EQ(got.out, expected.out);
  EXPECT_EQ(std::count(got.out.begin(), got.out.end(), '\n'), 4);  // header + 3 queries
}

TEST(CliReaders, NpyShapeProductsThatOverflowAreParseErrors) {
  // (4, 2^62 + 1) float32 needs 2^64 + 16 bytes, which wrapped around to the 16 bytes this 144-byte file
  // holds; `baseline --method svm` then segfaulted.
  const TempFile wrap("wrap.npy", npy_bytes("<f4", false, "(4, 4611686018427387905)", std::string(16, '\0')));
  std::ifstream in(wrap.path(), std::ios::binary | std::ios::ate);
  ASSERT_EQ(in.tellg(), 144);
  const TempFile labels("wrap_labels.txt", "0\n1\n1\n0\n"), q("wrap_q.csv", "1,2\n");
  const std::string message = wrap.path() +
                              ": the .npy header's shape (4, 4611686018427387905) of 4-byte items "
                              "needs more than 2^64 bytes; the file holds 16";
  for (const std::string command : {"baseline --method svm", "baseline --method knn", "probe"}) {
    const CliRun r =
        run_cli(command + " --observations " + wrap.path() + " --labels " + labels.path() + " --queries " + q.path());
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_EQ(r.err, "gpprobe " + command.substr(0, command.find(' ')) + ": " + message + "\n") << command;
  }
  // As labels, and as a shape that does not overflow but promises far more than the file holds.
  EXPECT_EQ(cli::read_labels(wrap.path()).status().message(), message);
  const TempFile huge("huge.npy", npy_bytes("<f8", false, "(1000000, 1000000)", std::string(16, '\0')));
  EXPECT_EQ(cli::read_matrix(huge.path()).status().message(),
            huge.path() + ": truncated: the header promises 8000000000000 bytes of data, the file holds 16");
}

TEST(CliReaders, NpyHeadersNeverEndInABareExceptionName) {
  // A shape entry of 24 digits and a dtype of 20 digits used to print `gpprobe probe: stoull` / `stoul`.
  const std::string data(16, '\0');
  const std::vector<std::pair<std::string, std::string>> cases = {
      {npy_bytes("<f4", false, "(123456789012345678901234, 2)", data),
       "the .npy header's shape (123456789012345678901234, 2) has an entry larger than 2^64 - 1"},
      {npy_bytes("<f99999999999999999999", false, "(2, 2)", data), "unsupported dtype '<f99999999999999999999'"},
      {npy_bytes("<f4", false, "(1.5, 2)", data),
       "the .npy header's shape (1.5, 2) is not a tuple of non-negative integers"},
      {npy_bytes("<f4", false, "(-1, 3)", data),
       "the .npy header's shape (-1, 3) is not a tuple of non-negative integers"},
      {npy_bytes("<f4", false, "('', 4)", data),
       "the .npy header's shape ('', 4) is not a tuple of non-negative integers"},
      {npy_bytes("<f4", false, "(True, 4)", data),
       "the .npy header's shape (True, 4) is not a tuple of non-negative integers"},
      {npy_with_header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", data),
       "unsupported dtype [('a', '<f4')] (structured arrays are not supported)"},
      {npy_with_header("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }", data),
       "the .npy header's fortran_order 0 is not True or False"},
      {npy_with_header("{'descr': '<f4', 'shape': (2,), }", data), "the .npy header has no 'fortran_order'"},
      {npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x", data),
       "the .npy header has text after its dict"},
      {raw("\x93NUMPY\x02\x00\xff\xff\xff\x7f{}"),
       "the .npy header claims 2147483647 bytes; at most 65536 are supported"},
      {raw("\x93NUMPY\x01\x00\x10\x00{'descr': '<f4'"), "truncated .npy header"},
      {raw("\x93NUMPY\x04\x00\x10\x00"), "unsupported .npy version 4"},
  };
  for (const auto& [bytes, message] : cases) {
    EXPECT_EQ(cli::parse_npy(bytes_of(bytes), "x.npy").status().message(), "x.npy: " + message) << message;
  }
  // End to end, the first of them as the issue ran it.
  const TempFile digits("digits.npy", cases[0].first), labels("digits_labels.txt", "0\n1\n"),
      q("digits_q.csv", "1,2\n");
  const CliRun r =
      run_cli("probe --observations " + digits.path() + " --labels " + labels.path() + " --queries " + q.path());
  EXPECT_EQ(r.err, "gpprobe probe: " + digits.path() + ": " + cases[0].second + "\n");
}

TEST(CliReaders, NpyHeaderParserReadsWhatNumpyWrites) {
  // Header spellings numpy produces: 1-D "(3,)", 0-D "()", version 2, double-quoted keys, keys in any order.
  const std::vector<double> three = {1.5, -2, 4};
  const std::string data = testing::raw_bytes(three);
  Result<cli::NpyArray> a = cli::parse_npy(bytes_of(npy_bytes("<f8", false, "(3,)", data)), "a.npy");
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a.value().shape, (std::vector<std::size_t>{3}));
  EXPECT_EQ(a.value().value(2), 4.0);
  std::string header = "{\"shape\": (1, 3), \"fortran_order\": False, \"descr\": \"<f8\"}";
  header += std::string(64 - (12 + header.size() + 1) % 64, ' ') + "\n";
  std::string v2 = raw("\x93NUMPY\x02\x00");
  for (int k = 0; k < 4; ++k) v2 += char((header.size() >> (8 * k)) & 0xff);
  Result<cli::NpyArray> b = cli::parse_npy(bytes_of(v2 + header + data), "b.npy");
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b.value().shape, (std::vector<std::size_t>{1, 3}));
  EXPECT_EQ(b.value().value(0), 1.5);
  Result<cli::NpyArray> scalar = cli::parse_npy(bytes_of(npy_bytes("<f8", false, "()", data.substr(0, 8))), "s.npy");
  ASSERT_TRUE(scalar.ok()) << scalar.status().message();
  EXPECT_EQ(scalar.value().size(), 1u);
  // Zero-size arrays hold no data, whatever their other dimensions.
  Result<cli::NpyArray> empty =
      cli::parse_npy(bytes_of(npy_bytes("<f4", false, "(0, 4611686018427387905)", "")), "e.npy");
  ASSERT_TRUE(empty.ok()) << empty.status().message();
  EXPECT_EQ(empty.value().size(), 0u);
}

TEST(CliReaders, RowsOfZeroColumnsAreRefused) {
  // Found by fuzzing: shape (2^64 - 1, 0) is a valid empty array, but as a matrix every loop over its
  // rows ran 2^64 times (a hang, not a crash).
  const TempFile rows_of_nothing("nothing.npy", npy_bytes("<f4", false, "(18446744073709551615, 0)", ""));
  EXPECT_EQ(cli::read_matrix(rows_of_nothing.path()).status().message(),
            rows_of_nothing.path() + ": the array has 18446744073709551615 rows of 0 columns");
  const TempFile no_rows("no_rows.npy", npy_bytes("<f8", false, "(0, 3)", ""));
  Result<LoadedMatrix> empty = cli::read_matrix(no_rows.path());
  ASSERT_TRUE(empty.ok()) << empty.status().message();
  EXPECT_EQ(empty.value().rows, 0u);
  EXPECT_EQ(empty.value().cols, 3u);
}

TEST(CliReaders, ProbeFilesWithHostileShapesAndNesting) {
  // The probe file reader (gpprobe probe --probe) had the .npy reader's faults: a rows x cols product
  // that wraps around, and a message that dump()ed whatever the file held (200,000 nested lists as a
  // label recursed off the stack: a segfault).
  const std::string head = "{\"format\": \"gpprobe-probe\", \"version\": 1, \"epsilon\": 0.1, \"strength\": 5, ";
  const std::string one_row =
      "\"observations\": {\"rows\": 1, \"cols\": 1, \"dtype\": \"float64\", \"data\": \"AAAAAAAA8D8=\"}, ";
  EXPECT_EQ(parse_probe_file(head + one_row + "\"labels\": [" + repeated("[", 200000) + repeated("]", 200000) + "]}",
                             "p.json")
                .status()
                .message(),
            "p.json: label 0 is a list of 1 values; labels must be 0 or 1");
  EXPECT_EQ(parse_probe_file(head + one_row + "\"labels\": [\"" + std::string(1000, 'x') + "\"]}", "p.json")
                .status()
                .message(),
            "p.json: label 0 is \"" + std::string(39, 'x') + "...; labels must be 0 or 1");
  // 2^40 rows by 2^20 columns: 2^62 bytes, past 2^53 - 1 (the largest count the library's reader holds too;
  // a count itself past it, 2^62 + 1, is refused as a count: tests/reference/probe_file/invalid/).
  EXPECT_EQ(parse_probe_file(head + "\"observations\": {\"rows\": 1099511627776, \"cols\": 1048576, \"dtype\": "
                                    "\"float32\", \"data\": \"AAAAAAAAAAAAAAAAAAAAAA==\"}, \"labels\": [1]}",
                             "p.json")
                .status()
                .message(),
            "p.json: observations of 1099511627776 x 1048576 float32 values cannot be stored (16 bytes of data)");
  Result<ProbeFile> fine = parse_probe_file(head + one_row + "\"labels\": [1]}", "p.json");
  ASSERT_TRUE(fine.ok()) << fine.status().message();
  EXPECT_EQ(fine.value().observations.float64, (std::vector<double>{1.0}));
}

}  // namespace
}  // namespace gpprobe
