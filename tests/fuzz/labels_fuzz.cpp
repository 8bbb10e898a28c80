// Label files as text (one 0/1 per line, optional header): any bytes; parsed labels are 0 or 1, one per
// data line.
#include "fuzz_support.h"
#include "readers/delimited_reader.h"
#include "readers/loaded_matrix.h"

using namespace gpprobe;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Result<cli::DelimitedTable> table = cli::parse_delimited(text, "labels.txt", 0);
  if (!table.ok()) return 0;
  Result<std::vector<std::uint8_t>> labels = cli::labels_from_table(table.value(), "labels.txt");
  if (!labels.ok()) return 0;
  fuzz::require(labels.value().size() == table.value().rows, "one label per data line", double(labels.value().size()));
  for (std::uint8_t y : labels.value()) fuzz::require(y <= 1, "labels are 0 or 1", y);
  return 0;
}
