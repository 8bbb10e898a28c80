// A portable parallel loop over [0, n): contiguous chunks on a fixed pool of threads, the caller's
// thread taking chunks too. Each index is handled by exactly one call of the body, by the same
// code whichever thread runs it, so a body that writes only its own indices gives bit-identical results
// for every thread count (nothing is reduced across threads here).
//
//   gpprobe::parallel_for(rows, [&](std::size_t begin, std::size_t end) {
//     for (std::size_t i = begin; i < end; ++i) out[i] = f(i);
//   });
//
// Serial (the body once over [0, n)) when the build has no threads (GPPROBE_THREADS undefined, e.g. the
// single-threaded wasm module), when thread_count() is 1, when n is small, and when called from inside
// another parallel_for's body or while another thread's loop is running.
#pragma once

#include <cstddef>
#include <functional>

#include "gpprobe/common/status.h"

namespace gpprobe {

// Threads the next loops use: the caller plus thread_count() - 1 pool threads. Defaults to the hardware
// concurrency capped at kMaxThreads; always 1 in a build without threads.
std::size_t thread_count();
// 0 restores the default; larger than kMaxThreads is capped. Threads are started on first use and kept.
void set_thread_count(std::size_t threads);
constexpr std::size_t kMaxThreads = 16;

// Calls body(begin, end) over contiguous chunks covering [0, n) in order of begin, at most
// thread_count() chunks of at least `min_chunk` indices each; the chunk that begins at 0 runs on the
// caller's thread. Returns when every chunk is done; an
// exception thrown by a body is rethrown here (the first chunk's, by index).
void parallel_for(std::size_t n, const std::function<void(std::size_t begin, std::size_t end)>& body,
                  std::size_t min_chunk = 1);

// Long work in blocks, with progress and cancel between rounds: blocks [0, blocks) go in rounds of
// `per_thread` blocks per thread (one block per round on one thread, as a serial loop would), each
// round's blocks claimed one at a time by the threads as they become free, so every block before a
// round's end is done when between runs. body(begin, end) runs blocks [begin, end) and returns the first
// failure. After a round, the first failing block's status is returned; else between(end), called on the
// caller's thread with the number of blocks done, decides whether to go on.
Status parallel_rounds(std::size_t blocks, std::size_t per_thread,
                       const std::function<Status(std::size_t begin, std::size_t end)>& body,
                       const std::function<Status(std::size_t done)>& between);

// Independent tasks of unequal length: task(i) for every i in [0, count), each once, claimed in index
// order by the caller and the pool threads as each becomes free (so put the longest first). After each
// task the caller's thread itself finishes, between(done) runs there with the number of tasks finished
// so far on any thread, and once more at the end if that count has grown since; a failing task or
// between stops the claiming. Returns the failure of the lowest-indexed failing task, else between's,
// else success. What a task writes must be its own (results then do not depend on the thread count).
Status parallel_tasks(std::size_t count, const std::function<Status(std::size_t task)>& task,
                      const std::function<Status(std::size_t done)>& between);

}  // namespace gpprobe
