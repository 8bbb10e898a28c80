#include "gpprobe/status.h"

namespace gpprobe {

const char* code_name(StatusCode code) {
  switch (code) {
    case StatusCode::ok: return "ok";
    case StatusCode::invalid_argument: return "invalid_argument";
    case StatusCode::dimension_mismatch: return "dimension_mismatch";
    case StatusCode::non_finite: return "non_finite";
    case StatusCode::numerical_failure: return "numerical_failure";
    case StatusCode::parse_error: return "parse_error";
    case StatusCode::io_error: return "io_error";
    case StatusCode::out_of_memory: return "out_of_memory";
    case StatusCode::cancelled: return "cancelled";
    case StatusCode::internal_error: return "internal_error";
  }
  return "unknown";
}

std::string count_of(std::size_t n, const char* singular, const char* plural) {
  const std::string many = plural ? plural : std::string(singular) + "s";
  return std::to_string(n) + " " + (n == 1 ? std::string(singular) : many);
}

}  // namespace gpprobe
