// Where a subcommand's CSV goes (stdout or --out FILE) and how numbers are written: 17 significant
// digits, so a float64 survives the round trip through text exactly.
#pragma once

#include <fstream>
#include <ostream>
#include <string>

#include "gpprobe/common/status.h"

namespace gpprobe::cli {

// "%.17g" of v.
std::string format_number(double v);

class CsvOutput {
 public:
  // An empty path writes to `fallback` (stdout); otherwise the file is created or truncated.
  CsvOutput(const std::string& path, std::ostream& fallback);
  // io_error naming the path when the file could not be created.
  gpprobe::Status status() const;
  std::ostream& stream() { return path_.empty() ? fallback_ : file_; }
  // Flushes; io_error "<path or stdout>: write failed" when anything could not be written.
  gpprobe::Status finish();

 private:
  std::string path_;
  std::ofstream file_;
  std::ostream& fallback_;
};

}  // namespace gpprobe::cli
