// A matrix read from a file, kept in the precision it was stored in (float32 embeddings stay float32).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpprobe/common/loaded_matrix.h"
#include "gpprobe/common/matrix_view.h"

#include "readers/delimited_reader.h"
#include "readers/npy_reader.h"

namespace gpprobe::cli {

// The core's owning matrix (gpprobe/common/loaded_matrix.h), which the probe file reader returns too.
using gpprobe::LoadedMatrix;

// Reads a 2-D matrix from .npy (float32/float64, C order) or .csv/.tsv/.txt (numeric, optional header).
// Errors name the file: "obs.csv: line 4 has 3 columns, line 2 has 4"; a file too large for memory is
// out_of_memory naming it.
gpprobe::Result<LoadedMatrix> read_matrix(const std::string& path);

// Reads 0/1 labels from .npy (bool/int/float, 1-D or n by 1) or text (one value per line, optional header).
gpprobe::Result<std::vector<std::uint8_t>> read_labels(const std::string& path);

// The steps after a file is parsed (`path` names it in messages); also what the fuzz harnesses drive.
gpprobe::Result<LoadedMatrix> matrix_from_npy(const NpyArray& array, const std::string& path);
LoadedMatrix matrix_from_table(DelimitedTable table);
gpprobe::Result<std::vector<std::uint8_t>> labels_from_npy(const NpyArray& array, const std::string& path);
gpprobe::Result<std::vector<std::uint8_t>> labels_from_table(const DelimitedTable& table, const std::string& path);

}  // namespace gpprobe::cli
