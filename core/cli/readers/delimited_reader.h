// Reader for numeric delimited text (.csv, .tsv, .txt): one row per line, the delimiter from the
// extension (.tsv tab, .csv comma) or, for other files, from the first line (tab, comma, or spaces).
// The first line is a header when none of its cells is a number. Blank lines are skipped.
// Errors name the file and the 1-based line and column: "x.csv: line 4, column 2: 'abc' is not a number".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpprobe/common/status.h"

namespace gpprobe::cli {

struct DelimitedTable {
  std::vector<std::string> header;  // empty when the file has none
  std::vector<double> values;       // rows by cols, row-major
  std::size_t rows = 0;
  std::size_t cols = 0;
};

gpprobe::Result<DelimitedTable> read_delimited(const std::string& path);

// "csv" for "data/X.CSV"; "" when the file name has no extension.
std::string lower_extension(const std::string& path);

// The same, from text already in memory (`name` stands for the file in messages).
gpprobe::Result<DelimitedTable> parse_delimited(const std::string& text, const std::string& name, char delimiter);

}  // namespace gpprobe::cli
