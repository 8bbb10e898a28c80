#include "commands.h"

#include <ostream>

namespace gpprobe::cli {

int exit_code(const char* command, const Status& status, std::ostream& err) {
  if (status.ok()) return 0;
  err << "gpprobe " << command << ": " << status.message() << '\n';
  return status.code() == StatusCode::invalid_argument && status.message().rfind("--", 0) == 0 ? 2 : 1;
}

}  // namespace gpprobe::cli
