#include "readers/npy_reader.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>

namespace gpprobe::cli {

namespace {

template <class T>
T load(const unsigned char* p, bool swap) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, p, sizeof(T));
  if (swap) std::reverse(bytes, bytes + sizeof(T));
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

}  // namespace

std::size_t NpyArray::size() const { return itemsize == 0 ? 0 : data.size() / itemsize; }

double NpyArray::value(std::size_t index) const {
  const unsigned char* p = data.data() + index * itemsize;
  switch (kind) {
    case 'f':
      return itemsize == 4 ? double(load<float>(p, swap_bytes)) : load<double>(p, swap_bytes);
    case 'b':
      return *p ? 1.0 : 0.0;
    case 'i':
      switch (itemsize) {
        case 1:
          return double(load<std::int8_t>(p, false));
        case 2:
          return double(load<std::int16_t>(p, swap_bytes));
        case 4:
          return double(load<std::int32_t>(p, swap_bytes));
        default:
          return double(load<std::int64_t>(p, swap_bytes));
      }
    default:  // 'u'
      switch (itemsize) {
        case 1:
          return double(*p);
        case 2:
          return double(load<std::uint16_t>(p, swap_bytes));
        case 4:
          return double(load<std::uint32_t>(p, swap_bytes));
        default:
          return double(load<std::uint64_t>(p, swap_bytes));
      }
  }
}

Result<NpyArray> parse_npy(std::vector<unsigned char> bytes, const std::string& name) {
  Result<NpyHeader> header = parse_npy_header(bytes.data(), bytes.size(), name);
  if (!header.ok()) return header.status();
  NpyArray array;
  static_cast<NpyHeader&>(array) = std::move(header.value());
  const std::size_t found = bytes.size() - array.data_offset;
  // Every product checked: shape (4, 2^62 + 1) must not wrap around to a size the file seems to hold.
  const bool empty = std::find(array.shape.begin(), array.shape.end(), 0) != array.shape.end();
  std::size_t expected = empty ? 0 : array.itemsize;
  bool overflow = false;
  for (std::size_t i = 0; i < array.shape.size() && !empty && !overflow; ++i) {
    overflow = expected > std::numeric_limits<std::size_t>::max() / array.shape[i];
    expected *= array.shape[i];
  }
  if (overflow) {
    return Status(StatusCode::parse_error, name + ": the .npy header's shape " + shape_text(array.shape) + " of " +
                                               std::to_string(array.itemsize) +
                                               "-byte items needs more than 2^64 bytes; the file holds " +
                                               std::to_string(found));
  }
  if (found < expected) {
    return Status(StatusCode::parse_error, name + ": truncated: the header promises " + std::to_string(expected) +
                                               " bytes of data, the file holds " + std::to_string(found));
  }
  // The data in place: drop the header in front and any bytes after the array, no second copy.
  bytes.erase(bytes.begin(), bytes.begin() + std::ptrdiff_t(array.data_offset));
  bytes.resize(expected);
  array.data = std::move(bytes);
  return array;
}

Result<NpyArray> read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return Status(StatusCode::io_error, path + ": cannot open file");
  const std::streamoff size = in.tellg();
  if (size < 0) return Status(StatusCode::io_error, path + ": cannot read file");
  in.seekg(0);
  std::vector<unsigned char> bytes;
  try {
    bytes.resize(std::size_t(size));
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::out_of_memory,
                  path + ": not enough memory to read its " + std::to_string(size) + " bytes");
  }
  if (!in.read(reinterpret_cast<char*>(bytes.data()), size))
    return Status(StatusCode::io_error, path + ": read failed");
  return parse_npy(std::move(bytes), path);
}

}  // namespace gpprobe::cli
