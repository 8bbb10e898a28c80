// The TensorFlow Embedding Projector's projector_config.json: {"embeddings": [{"tensorName",
// "tensorShape": [n, d], "tensorPath", "metadataPath", "sprite"}, ...]}, each tensor read from its path
// relative to the config's folder: ".bytes" is n x d little-endian float32, row-major (the Projector's
// binary format, kept float32); .npy, .tsv, .csv and .txt are read as matrices (read_matrix). URLs are
// refused (the command line reads local files). Metadata and sprites are not read here.
#pragma once

#include <string>
#include <vector>

#include "gpprobe/common/status.h"

#include "readers/loaded_matrix.h"

namespace gpprobe::cli {

struct ProjectorTensor {
  std::string name;  // tensorName, or tensorPath when the config gives none
  std::string path;  // the file read
  LoadedMatrix matrix;
};

// Errors name the config and the entry: "c.json: embeddings[1] has no tensorPath",
// "c.json: embeddings[0]: h.bytes holds 76796 bytes; tensorShape 300 x 64 float32 needs 76800".
gpprobe::Result<std::vector<ProjectorTensor>> read_projector_config(const std::string& path);

}  // namespace gpprobe::cli
