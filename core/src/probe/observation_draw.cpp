#include "gpprobe/probe/observation_draw.h"

#include <algorithm>
#include <string>
#include <utility>

#include "gpprobe/common/random_stream.h"

namespace gpprobe {

Result<std::vector<std::size_t>> draw_observations(const std::uint8_t* labels, std::size_t n, std::size_t per_class,
                                                   std::uint64_t seed) {
  for (std::size_t i = 0; i < n; ++i) {
    if (labels[i] > 1) {
      return Status(StatusCode::invalid_argument,
                    "label " + std::to_string(i) + " is " + std::to_string(labels[i]) + ", not 0 or 1");
    }
  }
  RandomStream random(seed);
  std::vector<std::size_t> chosen;
  for (const std::uint8_t label : {std::uint8_t(1), std::uint8_t(0)}) {
    std::vector<std::size_t> pool;
    for (std::size_t i = 0; i < n; ++i)
      if (labels[i] == label) pool.push_back(i);
    const std::size_t take = std::min(per_class, pool.size());
    for (std::size_t k = 0; k < take; ++k) {
      std::swap(pool[k], pool[k + random.index(pool.size() - k)]);
      chosen.push_back(pool[k]);
    }
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace gpprobe
