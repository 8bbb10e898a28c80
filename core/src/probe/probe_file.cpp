// The probe file reader of every face (gpprobe/probe/probe_file.h). The one translation unit that parses
// JSON: compiled on its own (not in a unity batch), so nlohmann/json is parsed once per build of the core.
#include "gpprobe/probe/probe_file.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

namespace gpprobe {

namespace {

using nlohmann::json;

constexpr const char* kFormat = "gpprobe-probe";
constexpr int kVersion = 1;

int base64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

Status problem(const std::string& path, const std::string& what) {
  return Status(StatusCode::parse_error, path + ": " + what);
}

// A value as a message shows it: scalars as JSON (at most 40 characters), lists and objects by kind.
// Never dump() a structure from the file: 200,000 nested lists recurse the serializer off the stack.
std::string shown(const json& value) {
  if (value.is_array()) return "a list of " + std::to_string(value.size()) + " values";
  if (value.is_object()) return "an object";
  const std::string text = value.dump();
  return text.size() > 40 ? text.substr(0, 40) + "..." : text;
}

// A positive finite number at `key`.
Result<double> positive(const json& j, const std::string& key, const std::string& path) {
  if (!j.contains(key) || !j[key].is_number() || !(j[key].get<double>() > 0) || !std::isfinite(j[key].get<double>())) {
    return problem(path,
                   "\"" + key + "\" must be a positive number" + (j.contains(key) ? ", got " + shown(j[key]) : ""));
  }
  return j[key].get<double>();
}

// Counts are integers a JavaScript number holds exactly (the library reads the same files): up to
// 2^53 - 1, written as 6 or as 6.0 (JSON.parse cannot tell them apart, so neither may we).
constexpr double kMaxSafeInteger = 9007199254740991.0;
constexpr std::uint64_t kMaxDimension = 4294967295u;  // 2^32 - 1

// The value as a count, or nullopt when it is not a non-negative integer up to kMaxSafeInteger. 64 bits
// wide on every build (std::size_t is 32 bits in wasm).
std::optional<std::uint64_t> count_value(const json& v) {
  if (v.is_number_unsigned()) {
    const std::uint64_t n = v.get<std::uint64_t>();
    if (n <= std::uint64_t(kMaxSafeInteger)) return n;
    return std::nullopt;
  }
  // "-0" is the one signed integer that is a count: zero (JSON.parse reads it as -0, a safe integer).
  if (v.is_number_integer() && v.get<std::int64_t>() == 0) return 0;
  if (v.is_number_float()) {
    const double x = v.get<double>();
    if (x >= 0.0 && x <= kMaxSafeInteger && std::floor(x) == x) return std::uint64_t(x);
  }
  return std::nullopt;  // negative integers, fractions, text, ...
}

// A non-negative integer at `key` of `j` (named `name` in messages).
Result<std::uint64_t> count(const json& j, const std::string& key, const std::string& name, const std::string& path) {
  const std::optional<std::uint64_t> n = j.contains(key) ? count_value(j[key]) : std::nullopt;
  if (!n) {
    return problem(
        path, "\"" + name + "\" must be a non-negative integer" + (j.contains(key) ? ", got " + shown(j[key]) : ""));
  }
  return *n;
}

Status read_observations(const json& o, const std::string& path, LoadedMatrix* x) {
  Result<std::uint64_t> rows = count(o, "rows", "observations.rows", path);
  if (!rows.ok()) return rows.status();
  Result<std::uint64_t> cols = count(o, "cols", "observations.cols", path);
  if (!cols.ok()) return cols.status();
  const std::string dtype = o.contains("dtype") && o["dtype"].is_string() ? o["dtype"].get<std::string>() : "";
  if (dtype != "float32" && dtype != "float64") {
    return problem(path, "\"observations.dtype\" must be \"float32\" or \"float64\"" +
                             (o.contains("dtype") ? ", got " + shown(o["dtype"]) : ""));
  }
  std::vector<unsigned char> bytes;
  if (!o.contains("data") || !o["data"].is_string() || !decode_base64(o["data"].get<std::string>(), &bytes)) {
    return problem(path, "\"observations.data\" must be base64 text");
  }
  const std::uint64_t size = dtype == "float32" ? 4 : 8, n = rows.value() * cols.value();
  // Checked products (in doubles: rows x cols x size > 2^53 - 1): rows 2^40 by 2^20 columns must not wrap
  // around to the 16 bytes a file holds. Neither side may pass 2^32 - 1 (0 rows of 2^40 columns): every
  // build holds the shape in its std::size_t, the 32-bit wasm one too, so all accept the same files.
  if ((cols.value() != 0 && double(rows.value()) * double(cols.value()) * double(size) > kMaxSafeInteger) ||
      (cols.value() == 0 && rows.value() > 0) || rows.value() > kMaxDimension || cols.value() > kMaxDimension) {
    return problem(path, "observations of " + std::to_string(rows.value()) + " x " + std::to_string(cols.value()) +
                             " " + dtype + " values cannot be stored (" + std::to_string(bytes.size()) +
                             " bytes of data)");
  }
  if (bytes.size() != n * size) {
    return problem(path, "observations.data holds " + std::to_string(bytes.size()) + " bytes; " +
                             std::to_string(rows.value()) + " x " + std::to_string(cols.value()) + " " + dtype +
                             " values need " + std::to_string(n * size));
  }
  // The file is little-endian; so are the machines this tool is built for (x86-64, arm64, wasm).
  x->rows = std::size_t(rows.value());
  x->cols = std::size_t(cols.value());
  if (size == 4) {
    x->type = ScalarType::float32;
    x->float32.resize(n);
    std::memcpy(x->float32.data(), bytes.data(), bytes.size());
  } else {
    x->type = ScalarType::float64;
    x->float64.resize(n);
    std::memcpy(x->float64.data(), bytes.data(), bytes.size());
  }
  return Status::success();
}

// "observation_rows" (optional): one row number per observation.
Status read_observation_rows(const json& j, std::size_t rows, const std::string& path, ProbeFile* file) {
  if (!j.contains("observation_rows")) return Status::success();
  const json& list = j["observation_rows"];
  if (!list.is_array() || list.size() != rows) {
    return problem(path, "\"observation_rows\" must list " + std::to_string(rows) + " row numbers");
  }
  std::vector<std::uint64_t> numbers;
  numbers.reserve(rows);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::optional<std::uint64_t> n = count_value(list[i]);
    if (!n) {
      return problem(path, "\"observation_rows[" + std::to_string(i) + "]\" must be a non-negative integer, got " +
                               shown(list[i]));
    }
    numbers.push_back(*n);
  }
  file->observation_rows = std::move(numbers);
  return Status::success();
}

// "data" (optional): the id of the embeddings the probe was fitted on.
Status read_data_id(const json& j, const std::string& path, ProbeFile* file) {
  if (!j.contains("data")) return Status::success();
  const json& d = j["data"];
  if (!d.is_object())
    return problem(path, "\"data\" must be an object with \"name\", \"rows\", \"cols\" and \"dtype\"");
  if (!d.contains("name") || !d["name"].is_string()) {
    return problem(path, "\"data.name\" must be text" + (d.contains("name") ? ", got " + shown(d["name"]) : ""));
  }
  ProbeDataId id;
  id.name = d["name"].get<std::string>();
  for (auto [key, out] : {std::pair{"rows", &id.rows}, std::pair{"cols", &id.cols}}) {
    Result<std::uint64_t> n = count(d, key, std::string("data.") + key, path);
    if (!n.ok()) return n.status();
    *out = n.value();
  }
  const json dtype = d.contains("dtype") ? d["dtype"] : json();
  if (dtype != "float32" && dtype != "float64") {
    return problem(path, "\"data.dtype\" must be \"float32\" or \"float64\"" +
                             (d.contains("dtype") ? ", got " + shown(dtype) : ""));
  }
  if (d.contains("sha256")) {
    const json& sha = d["sha256"];
    bool hex = sha.is_string() && sha.get<std::string>().size() == 64;
    if (hex) {
      for (char c : sha.get<std::string>()) hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    }
    if (!hex) return problem(path, "\"data.sha256\" must be 64 lowercase hexadecimal digits, got " + shown(sha));
    id.sha256 = sha.get<std::string>();
  }
  id.dtype = dtype == "float32" ? ScalarType::float32 : ScalarType::float64;
  file->data = std::move(id);
  return Status::success();
}

}  // namespace

bool decode_base64(const std::string& text, std::vector<unsigned char>* bytes) {
  bytes->clear();
  bytes->reserve(text.size() / 4 * 3);
  std::size_t end = text.size();
  while (end > 0 && text[end - 1] == '=' && text.size() - end < 2) --end;
  unsigned bits = 0;
  int pending = 0;
  for (std::size_t i = 0; i < end; ++i) {
    const int v = base64_value(static_cast<unsigned char>(text[i]));
    if (v < 0) return false;
    bits = (bits << 6) | unsigned(v);
    pending += 6;
    if (pending >= 8) {
      pending -= 8;
      bytes->push_back(static_cast<unsigned char>((bits >> pending) & 0xff));
    }
  }
  // A lone trailing character carries fewer than 8 bits: not base64.
  return pending < 6;
}

Result<ProbeFile> read_probe_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(StatusCode::io_error, path + ": cannot open file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_probe_file(text, path);
}

Result<ProbeFile> parse_probe_file(const std::string& text, const std::string& path) {
  if (text.empty()) return problem(path, "file is empty");
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return problem(path, "not JSON");
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormat) {
    return problem(path, std::string("not a gpprobe probe file (expected \"format\": \"") + kFormat + "\")");
  }
  if (!j.contains("version") || j["version"] != kVersion) {
    return problem(path, "version " + (j.contains("version") ? shown(j["version"]) : std::string("(missing)")) +
                             " is not one this gpprobe reads (version " + std::to_string(kVersion) + ")");
  }
  ProbeFile file;
  Result<double> epsilon = positive(j, "epsilon", path);
  if (!epsilon.ok()) return epsilon.status();
  Result<double> strength = positive(j, "strength", path);
  if (!strength.ok()) return strength.status();
  file.options.epsilon = epsilon.value();
  file.options.strength = strength.value();
  if (j.contains("space")) {
    Result<PosteriorSpace> space = j["space"].is_string()
                                       ? parse_space(j["space"].get<std::string>())
                                       : Result<PosteriorSpace>(Status(StatusCode::invalid_argument, ""));
    if (!space.ok())
      return problem(path, "\"space\" must be \"automatic\", \"function\" or \"weight\", got " + shown(j["space"]));
    file.options.space = space.value();
  }
  if (!j.contains("observations") || !j["observations"].is_object())
    return problem(path, "\"observations\" is missing");
  GPPROBE_RETURN_IF_ERROR(read_observations(j["observations"], path, &file.observations));
  if (!j.contains("labels") || !j["labels"].is_array()) return problem(path, "\"labels\" must be a list of 0/1 values");
  const json& labels = j["labels"];
  if (labels.size() != file.observations.rows) {
    return problem(path, "\"labels\" has " + std::to_string(labels.size()) + " values for " +
                             std::to_string(file.observations.rows) + " observation rows");
  }
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] != 0 && labels[i] != 1) {
      return problem(path, "label " + std::to_string(i) + " is " + shown(labels[i]) + "; labels must be 0 or 1");
    }
    file.labels.push_back(labels[i] == 1 ? 1 : 0);
  }
  GPPROBE_RETURN_IF_ERROR(read_observation_rows(j, file.observations.rows, path, &file));
  GPPROBE_RETURN_IF_ERROR(read_data_id(j, path, &file));
  return file;
}

}  // namespace gpprobe
