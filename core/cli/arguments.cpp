#include "arguments.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "gpprobe/common/number_text.h"

namespace gpprobe::cli {

const std::map<std::string, double>& work_limits() {
  static const std::map<std::string, double> limits = {{"restarts", 1000},       {"max-iterations", 1000000},
                                                       {"trials", 1000},         {"members", 10000},
                                                       {"time-limit", 86400},    {"n", 20000},
                                                       {"test", 10000000},       {"queries", 10000000},
                                                       {"observations", 100000}, {"dimension", 100000},
                                                       {"dimensions", 10000},    {"sweep", 1000},
                                                       {"gammas", 1000},         {"repeats", 100}};
  return limits;
}

namespace {

// invalid_argument "--restarts must be at most 1000, got '4294967297' (...)" past the flag's work limit.
Status within_limit(const std::string& name, double value, const std::string& text) {
  const auto it = work_limits().find(name);
  if (it == work_limits().end() || value <= it->second) return Status::success();
  return Status(StatusCode::invalid_argument, "--" + name + " must be at most " + number_text(it->second) + ", got '" +
                                                  text + "' (a cap on the work one command may ask for)");
}

}  // namespace

Result<Arguments> Arguments::parse(const std::vector<std::string>& args, const std::set<std::string>& valued,
                                   const std::set<std::string>& switches) {
  Arguments out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      return Status(StatusCode::invalid_argument, "unexpected argument '" + a + "'");
    }
    std::string name = a.substr(2), value;
    const auto eq = name.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (switches.count(name)) {
      if (inline_value) return Status(StatusCode::invalid_argument, "--" + name + " takes no value");
      out.values_[name] = "";
      continue;
    }
    if (!valued.count(name)) return Status(StatusCode::invalid_argument, "unknown option --" + name);
    if (!inline_value) {
      if (i + 1 >= args.size()) return Status(StatusCode::invalid_argument, "--" + name + " needs a value");
      value = args[++i];
    }
    out.values_[name] = value;
  }
  return out;
}

Result<std::string> Arguments::required(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return Status(StatusCode::invalid_argument, "missing --" + name);
  return it->second;
}

std::string Arguments::get(const std::string& name, const std::string& fallback) const {
  const auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

Result<double> Arguments::number(const std::string& name, double fallback) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  if (it->second.empty() || end != it->second.c_str() + it->second.size() || !std::isfinite(v)) {
    return Status(StatusCode::invalid_argument, "--" + name + " expects a finite number, got '" + it->second + "'");
  }
  GPPROBE_RETURN_IF_ERROR(within_limit(name, v, it->second));
  return v;
}

Result<long long> Arguments::integer(const std::string& name, long long fallback) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(it->second.c_str(), &end, 10);
  if (it->second.empty() || end != it->second.c_str() + it->second.size() || errno != 0 || v < 0) {
    return Status(StatusCode::invalid_argument,
                  "--" + name + " expects a non-negative integer, got '" + it->second + "'");
  }
  GPPROBE_RETURN_IF_ERROR(within_limit(name, double(v), it->second));
  return v;
}

namespace {

// The comma-separated items of `text`, each through parse (false: not a valid item).
template <class T, class Parse>
Result<std::vector<T>> list_of(const std::string& name, const std::string& text, const char* what, Parse parse) {
  std::vector<T> values;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    T value{};
    if (!parse(item, &value)) {
      return Status(StatusCode::invalid_argument,
                    "--" + name + " expects " + what + " separated by commas, got '" + text + "'");
    }
    values.push_back(value);
    if (comma == std::string::npos) return values;
    start = comma + 1;
  }
}

}  // namespace

Result<std::vector<double>> Arguments::numbers(const std::string& name, const std::string& fallback) const {
  Result<std::vector<double>> values =
      list_of<double>(name, get(name, fallback), "numbers", [](const std::string& item, double* v) {
        char* end = nullptr;
        *v = std::strtod(item.c_str(), &end);
        return !item.empty() && end == item.c_str() + item.size() && std::isfinite(*v);
      });
  // A list of runs (--sweep, --gammas): its length is the work.
  if (values.ok()) {
    const double n = double(values.value().size());
    GPPROBE_RETURN_IF_ERROR(within_limit(name, n, std::to_string(values.value().size()) + " values"));
  }
  return values;
}

namespace {

// One non-negative integer, all of `item`.
bool parse_index(const std::string& item, std::size_t* v) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(item.c_str(), &end, 10);
  *v = std::size_t(value);
  return !item.empty() && item[0] != '-' && end == item.c_str() + item.size() && errno == 0;
}

}  // namespace

Result<std::vector<std::size_t>> Arguments::counts(const std::string& name, const std::string& fallback) const {
  Result<std::vector<std::size_t>> values =
      list_of<std::size_t>(name, get(name, fallback), "positive integers",
                           [](const std::string& item, std::size_t* v) { return parse_index(item, v) && *v > 0; });
  if (values.ok()) {
    for (std::size_t v : values.value()) GPPROBE_RETURN_IF_ERROR(within_limit(name, double(v), std::to_string(v)));
  }
  return values;
}

Result<std::vector<std::size_t>> Arguments::indices(const std::string& name, const std::string& fallback) const {
  return list_of<std::size_t>(name, get(name, fallback), "non-negative integers", parse_index);
}

}  // namespace gpprobe::cli
