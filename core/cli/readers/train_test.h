// The --train and --test files of the commands that fit on one file and predict on another (gpc, binary
// and softmax; gpr): both paths required, in that order, and the test file's columns checked against the
// training file's feature columns with both files named.
#pragma once

#include <cstddef>
#include <string>

#include "gpprobe/common/status.h"

#include "arguments.h"

namespace gpprobe::cli {

struct TrainTestPaths {
  std::string train, test;
};

// "missing --train", then "missing --test".
Result<TrainTestPaths> required_train_test(const Arguments& args);

// dimension_mismatch unless the test file has `features` columns: "test.csv: has 3 columns; expected 2
// feature columns, as train.csv has".
Status check_test_columns(const TrainTestPaths& paths, std::size_t test_columns, std::size_t features);

}  // namespace gpprobe::cli
