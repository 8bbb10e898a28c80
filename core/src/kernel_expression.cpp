#include "gpprobe/kernel_expression.h"

#include <cctype>
#include <cstdlib>

namespace gpprobe {

namespace {

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  Result<Kernel> parse() {
    Result<Kernel> k = expression();
    if (!k.ok()) return k;
    skip_space();
    if (pos_ < text_.size()) return error("unexpected '" + std::string(1, text_[pos_]) + "'");
    return k;
  }

 private:
  Status error(const std::string& what) const {
    return Status(StatusCode::invalid_argument,
                  "kernel expression '" + text_ + "' at character " + std::to_string(pos_ + 1) + ": " + what);
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

  Result<Kernel> factor() {
    if (accept('(')) {
      Result<Kernel> k = expression();
      if (k.ok() && !accept(')')) return error("expected ')'");
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
    if (!accept('(')) return error("expected '(' after " + name);
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
    return error("no kernel " + name + " with " + count_of(v.size(), "parameter"));
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

}  // namespace

Result<Kernel> parse_kernel(const std::string& text) { return Parser(text).parse(); }

}  // namespace gpprobe
