#include "csv_output.h"

#include <atomic>
#include <cmath>
#include <cstdio>

#include "gpprobe/common/number_text.h"

namespace gpprobe::cli {

namespace {

std::atomic<std::size_t> non_finite_count{0};

}  // namespace

std::string format_number(double v) {
  if (!std::isfinite(v)) ++non_finite_count;
  return number_text(v);
}

std::string format_bound(double v) {
  if (std::isnan(v)) ++non_finite_count;
  return number_text(v);
}

std::size_t non_finite_numbers() { return non_finite_count.load(); }

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
