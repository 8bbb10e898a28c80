// Command-line flags of one subcommand: `--name value` pairs and bare `--switch`es, checked against the
// names the subcommand declares. Unknown flags and missing values are usage errors, never crashes.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpprobe/status.h"

namespace gpprobe::cli {

class Arguments {
 public:
  // `valued`: flags that take a value; `switches`: flags that do not.
  static gpprobe::Result<Arguments> parse(const std::vector<std::string>& args, const std::set<std::string>& valued,
                                          const std::set<std::string>& switches = {});

  bool has(const std::string& name) const { return values_.count(name) > 0; }
  // invalid_argument naming the flag when it is missing.
  gpprobe::Result<std::string> required(const std::string& name) const;
  std::string get(const std::string& name, const std::string& fallback) const;
  // A finite number; invalid_argument "--epsilon expects a number, got 'abc'".
  gpprobe::Result<double> number(const std::string& name, double fallback) const;
  // A non-negative integer.
  gpprobe::Result<long long> integer(const std::string& name, long long fallback) const;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace gpprobe::cli
