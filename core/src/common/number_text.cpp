#include "gpprobe/common/number_text.h"

#include <algorithm>
#include <cstdio>

namespace gpprobe {

std::string number_text(double v, int digits) {
  char buffer[40];  // "-1.2345678901234567e-308" is 24 characters; digits is held to 1..17
  std::snprintf(buffer, sizeof buffer, "%.*g", std::clamp(digits, 1, 17), v);
  return buffer;
}

}  // namespace gpprobe
