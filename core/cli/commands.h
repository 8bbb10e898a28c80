// The subcommands of the gpprobe command-line tool. Each reads its flags, validates its inputs through
// the core, writes its results, and returns the process exit code (0 ok, 1 bad input or failure,
// 2 usage error). Messages go to `err` as one line naming the file and the problem.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "gpprobe/common/status.h"

namespace gpprobe::cli {

using Args = std::vector<std::string>;

// How a subcommand ends: 0 for ok (and no NaN or Inf formatted as a result, csv_output.h: else 1 with
// an internal error); otherwise "gpprobe <command>: <message>" on `err` and 2 for a
// usage error (invalid_argument about a --flag), else 1.
int exit_code(const char* command, const gpprobe::Status& status, std::ostream& err);

int probe_command(const Args& args, std::ostream& out, std::ostream& err);
int loo_command(const Args& args, std::ostream& out, std::ostream& err);
int bench_command(const Args& args, std::ostream& out, std::ostream& err);
int gpr_command(const Args& args, std::ostream& out, std::ostream& err);
int baseline_command(const Args& args, std::ostream& out, std::ostream& err);
int evaluate_command(const Args& args, std::ostream& out, std::ostream& err);
int draw_command(const Args& args, std::ostream& out, std::ostream& err);
int gpc_command(const Args& args, std::ostream& out, std::ostream& err);
// `gpc --likelihood softmax` and `robustness --likelihood softmax`: the multi-class paths the two commands
// hand over to.
int multiclass_gpc_command(const Args& args, std::ostream& out, std::ostream& err);
int multiclass_robustness_command(const Args& args, std::ostream& out, std::ostream& err);
int gpc_bench_command(const Args& args, std::ostream& out, std::ostream& err);
int robustness_command(const Args& args, std::ostream& out, std::ostream& err);
int robustness_bench_command(const Args& args, std::ostream& out, std::ostream& err);
int explain_command(const Args& args, std::ostream& out, std::ostream& err);
int paper_robustness_command(const Args& args, std::ostream& out, std::ostream& err);
int compare_command(const Args& args, std::ostream& out, std::ostream& err);

}  // namespace gpprobe::cli
