// The core names its inputs at the start of a message ("queries have 3 columns, ...", "label 2 is 5");
// a command knows which file each input came from and puts that file in front:
// "q.csv: queries have 3 columns, observations have 2 columns".
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gpprobe/common/status.h"

namespace gpprobe::cli {

// `inputs`: (message prefix, file) pairs, tried in order; the first prefix the message starts with wins.
gpprobe::Status with_file_names(const gpprobe::Status& status,
                                const std::vector<std::pair<std::string, std::string>>& inputs);

}  // namespace gpprobe::cli
