// Embind registration of the probe file reader (gpprobe/probe/probe_file.h) for JavaScript: the browser
// reads ".probe.json" files through the core's reader, the one the CLI and Python call, so every face
// accepts and refuses the same files with the same messages. Conventions of binding_support.h; no
// validation here.
#include <string>

#include <emscripten/bind.h>

#include "gpprobe/probe/probe_file.h"

#include "binding_support.h"

namespace gpprobe::wasm {
namespace {

const char* dtype_name(ScalarType type) { return type == ScalarType::float32 ? "float32" : "float64"; }

struct ProbeFileRead : BindingStatus {
  double epsilon = 0, strength = 0;
  std::string space = "automatic";  // "automatic", "function" or "weight"
  double rows = 0, cols = 0;
  std::string dtype = "float64";      // "float32" or "float64": the stored precision
  val observations = val::null();     // rows*cols values, row-major: Float32Array or Float64Array
  val labels = val::null();           // Uint8Array of 0/1, one per row
  val observationRows = val::null();  // Float64Array of row numbers (exact: each < 2^53), or null
  val data = val::null();             // {name, rows, cols, dtype, sha256?}, or null
};

// `text`: the file's bytes (a Uint8Array crosses as its bytes, unchanged); `name` names it in messages.
ProbeFileRead parse_probe_file(const std::string& text, const std::string& name) {
  Result<ProbeFile> read = gpprobe::parse_probe_file(text, name);
  if (!read.ok()) return failed<ProbeFileRead>(read.status());
  const ProbeFile& file = read.value();
  const LoadedMatrix& x = file.observations;
  ProbeFileRead r;
  r.epsilon = file.options.epsilon;
  r.strength = file.options.strength;
  r.space = space_name(file.options.space);
  r.rows = double(x.rows);
  r.cols = double(x.cols);
  r.dtype = dtype_name(x.type);
  r.observations = x.type == ScalarType::float32 ? copy_out(x.float32) : copy_out(x.float64);
  r.labels = copy_out(file.labels);
  if (file.observation_rows) {
    std::vector<double> rows(file.observation_rows->begin(), file.observation_rows->end());
    r.observationRows = copy_out(rows);
  }
  if (file.data) {
    val data = val::object();
    data.set("name", file.data->name);
    data.set("rows", double(file.data->rows));
    data.set("cols", double(file.data->cols));
    data.set("dtype", std::string(dtype_name(file.data->dtype)));
    if (!file.data->sha256.empty()) data.set("sha256", file.data->sha256);
    r.data = data;
  }
  return r;
}

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_probe_file) {
  using namespace gpprobe::wasm;
  result_object<ProbeFileRead>("ProbeFileRead", [](auto& o) {
    o.field("epsilon", &ProbeFileRead::epsilon)
        .field("strength", &ProbeFileRead::strength)
        .field("space", &ProbeFileRead::space)
        .field("rows", &ProbeFileRead::rows)
        .field("cols", &ProbeFileRead::cols)
        .field("dtype", &ProbeFileRead::dtype)
        .field("observations", &ProbeFileRead::observations)
        .field("labels", &ProbeFileRead::labels)
        .field("observationRows", &ProbeFileRead::observationRows)
        .field("data", &ProbeFileRead::data);
  });
  bind_function<&parse_probe_file>("parseProbeFile");
}
