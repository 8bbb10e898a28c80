#include "gpprobe/kernels/kernel_expression.h"

#include <cctype>
#include <cstdlib>

namespace gpprobe {

namespace {

// Texts longer than this are named by their length in messages instead of quoted in full; names and
// characters are shown printable and at most this long.
constexpr std::size_t kQuotedLength = 80;
constexpr std::size_t kShownName = 40;

std::string shown(const std::string& s, std::size_t limit = kShownName) {
  std::string out;
  for (char c : s.substr(0, limit)) out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  return s.size() > limit ? out + "..." : out;
}

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  Result<Kernel> parse() {
    if (text_.size() > kMaxKernelExpressionLength) {
      return Status(StatusCode::invalid_argument, "kernel expression of " + std::to_string(text_.size()) +
                                                      " characters is too long (at most " +
                                                      std::to_string(kMaxKernelExpressionLength) + ")");
    }
    Result<Kernel> k = expression();
    if (!k.ok()) return k;
    skip_space();
    if (pos_ < text_.size()) return error("unexpected '" + shown(std::string(1, text_[pos_])) + "'");
    return k;
  }

 private:
  Status error(const std::string& what) const {
    const std::string quoted = text_.size() <= kQuotedLength ? "'" + shown(text_, kQuotedLength) + "'"
                                                             : "of " + std::to_string(text_.size()) + " characters";
    return Status(StatusCode::invalid_argument,
                  "kernel expression " + quoted + " at character " + std::to_string(pos_ + 1) + ": " + what);
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  Result<Kernel> expression() {
    Result<Kernel> k = term();
    while (k.ok() && accept('+')) {
      Result<Kernel> right = term();
      if (!right.ok()) return right;
      k = k.value() + right.value();
    }
    return k;
  }

  Result<Kernel> term() {
    Result<Kernel> k = factor();
    while (k.ok() && accept('*')) {
      Result<Kernel> right = factor();
      if (!right.ok()) return right;
      k = k.value() * right.value();
    }
    return k;
  }

  // Each '(' recurses once (factor -> expression -> term -> factor), and a sum or product of n kernels
  // is a tree of depth n that is evaluated and destroyed recursively: both are bounded, so no text can
  // exhaust the stack (20,000 nested parentheses are an error, not a crash).
  Result<Kernel> factor() {
    if (accept('(')) {
      if (++depth_ > kMaxKernelNesting) {
        --pos_;
        return error("parentheses nested deeper than " + std::to_string(kMaxKernelNesting));
      }
      Result<Kernel> k = expression();
      if (k.ok() && !accept(')')) return error("expected ')'");
      --depth_;
      return k;
    }
    skip_space();
    const std::size_t start = pos_;
    // Names are letters, digits, '_' and '-' ("locally-periodic"); a number never starts a name.
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                                   (text_[pos_] == '-' && pos_ > start)))
      ++pos_;
    const std::string name = text_.substr(start, pos_ - start);
    if (name.empty()) return error("expected a kernel name");
    if (++kernels_ > kMaxKernelTerms) {
      pos_ = start;
      return error("more than " + std::to_string(kMaxKernelTerms) + " kernels");
    }
    if (!accept('(')) return error("expected '(' after " + shown(name));
    std::vector<double> v;
    skip_space();
    if (!accept(')')) {
      do {
        skip_space();
        char* end = nullptr;
        const double x = std::strtod(text_.c_str() + pos_, &end);
        if (end == text_.c_str() + pos_) return error("expected a number");
        pos_ = std::size_t(end - text_.c_str());
        v.push_back(x);
      } while (accept(','));
      if (!accept(')')) return error("expected ')'");
    }
    return make(name, v);
  }

  Result<Kernel> make(const std::string& name, const std::vector<double>& v) {
    const auto arity = [&](std::size_t n) { return v.size() == n; };
    if (name == "constant" && arity(1)) return Kernel::constant(v[0]);
    if (name == "rbf" && !v.empty()) return Kernel::rbf(v);
    if (name == "matern12" && !v.empty()) return Kernel::matern12(v);
    if (name == "matern32" && !v.empty()) return Kernel::matern32(v);
    if (name == "matern52" && !v.empty()) return Kernel::matern52(v);
    if (name == "periodic" && arity(2)) return Kernel::periodic(v[0], v[1]);
    if ((name == "locally-periodic" || name == "locally_periodic") && arity(3))
      return Kernel::locally_periodic(v[0], v[1], v[2]);
    if (name == "linear" && arity(1)) return Kernel::linear(v[0]);
    if (name == "cosine" && arity(0)) return Kernel::cosine();
    return error("no kernel " + shown(name) + " with " + count_of(v.size(), "parameter"));
  }

  const std::string& text_;
  std::size_t pos_ = 0;
  std::size_t depth_ = 0;    // parentheses open around pos_
  std::size_t kernels_ = 0;  // kernel names read so far
};

}  // namespace

Result<Kernel> parse_kernel(const std::string& text) { return Parser(text).parse(); }

}  // namespace gpprobe
