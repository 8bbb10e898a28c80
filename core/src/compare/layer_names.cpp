#include "gpprobe/compare/layer_names.h"

#include <cctype>
#include <set>

namespace gpprobe {

namespace {

struct DigitRuns {
  std::vector<std::size_t> begin, end;  // [begin, end) of each run of digits
};

// The name without a trailing extension: ".npy", ".bytes" (a dot followed by letters only, after
// something that is not a dot).
std::string without_extension(const std::string& name) {
  const std::size_t dot = name.find_last_of('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == name.size()) return name;
  for (std::size_t i = dot + 1; i < name.size(); ++i) {
    if (!std::isalpha(static_cast<unsigned char>(name[i]))) return name;
  }
  return name.substr(0, dot);
}

DigitRuns digit_runs(const std::string& s) {
  DigitRuns runs;
  for (std::size_t i = 0; i < s.size();) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    runs.begin.push_back(i);
    runs.end.push_back(j);
    i = j;
  }
  return runs;
}

// The last word of letters in `text` ("layer" in "model2_layer_"), lower case.
std::string last_word(const std::string& text) {
  std::size_t end = text.size();
  while (end > 0 && !std::isalpha(static_cast<unsigned char>(text[end - 1]))) --end;
  std::size_t begin = end;
  while (begin > 0 && std::isalpha(static_cast<unsigned char>(text[begin - 1]))) --begin;
  std::string word = text.substr(begin, end - begin);
  for (char& ch : word) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return word;
}

}  // namespace

LayerNames layer_names(const std::vector<std::string>& names) {
  LayerNames result;
  if (names.empty()) return result;
  std::vector<std::string> stems;
  std::vector<DigitRuns> runs;
  for (const std::string& name : names) {
    stems.push_back(without_extension(name));
    runs.push_back(digit_runs(stems.back()));
    if (runs.back().begin.size() != runs.front().begin.size()) return result;
  }
  for (std::size_t r = runs.front().begin.size(); r-- > 0;) {
    const std::string prefix = stems.front().substr(0, runs.front().begin[r]);
    std::set<long long> seen;
    std::vector<long long> numbers;
    bool ok = true;
    for (std::size_t k = 0; k < names.size() && ok; ++k) {
      const std::size_t begin = runs[k].begin[r], end = runs[k].end[r];
      if (stems[k].compare(0, begin, prefix) != 0 || begin != prefix.size() || end - begin > 15) {
        ok = false;
        break;
      }
      numbers.push_back(std::stoll(stems[k].substr(begin, end - begin)));
      ok = seen.insert(numbers.back()).second;
    }
    if (ok) {
      result.layered = true;
      result.noun = last_word(prefix);
      result.numbers = numbers;
      return result;
    }
  }
  return result;
}

}  // namespace gpprobe
