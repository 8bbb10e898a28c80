// "N random observations per class", the same rows in the app and on the command line for the same
// labels and seed (`gpprobe draw` prints them; the app's Observations panel draws through the wasm
// module):
//
//   for each class in the order 1, 0: its rows in ascending order form a pool, and a partial
//   Fisher-Yates takes min(per_class, pool size) of them, pool[k] <-> pool[k + index(pool size - k)]
//   for k = 0, 1, ...; one RandomStream(seed) serves both classes. The chosen rows are returned sorted.
//
//   labels  n values in {0, 1}   ->   at most 2 per_class row indices, ascending, no repeats
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/common/status.h"

namespace gpprobe {

// invalid_argument for a label that is not 0 or 1 (naming its row).
Result<std::vector<std::size_t>> draw_observations(const std::uint8_t* labels, std::size_t n, std::size_t per_class,
                                                   std::uint64_t seed);

}  // namespace gpprobe
