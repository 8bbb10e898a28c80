// A probe file (".probe.json", written by the app's "Export probe"; the format is documented in
// web/src/engine/probe/probe_file.ts, which reads it for the library): what a fit needs — epsilon, strength,
// the posterior space, the O by d observations (base64 of little-endian float32/float64, row-major)
// and their O labels — so `gpprobe probe --probe FILE --queries Q` fits the app's probe and scores Q
// with its numbers. The optional fields (observation_rows, data) are provenance: checked, not kept.
// Both readers hold to one validation table: tests/reference/probe_file/{valid,invalid}/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpprobe/common/status.h"
#include "gpprobe/probe/probe.h"

#include "readers/loaded_matrix.h"

namespace gpprobe::cli {

struct ProbeFile {
  gpprobe::ProbeOptions options;  // epsilon, strength, space as the file states them
  LoadedMatrix observations;      // O by d, in the precision stored
  std::vector<std::uint8_t> labels;
};

// Errors name the file and the field: "p.json: \"labels\" has 15 values for 16 observation rows",
// "p.json: observations.data holds 4092 bytes; 16 x 64 float32 values need 4096".
gpprobe::Result<ProbeFile> read_probe_file(const std::string& path);

// The same from the file's text already in memory (`path` names it in messages; the fuzz harness).
gpprobe::Result<ProbeFile> parse_probe_file(const std::string& text, const std::string& path);

// The bytes that base64 `text` encodes (RFC 4648 alphabet, '=' padding optional); false when `text`
// holds anything else.
bool decode_base64(const std::string& text, std::vector<unsigned char>* bytes);

}  // namespace gpprobe::cli
