#include "readers/projector_config.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <sstream>

#include <nlohmann/json.hpp>

#include "readers/delimited_reader.h"

namespace gpprobe::cli {

namespace {

using nlohmann::json;

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

bool is_url(const std::string& path) { return path.find("://") != std::string::npos; }

// n x d float32 values, little-endian, from a .bytes file of exactly n * d * 4 bytes.
Result<LoadedMatrix> read_bytes(const std::string& file, std::uint64_t n, std::uint64_t d, const std::string& where) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) return Status(StatusCode::io_error, where + ": cannot open " + file);
  const std::uint64_t size = std::uint64_t(in.tellg());
  // Shapes whose byte count would overflow cannot match any file.
  if (n > (std::uint64_t(1) << 40) || d > (std::uint64_t(1) << 20)) {
    return Status(StatusCode::parse_error, where + ": tensorShape " + std::to_string(n) + " x " + std::to_string(d) +
                                               " is beyond what can be loaded");
  }
  const std::uint64_t need = n * d * 4;
  if (size != need) {
    return Status(StatusCode::parse_error, where + ": " + file + " holds " + std::to_string(size) +
                                               " bytes; tensorShape " + std::to_string(n) + " x " + std::to_string(d) +
                                               " float32 needs " + std::to_string(need));
  }
  LoadedMatrix m;
  m.type = ScalarType::float32;
  m.rows = std::size_t(n);
  m.cols = std::size_t(d);
  try {
    m.float32.resize(std::size_t(n * d));
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::out_of_memory, where + ": " + file + ": not enough memory to load it");
  }
  in.seekg(0);
  in.read(reinterpret_cast<char*>(m.float32.data()), std::streamsize(need));
  if (!in) return Status(StatusCode::io_error, where + ": " + file + ": read failed");
  // The format is little-endian; so is every machine this builds for (x86, ARM, wasm).
  for (std::size_t k = 0; k < m.float32.size(); ++k) {
    if (!std::isfinite(m.float32[k])) {
      return Status(StatusCode::non_finite, where + ": " + file + ": element [" + std::to_string(k / m.cols) + ", " +
                                                std::to_string(k % m.cols) + "] is not finite");
    }
  }
  return m;
}

}  // namespace

Result<std::vector<ProjectorTensor>> read_projector_config(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(StatusCode::io_error, path + ": cannot open the file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status(StatusCode::parse_error, path + ": not valid JSON");
  if (!j.is_object() || !j.contains("embeddings") || !j["embeddings"].is_array() || j["embeddings"].empty()) {
    return Status(StatusCode::parse_error, path + ": expected {\"embeddings\": [...]} with at least one tensor");
  }
  std::vector<ProjectorTensor> tensors;
  const json& embeddings = j["embeddings"];
  for (std::size_t i = 0; i < embeddings.size(); ++i) {
    const std::string where = path + ": embeddings[" + std::to_string(i) + "]";
    const json& e = embeddings[i];
    if (!e.is_object() || !e.contains("tensorPath") || !e["tensorPath"].is_string()) {
      return Status(StatusCode::parse_error, where + " has no tensorPath");
    }
    const std::string tensor_path = e["tensorPath"].get<std::string>();
    if (is_url(tensor_path)) {
      return Status(StatusCode::invalid_argument,
                    where + ": tensorPath '" + tensor_path + "' is a URL; the command line reads local files");
    }
    ProjectorTensor t;
    t.name = e.contains("tensorName") && e["tensorName"].is_string() ? e["tensorName"].get<std::string>() : tensor_path;
    t.path = tensor_path.size() > 0 && tensor_path[0] == '/' ? tensor_path : folder_of(path) + tensor_path;
    const json& shape = e.contains("tensorShape") ? e["tensorShape"] : json();
    const bool has_shape =
        shape.is_array() && shape.size() == 2 && shape[0].is_number_unsigned() && shape[1].is_number_unsigned();
    if (lower_extension(t.path) == "bytes") {
      if (!has_shape)
        return Status(StatusCode::parse_error, where + ": a .bytes tensor needs tensorShape [rows, columns]");
      Result<LoadedMatrix> m = read_bytes(t.path, shape[0].get<std::uint64_t>(), shape[1].get<std::uint64_t>(), where);
      if (!m.ok()) return m.status();
      t.matrix = std::move(m.value());
    } else {
      Result<LoadedMatrix> m = read_matrix(t.path);
      if (!m.ok()) return Status(m.status().code(), where + ": " + m.status().message());
      t.matrix = std::move(m.value());
      if (has_shape &&
          (shape[0].get<std::uint64_t>() != t.matrix.rows || shape[1].get<std::uint64_t>() != t.matrix.cols)) {
        return Status(StatusCode::dimension_mismatch, where + ": " + t.path + " holds " +
                                                          std::to_string(t.matrix.rows) + " x " +
                                                          std::to_string(t.matrix.cols) + " values, tensorShape says " +
                                                          std::to_string(shape[0].get<std::uint64_t>()) + " x " +
                                                          std::to_string(shape[1].get<std::uint64_t>()));
      }
    }
    tensors.push_back(std::move(t));
  }
  return tensors;
}

}  // namespace gpprobe::cli
