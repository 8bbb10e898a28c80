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
  }
  return "unknown";
}

}  // namespace gpprobe
