#include "readers/train_test.h"

#include <string>

namespace gpprobe::cli {

Result<TrainTestPaths> required_train_test(const Arguments& args) {
  Result<std::string> train = args.required("train");
  if (!train.ok()) return train.status();
  Result<std::string> test = args.required("test");
  if (!test.ok()) return test.status();
  return TrainTestPaths{train.value(), test.value()};
}

Status check_test_columns(const TrainTestPaths& paths, std::size_t test_columns, std::size_t features) {
  if (test_columns == features) return Status::success();
  return Status(StatusCode::dimension_mismatch, paths.test + ": has " + count_of(test_columns, "column") +
                                                    "; expected " + count_of(features, "feature column") + ", as " +
                                                    paths.train + " has");
}

}  // namespace gpprobe::cli
