// Command-line flags of one subcommand: `--name value` pairs and bare `--switch`es, checked against the
// names the subcommand declares. Unknown flags and missing values are usage errors, never crashes.
//
// Flags that set an amount of work are capped (work_limits), whichever command reads them, so that a
// typo's extra digits cannot run for days: --restarts 1000, --max-iterations 1000000, --trials 1000,
// --members 10000, --time-limit 86400 (seconds), the benchmarks' sizes (--n 20000, --test 10000000,
// --queries 10000000, --observations 100000 each, --dimension 100000, --dimensions 10000 each, --repeats 100), and
// lists of runs (--sweep, --gammas: 1000 values). Past one: invalid_argument "--restarts must be at
// most 1000, got '4294967297' (a cap on the work one command may ask for)".
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpprobe/common/status.h"

namespace gpprobe::cli {

// Flag name -> the largest value integer(), number() and counts() accept (for --sweep and --gammas,
// numbers(): the largest number of values).
const std::map<std::string, double>& work_limits();

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
  // Comma-separated finite numbers, "0.9,1.3"; invalid_argument "--length-scales expects numbers
  // separated by commas, got '1,x'". `fallback` is parsed when the flag is absent.
  gpprobe::Result<std::vector<double>> numbers(const std::string& name, const std::string& fallback) const;
  // Comma-separated positive integers, "100,1000,4000"; invalid_argument "--observations expects positive
  // integers separated by commas, got '100,x'".
  gpprobe::Result<std::vector<std::size_t>> counts(const std::string& name, const std::string& fallback) const;
  // Comma-separated non-negative integers (coordinates, row numbers), "0,5,7"; invalid_argument
  // "--certify-dims expects non-negative integers separated by commas, got '0,-1'".
  gpprobe::Result<std::vector<std::size_t>> indices(const std::string& name, const std::string& fallback) const;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace gpprobe::cli
