// Delimited text matrices (.csv, .tsv, .txt): the first byte picks the delimiter as the extension
// would (auto-detected, comma, tab), the rest is the file. A parsed table must hold rows * cols finite
// values (the over-read of issue 9 broke exactly this).
#include "fuzz_support.h"
#include "readers/delimited_reader.h"
#include "readers/loaded_matrix.h"

using namespace gpprobe;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input in(data, size);
  const char delimiters[] = {0, ',', '\t'};
  const char delimiter = delimiters[in.byte() % 3];
  Result<cli::DelimitedTable> table = cli::parse_delimited(in.rest(), "fuzz.txt", delimiter);
  if (!table.ok()) return 0;
  const cli::DelimitedTable& t = table.value();
  fuzz::require(t.rows > 0 && t.cols > 0, "a table has rows and columns", double(t.rows));
  fuzz::require(t.values.size() == t.rows * t.cols, "values.size() == rows * cols", double(t.values.size()));
  fuzz::require(t.header.empty() || t.header.size() == t.cols, "the header has one name per column");
  const cli::LoadedMatrix m = cli::matrix_from_table(t);
  const MatrixView view = m.view();
  for (std::size_t i = 0; i < view.rows(); ++i)
    for (std::size_t j = 0; j < view.cols(); ++j) fuzz::require(std::isfinite(view.at(i, j)), "values finite");
  return 0;
}
