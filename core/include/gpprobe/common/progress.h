// Progress of long work, and how a caller cancels it: the core calls progress(done, total) between
// units of work (blocks of queries, optimiser iterations, trials); returning false stops the work,
// which then returns a Status with code `cancelled`.
#pragma once

#include <cstddef>
#include <functional>

namespace gpprobe {

using ProgressCallback = std::function<bool(std::size_t done, std::size_t total)>;

// Calls `progress` when set; true means "go on".
inline bool report_progress(const ProgressCallback& progress, std::size_t done, std::size_t total) {
  return !progress || progress(done, total);
}

}  // namespace gpprobe
