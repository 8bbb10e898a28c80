#include "gpprobe/linalg/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <vector>

#if defined(GPPROBE_THREADS)
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#if defined(__EMSCRIPTEN__)
#include <emscripten/threading.h>
#endif
#endif

namespace gpprobe {

namespace {

std::size_t default_threads() {
#if defined(GPPROBE_THREADS)
  const std::size_t hardware = std::thread::hardware_concurrency();
  return std::clamp<std::size_t>(hardware, 1, kMaxThreads);
#else
  return 1;
#endif
}

std::atomic<std::size_t> chosen_threads{0};  // 0: the default

void run_serially(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body) {
  if (n > 0) body(0, n);
}

}  // namespace

std::size_t thread_count() {
  const std::size_t chosen = chosen_threads.load();
  return chosen == 0 ? default_threads() : chosen;
}

void set_thread_count(std::size_t threads) {
#if defined(GPPROBE_THREADS)
  chosen_threads.store(std::min(threads, kMaxThreads));
#else
  (void)threads;
#endif
}

#if !defined(GPPROBE_THREADS)

void parallel_for(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body, std::size_t) {
  run_serially(n, body);
}

#else

namespace {

thread_local bool inside_loop = false;

// One loop at a time: the chunks of the current job, claimed in order by the caller and the workers.
class ThreadPool {
 public:
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      stopping_flag_.store(true);
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  // Runs `chunks` chunks of [0, n) on the caller and up to chunks - 1 workers.
  void run(std::size_t n, std::size_t chunks, const std::function<void(std::size_t, std::size_t)>& body) {
    while (workers_.size() + 1 < chunks) workers_.emplace_back([this] { work(); });
    std::vector<std::exception_ptr> errors(chunks);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      body_ = &body;
      n_ = n;
      chunks_ = chunks;
      errors_ = &errors;
      next_.store(1);  // chunk 0 is the caller's (parallel_tasks reports progress from it)
      unfinished_ = chunks;
      all_done_.store(false);
      ++generation_;
      posted_.store(generation_, std::memory_order_release);
    }
    wake_.notify_all();
    run_chunk(0);
    const std::size_t finished = 1 + claim_chunks();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      unfinished_ -= finished;
      if (unfinished_ == 0 && active_ == 0) all_done_.store(true);
    }
    // The workers' last chunks usually end within microseconds: wait for them awake first.
    spin_until([this] { return all_done_.load(std::memory_order_acquire); });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // Every worker back to waiting, so none reads the job while the next one is set up.
      const auto finished_all = [this] { return unfinished_ == 0 && active_ == 0; };
#if defined(__EMSCRIPTEN__)
      // Pool threads proxy some calls (output, ...) to the thread that loaded the module, which is
      // usually this one: serve them while waiting, or such a call would wait for us forever.
      while (!done_.wait_for(lock, std::chrono::milliseconds(1), finished_all)) {
        lock.unlock();
        emscripten_current_thread_process_queued_calls();
        lock.lock();
      }
#else
      done_.wait(lock, finished_all);
#endif
      body_ = nullptr;
    }
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
  }

 private:
  // A hand-off through the condition variables costs a sleep and a wake-up of a thread, tens of
  // microseconds (more on a virtual machine's idle core), and the blocked factorisations hand off
  // two loops per block of 64 columns. So both sides first wait awake, polling an atomic, for about
  // 0.1 ms before they sleep: 4,000 x86 pauses (measured 101 us here), or by the clock where there is no
  // pause instruction to pace the loop (WebAssembly; aarch64's yield is a cycle).
  template <class Ready>
  static bool spin_until(Ready ready) {
#if defined(__x86_64__) || defined(__i386__)
    for (int i = 0; i < 4000; ++i) {
      if (ready()) return true;
      __builtin_ia32_pause();
    }
#else
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
    do {
      for (int i = 0; i < 64; ++i)
        if (ready()) return true;
    } while (std::chrono::steady_clock::now() < deadline);
#endif
    return ready();
  }

  void work() {
    inside_loop = true;
    std::uint64_t seen = 0;
    for (;;) {
      spin_until([&] { return posted_.load(std::memory_order_acquire) != seen || stopping_flag_.load(); });
      {
        std::unique_lock<std::mutex> lock(mutex_);
        if (!stopping_ && generation_ != seen && body_ == nullptr) {
          seen = generation_;  // that job ended before this thread joined it: wait (awake first) for the next
          continue;
        }
        wake_.wait(lock, [&] { return stopping_ || (generation_ != seen && body_ != nullptr); });
        if (stopping_) return;
        seen = generation_;
        ++active_;
      }
      const std::size_t finished = claim_chunks();
      std::lock_guard<std::mutex> lock(mutex_);
      unfinished_ -= finished;
      --active_;
      if (unfinished_ == 0 && active_ == 0) {
        all_done_.store(true, std::memory_order_release);
        done_.notify_one();
      }
    }
  }

  // Runs chunks until none is left; returns how many it ran.
  std::size_t claim_chunks() {
    std::size_t finished = 0;
    for (std::size_t c; (c = next_.fetch_add(1)) < chunks_; ++finished) run_chunk(c);
    return finished;
  }

  void run_chunk(std::size_t c) {
    const std::size_t begin = c * n_ / chunks_, end = (c + 1) * n_ / chunks_;
    try {
      (*body_)(begin, end);
    } catch (...) {
      (*errors_)[c] = std::current_exception();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  const std::function<void(std::size_t, std::size_t)>* body_ = nullptr;
  std::size_t n_ = 0, chunks_ = 0, unfinished_ = 0, active_ = 0;
  std::vector<std::exception_ptr>* errors_ = nullptr;
  std::atomic<std::size_t> next_{0};
  std::uint64_t generation_ = 0;
  bool stopping_ = false;
  // Mirrors for the awake waits (written under mutex_, read without it): generation_, stopping_, and
  // whether the current job's chunks have all finished with no worker inside it.
  std::atomic<std::uint64_t> posted_{0};
  std::atomic<bool> stopping_flag_{false}, all_done_{false};
};

std::mutex pool_mutex;  // held by the thread whose loop the pool is running

}  // namespace

void parallel_for(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body, std::size_t min_chunk) {
  const std::size_t chunks = std::min(thread_count(), n / std::max<std::size_t>(min_chunk, 1));
  if (chunks <= 1 || inside_loop) return run_serially(n, body);
  std::unique_lock<std::mutex> lock(pool_mutex, std::try_to_lock);
  if (!lock.owns_lock()) return run_serially(n, body);
  static ThreadPool pool;
  inside_loop = true;
  try {
    pool.run(n, chunks, body);
  } catch (...) {
    inside_loop = false;
    throw;
  }
  inside_loop = false;
}

#endif

Status parallel_rounds(std::size_t blocks, std::size_t per_thread,
                       const std::function<Status(std::size_t, std::size_t)>& body,
                       const std::function<Status(std::size_t)>& between) {
  const std::size_t threads = thread_count();
  const std::size_t round = threads == 1 ? 1 : threads * std::max<std::size_t>(per_thread, 1);
  for (std::size_t first = 0; first < blocks; first += round) {
    const std::size_t count = std::min(round, blocks - first);
    // The round's blocks are claimed one at a time by whichever thread is free (a slower core takes fewer),
    // every one of them run; then the first failure by block.
    std::vector<Status> statuses(count);
    std::atomic<std::size_t> next{0};
    parallel_for(std::min(threads, count), [&](std::size_t, std::size_t) {
      for (std::size_t b; (b = next.fetch_add(1)) < count;) statuses[b] = body(first + b, first + b + 1);
    });
    for (const Status& status : statuses) GPPROBE_RETURN_IF_ERROR(status);
    GPPROBE_RETURN_IF_ERROR(between(first + count));
  }
  return Status::success();
}

Status parallel_tasks(std::size_t count, const std::function<Status(std::size_t)>& task,
                      const std::function<Status(std::size_t)>& between) {
  std::vector<Status> statuses(count);
  std::atomic<std::size_t> next{0}, finished{0};
  std::atomic<bool> stop{false};
  Status stopped = Status::success();  // between's failure (written on the caller's thread only)
  std::size_t reported = 0;
  const auto report = [&](std::size_t done) {
    Status s = between(done);
    reported = done;
    if (!s.ok()) {
      stopped = std::move(s);
      stop.store(true);
    }
  };
  parallel_for(std::min(thread_count(), count), [&](std::size_t begin, std::size_t) {
    const bool reporter = begin == 0;  // the caller's chunk (parallel_for runs chunk 0 on the caller)
    for (std::size_t i; !stop.load() && (i = next.fetch_add(1)) < count;) {
      statuses[i] = task(i);
      const std::size_t done = finished.fetch_add(1) + 1;
      if (!statuses[i].ok()) stop.store(true);
      else if (reporter) report(done);
    }
  });
  for (const Status& status : statuses) GPPROBE_RETURN_IF_ERROR(status);
  if (stopped.ok() && finished.load() > reported) report(finished.load());
  return stopped;
}

}  // namespace gpprobe
