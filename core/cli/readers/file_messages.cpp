#include "readers/file_messages.h"

namespace gpprobe::cli {

Status with_file_names(const Status& status, const std::vector<std::pair<std::string, std::string>>& inputs) {
  for (const auto& [prefix, file] : inputs) {
    if (status.message().rfind(prefix, 0) == 0) return Status(status.code(), file + ": " + status.message());
  }
  return status;
}

}  // namespace gpprobe::cli
