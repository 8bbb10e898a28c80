// Probe files (.probe.json, `gpprobe probe --probe`): any text through the JSON reader and the field
// checks. A parsed file holds exactly rows x cols observations and one 0/1 label per row, and a probe
// fits to it or says why.
#include "gpprobe/probe/probe_file.h"

#include "fuzz_support.h"

using namespace gpprobe;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Result<ProbeFile> file = parse_probe_file(text, "fuzz.probe.json");
  if (!file.ok()) {
    fuzz::require(file.status().message().size() < 400, "messages stay short", double(file.status().message().size()));
    return 0;
  }
  const LoadedMatrix& x = file.value().observations;
  const std::size_t stored = x.type == ScalarType::float32 ? x.float32.size() : x.float64.size();
  fuzz::require(stored == x.rows * x.cols, "rows x cols values stored", double(stored));
  fuzz::require(file.value().labels.size() == x.rows, "one label per row", double(file.value().labels.size()));
  for (std::uint8_t y : file.value().labels) fuzz::require(y <= 1, "labels are 0 or 1", y);
  const std::vector<std::uint8_t>& y = file.value().labels;
  Result<Probe> probe = Probe::fit(x.view(), y.data(), y.size(), file.value().options);
  if (!probe.ok()) {
    const StatusCode code = probe.status().code();
    fuzz::require(
        code == StatusCode::invalid_argument || code == StatusCode::non_finite || code == StatusCode::numerical_failure,
        "a valid file's probe fails only on its values");
  }
  return 0;
}
