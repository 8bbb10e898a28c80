#include "csv_output.h"

#include <cstdio>

namespace gpprobe::cli {

std::string format_number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

CsvOutput::CsvOutput(const std::string& path, std::ostream& fallback) : path_(path), fallback_(fallback) {
  if (!path.empty()) file_.open(path, std::ios::binary | std::ios::trunc);
}

Status CsvOutput::status() const {
  if (path_.empty() || file_.is_open()) return Status::success();
  return Status(StatusCode::io_error, path_ + ": cannot create the output file");
}

Status CsvOutput::finish() {
  std::ostream& os = stream();
  os.flush();
  if (!os) return Status(StatusCode::io_error, (path_.empty() ? std::string("stdout") : path_) + ": write failed");
  return Status::success();
}

}  // namespace gpprobe::cli
