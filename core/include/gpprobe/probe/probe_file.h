// A probe file (".probe.json", written by the app's "Export probe" and Python's Probe.save): what a fit
// needs — epsilon, strength, the posterior space, the O by d observations (base64 of little-endian
// float32/float64, row-major) and their O labels — so every face fits the same probe from it and scores
// queries with the same numbers. The optional fields (observation_rows, data) are provenance: checked and
// returned, never used by the fit. The format is documented in web/src/engine/probe/probe_file.ts (the
// app's writer).
//
// The one reader of the format: the CLI (`gpprobe probe --probe FILE`), the Python module
// (gpprobe.Probe.load) and the browser (wasm/bindings_probe_file.cpp, engine.readProbeFile) all call it,
// so they accept and refuse the same files with the same messages. It is held to the validation table
// tests/reference/probe_file/{valid,invalid}/. The JSON parse (nlohmann/json) stays inside probe_file.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpprobe/common/loaded_matrix.h"
#include "gpprobe/common/status.h"
#include "gpprobe/probe/probe.h"

namespace gpprobe {

// "data": the id of the embeddings the probe was fitted on (name, shape, precision, content hash).
struct ProbeDataId {
  std::string name;
  std::uint64_t rows = 0, cols = 0;  // counts up to 2^53 - 1 (a JavaScript number holds them exactly)
  ScalarType dtype = ScalarType::float32;
  std::string sha256;  // 64 lowercase hex digits, or empty when the file gives none
};

struct ProbeFile {
  ProbeOptions options;       // epsilon, strength, space as the file states them
  LoadedMatrix observations;  // O by d, in the precision stored
  std::vector<std::uint8_t> labels;
  std::optional<std::vector<std::uint64_t>> observation_rows;  // one row number (< 2^53) per observation
  std::optional<ProbeDataId> data;
};

// Errors (parse_error) name the file and the field: "p.json: \"labels\" has 15 values for 16 observation
// rows", "p.json: observations.data holds 4092 bytes; 16 x 64 float32 values need 4096"; a file that
// cannot be opened is io_error "p.json: cannot open file".
Result<ProbeFile> read_probe_file(const std::string& path);

// The same from the file's bytes already in memory (`path` names them in messages: the browser and
// Python's from_file_bytes pass "probe file", the fuzz harness its own name).
Result<ProbeFile> parse_probe_file(const std::string& text, const std::string& path);

// The bytes that base64 `text` encodes (RFC 4648 alphabet, '=' padding optional); false when `text`
// holds anything else.
bool decode_base64(const std::string& text, std::vector<unsigned char>* bytes);

}  // namespace gpprobe
