#include "readers/npy_header.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <optional>
#include <sstream>

namespace gpprobe::cli {

namespace {

// A field's text as it may appear in a message: printable, at most 40 characters.
std::string excerpt(const std::string& text) {
  std::string out;
  for (char c : text.substr(0, 40)) out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  return text.size() > 40 ? out + "..." : out;
}

// The literals of a .npy header dict. Each method leaves pos_ after what it read, or returns nullopt.
class DictParser {
 public:
  explicit DictParser(const std::string& text) : text_(text) {}

  bool at(char c) {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool accept(char c) {
    if (!at(c)) return false;
    ++pos_;
    return true;
  }
  bool at_end() {
    skip_space();
    return pos_ == text_.size();
  }

  std::optional<std::string> string() {
    skip_space();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) return std::nullopt;
    const char quote = text_[pos_];
    const std::size_t close = text_.find(quote, pos_ + 1);
    if (close == std::string::npos) return std::nullopt;
    std::string s = text_.substr(pos_ + 1, close - pos_ - 1);
    pos_ = close + 1;
    return s;
  }

  std::optional<bool> boolean() {
    skip_space();
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
      const std::string w = word;
      if (text_.compare(pos_, w.size(), w) == 0) {
        pos_ += w.size();
        return value;
      }
    }
    return std::nullopt;
  }

  // A tuple of non-negative integers; *too_large is set when an entry does not fit in size_t.
  std::optional<std::vector<std::size_t>> shape(bool* too_large) {
    std::vector<std::size_t> shape;
    if (!accept('(')) return std::nullopt;
    while (!accept(')')) {
      if (!shape.empty() && !accept(',')) return std::nullopt;
      if (!shape.empty() && accept(')')) break;  // the trailing comma of (n,) or (n, d,)
      skip_space();
      const std::size_t start = pos_;
      std::size_t value = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        const std::size_t digit = std::size_t(text_[pos_] - '0');
        if (value > (std::numeric_limits<std::size_t>::max() - digit) / 10) *too_large = true;
        value = value * 10 + digit;
        ++pos_;
      }
      if (pos_ == start) return std::nullopt;
      shape.push_back(value);
    }
    return shape;
  }

  // Skips one value of a key this reader does not use (a string, True/False or a tuple).
  bool skip_value() {
    bool too_large = false;
    return string().has_value() || boolean().has_value() || shape(&too_large).has_value();
  }

  // The raw text of the value at the current position, up to the next ',' or '}' outside parentheses.
  std::string value_text() {
    skip_space();
    std::size_t end = pos_;
    int depth = 0;
    while (end < text_.size() && (depth > 0 || (text_[end] != ',' && text_[end] != '}'))) {
      depth += text_[end] == '(' ? 1 : text_[end] == ')' ? -1 : 0;
      ++end;
    }
    return text_.substr(pos_, end - pos_);
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

// kind and itemsize from a descr such as "<f4"; false for anything else.
bool parse_descr(const std::string& descr, NpyHeader* h) {
  if (descr.size() != 3 || std::string("<>|=").find(descr[0]) == std::string::npos) return false;
  h->kind = descr[1];
  h->itemsize = std::size_t(descr[2] - '0');
  h->swap_bytes = descr[0] == '>';
  const std::size_t s = h->itemsize;
  switch (h->kind) {
    case 'f':
      return s == 4 || s == 8;
    case 'b':
      return s == 1;
    case 'i':
    case 'u':
      return s == 1 || s == 2 || s == 4 || s == 8;
    default:
      return false;
  }
}

}  // namespace

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::ostringstream os;
  os << "(";
  for (std::size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
  os << (shape.size() == 1 ? ",)" : ")");
  return os.str();
}

Result<NpyHeader> parse_npy_header(const unsigned char* bytes, std::size_t size, const std::string& name) {
  const auto fail = [&](const std::string& what) { return Status(StatusCode::parse_error, name + ": " + what); };
  if (size == 0) return fail("file is empty");
  static const unsigned char kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (size < 10 || !std::equal(kMagic, kMagic + 6, bytes))
    return fail("not a .npy file (missing the \\x93NUMPY magic)");
  const int major = bytes[6];
  std::size_t header_len = 0, header_start = 0;
  if (major == 1) {
    header_len = std::size_t(bytes[8]) | std::size_t(bytes[9]) << 8;
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) return fail("truncated .npy header");
    header_len = std::size_t(bytes[8]) | std::size_t(bytes[9]) << 8 | std::size_t(bytes[10]) << 16 |
                 std::size_t(bytes[11]) << 24;
    header_start = 12;
  } else {
    return fail("unsupported .npy version " + std::to_string(major));
  }
  if (header_len > kMaxNpyHeaderBytes) {
    return fail("the .npy header claims " + std::to_string(header_len) + " bytes; at most " +
                std::to_string(kMaxNpyHeaderBytes) + " are supported");
  }
  if (header_len > size - header_start) return fail("truncated .npy header");
  const std::string text(reinterpret_cast<const char*>(bytes) + header_start, header_len);

  NpyHeader h;
  h.data_offset = header_start + header_len;
  bool has_descr = false, has_order = false, has_shape = false;
  DictParser p(text);
  if (!p.accept('{')) return fail("the .npy header is not a Python dict");
  for (bool first = true; !p.accept('}'); first = false) {
    if (!first) {
      if (!p.accept(',')) return fail("the .npy header is not a Python dict");
      if (p.accept('}')) break;
    }
    const std::optional<std::string> key = p.string();
    if (!key || !p.accept(':')) return fail("the .npy header is not a Python dict");
    const std::string raw = p.value_text();
    if (*key == "descr") {
      const std::optional<std::string> descr = p.string();
      if (!descr) return fail("unsupported dtype " + excerpt(raw) + " (structured arrays are not supported)");
      h.descr = *descr;
      if (!parse_descr(h.descr, &h)) return fail("unsupported dtype '" + excerpt(h.descr) + "'");
      has_descr = true;
    } else if (*key == "fortran_order") {
      const std::optional<bool> order = p.boolean();
      if (!order) return fail("the .npy header's fortran_order " + excerpt(raw) + " is not True or False");
      h.fortran_order = *order;
      has_order = true;
    } else if (*key == "shape") {
      bool too_large = false;
      const std::optional<std::vector<std::size_t>> shape = p.shape(&too_large);
      if (!shape) return fail("the .npy header's shape " + excerpt(raw) + " is not a tuple of non-negative integers");
      if (too_large) return fail("the .npy header's shape " + excerpt(raw) + " has an entry larger than 2^64 - 1");
      h.shape = *shape;
      has_shape = true;
    } else if (!p.skip_value()) {
      return fail("the .npy header's '" + excerpt(*key) + "' has an unsupported value " + excerpt(raw));
    }
  }
  if (!p.at_end()) return fail("the .npy header has text after its dict");
  if (!has_descr) return fail("the .npy header has no 'descr'");
  if (!has_order) return fail("the .npy header has no 'fortran_order'");
  if (!has_shape) return fail("the .npy header has no 'shape'");
  return h;
}

}  // namespace gpprobe::cli
