// The figures of `gpprobe paper-robustness` (paper_robustness_command.cpp): each reads its own flags
// from the parsed arguments into the options of the core's experiment (gpprobe/explain/paper_figures.h),
// runs it on the data split the command made, and writes its CSV to `out` (and a JSON summary line to
// `err` where it has one).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "gpprobe/certify/interval.h"
#include "gpprobe/classification/training_data.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"
#include "gpprobe/explain/paper_figures.h"

#include "arguments.h"

namespace gpprobe::cli {

// The dataset of a binary figure: the first rows train, the next `test` rows are its test points
// (source: the --data path; valid_range: --valid-range).
using PaperData = PaperBinaryData;

// --data FILE split as every figure splits it: the file's rows (feature columns, then one label column),
// the first `train` of them training rows (--train-rows, default all but min(200, 30 %)), the next `test`
// the test points (--test-points, default min(50, the rest)); refusals name the file and the flag.
struct PaperSplit {
  std::string path;
  RowMatrix all;  // every row of the file, labels in the last column
  std::size_t train = 0, test = 0, features = 0;
};
Result<PaperSplit> read_paper_split(const Arguments& args);

// The flags each figure reads (beyond the command's own).
const std::set<std::string>& figure_flags();

Status figure_3(const Arguments& args, const PaperData& data, std::ostream& out, std::ostream& err);
Status figure_4(const Arguments& args, const PaperData& data, std::ostream& out, std::ostream& err);
// Fig. 5 on a multi-class file (feature columns, then class indices 0..C-1): it reads --data,
// --train-rows, --test-points and --valid-range itself (the binary PaperData refuses labels above 1).
Status figure_5(const Arguments& args, std::ostream& out, std::ostream& err);
Status figure_6(const Arguments& args, const PaperData& data, std::ostream& out, std::ostream& err);
Status figure_7(const Arguments& args, const PaperData& data, std::ostream& out, std::ostream& err);

}  // namespace gpprobe::cli
