// The three inputs of the commands that fit on labelled observations and score queries (probe,
// baseline): --observations FILE, --labels FILE, --queries FILE, read in that order, with the label
// count checked against the observation rows and core messages prefixed with the file they concern.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpprobe/common/status.h"

#include "arguments.h"
#include "readers/loaded_matrix.h"

namespace gpprobe::cli {

struct LabelledInputs {
  std::string observations_path, labels_path, queries_path;
  LoadedMatrix observations, queries;
  std::vector<std::uint8_t> labels;

  // The three paths; invalid_argument "missing --labels" when a flag is absent.
  static gpprobe::Result<LabelledInputs> paths(const Arguments& args);
  // Reads the files; "l.txt: 2 labels for 3 observation rows in o.csv" when the counts differ.
  gpprobe::Status read();
  // "q.csv: queries have 3 columns, ..." for a core message about observations, queries or labels.
  gpprobe::Status name_files(const gpprobe::Status& status) const;
};

}  // namespace gpprobe::cli
