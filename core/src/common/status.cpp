#include "gpprobe/common/status.h"

#include "gpprobe/common/enum_names.h"

namespace gpprobe {

const char* code_name(StatusCode code) { return name_of(kStatusCodeNames, code); }

std::string count_of(std::size_t n, const char* singular, const char* plural) {
  const std::string many = plural ? plural : std::string(singular) + "s";
  return std::to_string(n) + " " + (n == 1 ? std::string(singular) : many);
}

}  // namespace gpprobe
