#include "commands.h"

#include <ostream>

#include "csv_output.h"

namespace gpprobe::cli {

int exit_code(const char* command, const Status& status, std::ostream& err) {
  if (status.ok() && non_finite_numbers() > 0) {
    // The last line of defence: the core refuses non-finite results itself; one that got this far is
    // a bug, and the command fails rather than hand NaN or Inf on as its answer.
    err << "gpprobe " << command << ": internal error: a result was not a finite number (NaN or Inf; "
        << non_finite_numbers() << " in all): the output above is not valid\n";
    return 1;
  }
  if (status.ok()) return 0;
  err << "gpprobe " << command << ": " << status.message() << '\n';
  return status.code() == StatusCode::invalid_argument && status.message().rfind("--", 0) == 0 ? 2 : 1;
}

}  // namespace gpprobe::cli
