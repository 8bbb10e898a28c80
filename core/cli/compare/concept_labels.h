// The concepts of `gpprobe compare`, read from its --labels file.
//
// Without --concepts the file holds one 0/1 label per row (read_labels): one concept, named after the
// file. With --concepts each spec names a concept in a table: .csv/.tsv/.txt of text cells (a metadata
// file; the first line is a header when none of its cells is a number; "quoted" cells as in RFC 4180,
// within one line), or a 1-D or 2-D .npy whose columns are numbered from 1:
//   COLUMN        the column holds the labels, 0 or 1
//   COLUMN=VALUE  1 where the cell equals VALUE (as text, or as a number: "1" = "1.0"), 0 elsewhere
// COLUMN is a header name or a 1-based column number. An empty cell (a NaN in a .npy) leaves that row
// unlabelled (kUnlabelled: a query, never an observation or a held-out row).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpprobe/common/status.h"

namespace gpprobe::cli {

struct ConceptLabels {
  std::string name;  // the spec, or the file name
  std::vector<std::uint8_t> labels;
};

// Errors name the file and the spec: "m.tsv: no column 'colour' (columns: digit, loop)",
// "m.tsv: column 'digit' holds '3' on data row 5; a concept column holds 0 or 1 (or write digit=VALUE)".
gpprobe::Result<std::vector<ConceptLabels>> read_concepts(const std::string& path,
                                                          const std::vector<std::string>& specs);

}  // namespace gpprobe::cli
