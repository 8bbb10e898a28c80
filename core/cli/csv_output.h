// Where a subcommand's CSV goes (stdout or --out FILE) and how numbers are written: 17 significant
// digits, so a float64 survives the round trip through text exactly.
#pragma once

#include <cstddef>
#include <fstream>
#include <ostream>
#include <string>

#include "gpprobe/common/status.h"

namespace gpprobe::cli {

// "%.17g" of v. Every number a command reports goes through here (or format_bound): a NaN or an
// infinity formatted is counted, and a command that formatted one does not end in success (exit_code,
// commands.h): nothing non-finite is reported as a result.
std::string format_number(double v);

// The same for a bound that is infinite by definition (a certificate's episteme_upper when the variance
// may reach 0): +-inf is written as inf / -inf and not counted; NaN still is.
std::string format_bound(double v);

// How many numbers format_number / format_bound have written that they count (NaN; inf outside a bound).
std::size_t non_finite_numbers();

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
