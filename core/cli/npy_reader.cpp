#include "npy_reader.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>

namespace gpprobe::cli {

namespace {

Status parse_error(const std::string& path, const std::string& what) {
  return Status(StatusCode::parse_error, path + ": " + what);
}

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

std::size_t NpyArray::size() const {
  std::size_t n = 1;
  for (std::size_t s : shape) n *= s;
  return n;
}

double NpyArray::value(std::size_t index) const {
  const unsigned char* p = data.data() + index * itemsize;
  switch (kind) {
    case 'f': return itemsize == 4 ? double(load<float>(p, swap_bytes)) : load<double>(p, swap_bytes);
    case 'b': return *p ? 1.0 : 0.0;
    case 'i':
      switch (itemsize) {
        case 1: return double(load<std::int8_t>(p, false));
        case 2: return double(load<std::int16_t>(p, swap_bytes));
        case 4: return double(load<std::int32_t>(p, swap_bytes));
        default: return double(load<std::int64_t>(p, swap_bytes));
      }
    default:  // 'u'
      switch (itemsize) {
        case 1: return double(*p);
        case 2: return double(load<std::uint16_t>(p, swap_bytes));
        case 4: return double(load<std::uint32_t>(p, swap_bytes));
        default: return double(load<std::uint64_t>(p, swap_bytes));
      }
  }
}

Result<NpyArray> read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(StatusCode::io_error, path + ": cannot open file");
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty()) return parse_error(path, "file is empty");
  static const unsigned char kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (bytes.size() < 10 || !std::equal(kMagic, kMagic + 6, bytes.begin())) {
    return parse_error(path, "not a .npy file (missing the \\x93NUMPY magic)");
  }
  const int major = bytes[6];
  std::size_t header_len = 0, header_start = 0;
  if (major == 1) {
    header_len = std::size_t(bytes[8]) | std::size_t(bytes[9]) << 8;
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return parse_error(path, "truncated .npy header");
    header_len = std::size_t(bytes[8]) | std::size_t(bytes[9]) << 8 | std::size_t(bytes[10]) << 16 |
                 std::size_t(bytes[11]) << 24;
    header_start = 12;
  } else {
    return parse_error(path, "unsupported .npy version " + std::to_string(major));
  }
  if (header_start + header_len > bytes.size()) return parse_error(path, "truncated .npy header");
  const std::string header(bytes.begin() + std::ptrdiff_t(header_start),
                           bytes.begin() + std::ptrdiff_t(header_start + header_len));

  NpyArray array;
  std::smatch m;
  if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([^']*)')"))) {
    return parse_error(path, "the .npy header has no 'descr'");
  }
  array.descr = m[1];
  if (!std::regex_search(header, m, std::regex(R"('fortran_order'\s*:\s*(True|False))"))) {
    return parse_error(path, "the .npy header has no 'fortran_order'");
  }
  array.fortran_order = m[1] == "True";
  if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))"))) {
    return parse_error(path, "the .npy header has no 'shape'");
  }
  const std::string shape = m[1];
  static const std::regex kDigits(R"(\d+)");
  for (std::sregex_iterator it(shape.begin(), shape.end(), kDigits), end; it != end; ++it) {
    array.shape.push_back(std::stoull(it->str()));
  }

  static const std::regex kDescr(R"(^([<>|=])([fiub])(\d+)$)");
  if (!std::regex_match(array.descr, m, kDescr)) {
    return parse_error(path, "unsupported dtype '" + array.descr + "'");
  }
  array.kind = m[2].str()[0];
  array.itemsize = std::stoul(m[3]);
  array.swap_bytes = m[1] == ">";
  const bool size_ok = array.kind == 'f' ? (array.itemsize == 4 || array.itemsize == 8)
                       : array.kind == 'b' ? array.itemsize == 1
                                           : (array.itemsize == 1 || array.itemsize == 2 ||
                                              array.itemsize == 4 || array.itemsize == 8);
  if (!size_ok) return parse_error(path, "unsupported dtype '" + array.descr + "'");

  const std::size_t data_start = header_start + header_len;
  const std::size_t expected = array.size() * array.itemsize;
  const std::size_t found = bytes.size() - data_start;
  if (found < expected) {
    return parse_error(path, "truncated: the header promises " + std::to_string(expected) +
                                 " bytes of data, the file holds " + std::to_string(found));
  }
  array.data.assign(bytes.begin() + std::ptrdiff_t(data_start),
                    bytes.begin() + std::ptrdiff_t(data_start + expected));
  return array;
}

}  // namespace gpprobe::cli
