// The parallel loop (parallel_for.h) and the scoring paths that use it: every index handled exactly once
// in order-independent chunks, and probe scores, kept scores and their rank-one updates bit for bit the
// same on 2, 3 and 7 threads as on one, on sizes that leave ragged last blocks and chunks, and so are the
// fits' blocked products and the weight-space fit's own outputs. With threads on, the golden numbers
// still hold.
#include "gpprobe/linalg/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/evaluation/synthetic_embeddings.h"
#include "gpprobe/linalg/blocked_cholesky.h"
#include "gpprobe/linalg/row_products.h"
#include "gpprobe/probe/leave_one_out.h"
#include "gpprobe/probe/probe.h"
#include "gpprobe/probe/scored_queries.h"

#include "result_assertions.h"
#include "test_support.h"

namespace gpprobe {
namespace {

constexpr std::size_t kThreadCounts[] = {2, 3, 7};

// Restores the default thread count when a test ends.
struct ThreadCount {
  explicit ThreadCount(std::size_t n) { set_thread_count(n); }
  ~ThreadCount() { set_thread_count(0); }
};

// Bitwise equality of two vectors of doubles (NaN-safe, -0 != +0).
void expect_bitwise_equal(const std::vector<double>& a, const std::vector<double>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(std::memcmp(&a[i], &b[i], sizeof(double)), 0)
        << what << ": value " << i << " is " << a[i] << " vs " << b[i];
  }
}

TEST(ParallelFor, CoversEveryIndexOnceInContiguousChunks) {
  for (std::size_t threads : {1, 2, 3, 7}) {
    ThreadCount set(threads);
    for (std::size_t n : {0, 1, 2, 5, 6, 7, 8, 1001}) {
      std::vector<int> hits(n, 0);
      parallel_for(n, [&](std::size_t begin, std::size_t end) {
        ASSERT_LT(begin, end);
        for (std::size_t i = begin; i < end; ++i) ++hits[i];
      });
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i], 1) << "index " << i << " of " << n;
    }
  }
}

TEST(ParallelFor, ChunksRespectTheMinimumAndTheThreadCount) {
  ThreadCount set(7);
  EXPECT_EQ(thread_count(), 7u);
  std::size_t chunks = 0;
  std::vector<std::pair<std::size_t, std::size_t>> seen(7);
  parallel_for(
      1000,
      [&](std::size_t begin, std::size_t end) {
        seen[begin * 7 / 1000] = {begin, end};
      },
      300);
  // 1000 / 300 = 3 chunks at most: [0, 333), [333, 666), [666, 1000).
  for (const auto& [begin, end] : seen) chunks += end > begin;
  EXPECT_EQ(chunks, 3u);
  EXPECT_EQ(seen[0], std::make_pair(std::size_t(0), std::size_t(333)));
  EXPECT_EQ(seen[4], std::make_pair(std::size_t(666), std::size_t(1000)));
}

TEST(ParallelFor, NestedLoopsRunSeriallyAndExceptionsReachTheCaller) {
  ThreadCount set(3);
  std::vector<int> hits(30 * 30, 0);
  parallel_for(30, [&](std::size_t b0, std::size_t b1) {
    for (std::size_t i = b0; i < b1; ++i) {
      parallel_for(30, [&](std::size_t c0, std::size_t c1) {
        for (std::size_t j = c0; j < c1; ++j) ++hits[i * 30 + j];
      });
    }
  });
  for (int h : hits) ASSERT_EQ(h, 1);
  EXPECT_THROW(parallel_for(9,
                            [](std::size_t begin, std::size_t) {
                              if (begin > 0) throw std::runtime_error("chunk failed");
                            }),
               std::runtime_error);
  // The pool still works after a throwing loop.
  std::vector<int> again(9, 0);
  parallel_for(9, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) again[i] = 1;
  });
  for (int h : again) EXPECT_EQ(h, 1);
}

TEST(ParallelFor, RoundsReturnTheFirstFailingBlockAndStopOnCancel) {
  ThreadCount set(3);
  const Status failed = parallel_rounds(
      20, 2,
      [](std::size_t begin, std::size_t end) {
        for (std::size_t b = begin; b < end; ++b)
          if (b == 8 || b == 10) return Status(StatusCode::numerical_failure, "block " + std::to_string(b));
        return Status::success();
      },
      [](std::size_t) { return Status::success(); });
  EXPECT_EQ(failed.message(), "block 8");
  std::vector<std::size_t> reported;
  const Status cancelled = parallel_rounds(
      20, 2, [](std::size_t, std::size_t) { return Status::success(); },
      [&](std::size_t done) {
        reported.push_back(done);
        return done >= 12 ? Status(StatusCode::cancelled, "stop") : Status::success();
      });
  EXPECT_EQ(cancelled.code(), StatusCode::cancelled);
  EXPECT_EQ(reported, (std::vector<std::size_t>{6, 12}));  // rounds of 3 threads x 2 blocks
}

TEST(ParallelFor, TasksRunOnceEachAndReportOnTheCallersThreadOnly) {
  const std::thread::id caller = std::this_thread::get_id();
  for (std::size_t threads : {1, 2, 3, 7}) {
    ThreadCount set(threads);
    for (std::size_t count : {0, 1, 2, 9, 40}) {
      std::vector<std::atomic<int>> runs(count);
      std::vector<std::size_t> reported;
      const Status s = parallel_tasks(
          count,
          [&](std::size_t i) {
            // Unequal lengths, longest first, as the experiments order them.
            volatile double sink = 0;
            for (std::size_t k = 0; k < (count - i) * 2000; ++k) sink = sink + double(k);
            ++runs[i];
            return Status::success();
          },
          [&](std::size_t done) {
            EXPECT_EQ(std::this_thread::get_id(), caller);
            reported.push_back(done);
            return Status::success();
          });
      ASSERT_TRUE(s.ok()) << s.message();
      for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(runs[i].load(), 1) << "task " << i << " of " << count;
      if (count == 0) {
        EXPECT_TRUE(reported.empty());
        continue;
      }
      // Counts only grow and the last one is every task; on one thread, one report per task.
      EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()) &&
                  std::adjacent_find(reported.begin(), reported.end()) == reported.end());
      EXPECT_EQ(reported.back(), count) << threads << " threads";
      if (threads == 1) EXPECT_EQ(reported.size(), count);
    }
  }
}

TEST(ParallelFor, TasksReturnTheLowestFailingTaskAndStopOnCancel) {
  for (std::size_t threads : {1, 3}) {
    ThreadCount set(threads);
    // Tasks 3 and 5 fail; whichever thread meets one first, the lowest-indexed failure is returned
    // (task 3 is always claimed: claiming stops only after some task has failed, and 3 < 5).
    const Status failed = parallel_tasks(
        12,
        [](std::size_t i) {
          return i == 3 || i == 5 ? Status(StatusCode::numerical_failure, "task " + std::to_string(i))
                                  : Status::success();
        },
        [](std::size_t) { return Status::success(); });
    EXPECT_EQ(failed.message(), "task 3") << threads << " threads";
    std::atomic<std::size_t> ran{0};
    std::vector<std::size_t> reported;
    const Status cancelled = parallel_tasks(
        50,
        [&](std::size_t) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
          ++ran;
          return Status::success();
        },
        [&](std::size_t done) {
          reported.push_back(done);
          return done >= 4 ? Status(StatusCode::cancelled, "stop at " + std::to_string(done)) : Status::success();
        });
    EXPECT_EQ(cancelled.code(), StatusCode::cancelled);
    EXPECT_EQ(cancelled.message(), "stop at " + std::to_string(reported.back()));
    EXPECT_LT(ran.load(), 50u) << "claiming went on after the cancel";
    if (threads == 1) EXPECT_EQ(reported, (std::vector<std::size_t>{1, 2, 3, 4}));
  }
}

// All seven columns of a probe's scores of `queries`, on `threads` threads.
std::vector<double> probe_scores(const Probe& probe, const MatrixView& queries, std::size_t threads) {
  ThreadCount set(threads);
  const std::size_t n = queries.rows();
  std::vector<double> all(7 * n);
  double* b = all.data();
  const ProbeScoreColumns out{b, b + n, b + 2 * n, b + 3 * n, b + 4 * n, b + 5 * n, b + 6 * n};
  EXPECT_TRUE(probe.score(queries, out).ok());
  return all;
}

TEST(ParallelScoring, ProbeScoresAreBitIdenticalOnAnyThreadCount) {
  // 1,337 queries: five blocks of 256 and a ragged 57; d = 23 and 48 (odd and lane-aligned widths).
  for (std::size_t d : {23, 48}) {
    const SyntheticEmbeddings obs = synthetic_embeddings(60, d, 3);
    const SyntheticEmbeddings q = synthetic_embeddings(1337, d, 4);
    for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
      const Probe probe = testing::fitted_probe(obs.x, obs.labels, 0.05, 2.0, space);
      const std::vector<double> serial = probe_scores(probe, MatrixView(q.x), 1);
      for (std::size_t threads : kThreadCounts) {
        expect_bitwise_equal(
            probe_scores(probe, MatrixView(q.x), threads), serial,
            std::string(space_name(space)) + " d=" + std::to_string(d) + " on " + std::to_string(threads) + " threads");
      }
    }
  }
}

// Kept scores of `queries` through a fit, adds and removes, all on `threads` threads: the latents and
// the measures after every change.
std::vector<double> kept_history(const SyntheticEmbeddings& pool, const MatrixView& queries, PosteriorSpace space,
                                 std::size_t threads) {
  ThreadCount set(threads);
  ProbeOptions options;
  options.space = space;
  Result<Probe> fitted = Probe::fit(MatrixView(RowMatrix(pool.x.topRows(20))), pool.labels.data(), 20, options);
  EXPECT_TRUE(fitted.ok());
  Probe probe = ok_value(std::move(fitted));
  ScoredQueries kept(queries);
  EXPECT_TRUE(kept.score(probe).ok());
  std::vector<double> history;
  const std::size_t n = queries.rows();
  const auto record = [&] {
    std::vector<double> judged(n), episteme(n), alea(n);
    ProbeScoreColumns out;
    out.judged_probability = judged.data();
    out.episteme = episteme.data();
    out.alea = alea.data();
    EXPECT_TRUE(kept.write(out, 0, n).ok());
    for (const std::vector<double>* column : std::initializer_list<const std::vector<double>*>{
             &kept.latent_mean(), &kept.latent_variance(), &judged, &episteme, &alea})
      history.insert(history.end(), column->begin(), column->end());
  };
  record();
  for (std::size_t k = 20; k < 26; ++k) {
    const RowMatrix row = pool.x.row(Eigen::Index(k));
    EXPECT_TRUE(kept.add_observation(&probe, MatrixView(row), pool.labels[k]).ok());
    record();
  }
  for (std::size_t index : {3, 0, 10}) {
    EXPECT_TRUE(kept.remove_observation(&probe, index).ok());
    record();
  }
  EXPECT_EQ(kept.full_rescores(), 0u) << "every change should have been a rank-one update";
  return history;
}

TEST(ParallelScoring, KeptScoresAndTheirUpdatesAreBitIdenticalOnAnyThreadCount) {
  // 2,111 queries: four blocks of 512 and a ragged 63, float32 as the app keeps them.
  const SyntheticEmbeddings pool = synthetic_embeddings(40, 19, 8);
  const SyntheticEmbeddings q = synthetic_embeddings(2111, 19, 9);
  using FloatRows = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const FloatRows q32 = q.x.cast<float>();
  const MatrixView queries(q32.data(), std::size_t(q32.rows()), std::size_t(q32.cols()));
  for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
    const std::vector<double> serial = kept_history(pool, queries, space, 1);
    for (std::size_t threads : kThreadCounts) {
      expect_bitwise_equal(kept_history(pool, queries, space, threads), serial,
                           std::string(space_name(space)) + " on " + std::to_string(threads) + " threads");
    }
  }
}

TEST(ParallelScoring, Float32ProductsAreBitIdenticalOnAnyThreadCount) {
  // Weight space with float32 products (ProbeOptions::float32_products) on float32 queries (the first 300
  // are the observations, of strength 1e4): in ragged blocks, the float32 kernel gives every query the
  // same bits whichever thread scores it.
  const SyntheticEmbeddings pool = synthetic_embeddings(300, 19, 8);
  const SyntheticEmbeddings q = synthetic_embeddings(2111, 19, 9);
  using FloatRows = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  FloatRows q32 = q.x.cast<float>();
  q32.topRows(300) = pool.x.cast<float>();
  const MatrixView queries(q32.data(), std::size_t(q32.rows()), std::size_t(q32.cols()));
  ProbeOptions options;
  options.space = PosteriorSpace::weight;
  options.strength = 1e4;
  options.float32_products = true;
  const auto scores = [&](std::size_t threads) {
    ThreadCount set(threads);
    Result<Probe> probe = Probe::fit(MatrixView(pool.x), pool.labels.data(), pool.labels.size(), options);
    EXPECT_TRUE(probe.ok());
    std::vector<double> mean(queries.rows()), variance(queries.rows()), episteme(queries.rows());
    ProbeScoreColumns out;
    out.latent_mean = mean.data();
    out.latent_variance = variance.data();
    out.episteme = episteme.data();
    EXPECT_TRUE(ok_value(probe).score(queries, out).ok());
    variance.insert(variance.end(), mean.begin(), mean.end());
    variance.insert(variance.end(), episteme.begin(), episteme.end());
    return variance;
  };
  const std::vector<double> serial = scores(1);
  for (std::size_t threads : kThreadCounts)
    expect_bitwise_equal(scores(threads), serial, std::to_string(threads) + " threads");
}

TEST(ParallelScoring, GoldenNumbersHoldOnSevenThreads) {
  ThreadCount set(7);
  for (const testing::GoldenCase& g : testing::golden_cases()) {
    for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
      const Probe probe = testing::fitted_probe(g.observations, g.labels, g.epsilon, g.strength, space);
      const std::size_t n = g.mean.size();
      const std::vector<double> all = probe_scores(probe, MatrixView(g.queries), 7);
      for (std::size_t i = 0; i < n; ++i) {
        EXPECT_NEAR(all[i], g.judged[i], 1e-8) << g.name;
        EXPECT_NEAR(all[n + i], g.episteme[i], 1e-8) << g.name;
        EXPECT_NEAR(all[2 * n + i], g.alea[i], 1e-8) << g.name;
        EXPECT_NEAR(all[3 * n + i], g.mean[i], 1e-8) << g.name;
        EXPECT_NEAR(all[4 * n + i], g.variance[i], 1e-8) << g.name;
      }
    }
  }
}

// The fit's products on `threads` threads: a Gram matrix, then the blocked Cholesky, triangular inverse
// and inverse of an SPD matrix of order n (sizes around and across the 64-row blocks), all in one vector.
std::vector<double> blocked_products(std::size_t n, std::size_t threads) {
  ThreadCount set(threads);
  const SyntheticEmbeddings rows = synthetic_embeddings(n, n + 5, 9);
  std::vector<double> out(n * n), A(n * n), U(n * n);
  multiply_self_transposed(rows.x.data(), n, n + 5, A.data());
  for (std::size_t i = 0; i < n; ++i) A[i * n + i] += 1.0;
  std::vector<double> all = A;
  EXPECT_TRUE(cholesky_in_place(A.data(), n, "A").ok());
  all.insert(all.end(), A.begin(), A.end());
  invert_lower_transposed(A.data(), n, U.data());
  all.insert(all.end(), U.begin(), U.end());
  gram_of_upper_in_place(U.data(), n, true);
  all.insert(all.end(), U.begin(), U.end());
  return all;
}

TEST(ParallelFits, BlockedProductsAreBitIdenticalOnAnyThreadCount) {
  for (std::size_t n : {1, 63, 65, 200, 769}) {
    const std::vector<double> serial = blocked_products(n, 1);
    for (std::size_t threads : kThreadCounts) {
      expect_bitwise_equal(blocked_products(n, threads), serial,
                           "n=" + std::to_string(n) + " on " + std::to_string(threads) + " threads");
    }
  }
}

// A probe fitted, scored (long enough for the weight-space factor of S) and left out one at a time, all
// on `threads` threads.
std::vector<double> fitted_on(std::size_t threads, PosteriorSpace space) {
  ThreadCount set(threads);
  const SyntheticEmbeddings obs = synthetic_embeddings(300, 260, 5);
  const SyntheticEmbeddings q = synthetic_embeddings(600, 260, 6);
  const Probe probe = testing::fitted_probe(obs.x, obs.labels, 0.1, 5.0, space);
  std::vector<double> all = probe_scores(probe, MatrixView(q.x), threads);
  Result<LeaveOneOut> loo = leave_one_out(probe, space);
  EXPECT_TRUE(loo.ok());
  all.insert(all.end(), loo.value().judged_probability.begin(), loo.value().judged_probability.end());
  all.insert(all.end(), loo.value().latent_variance.begin(), loo.value().latent_variance.end());
  return all;
}

TEST(ParallelFits, ProbeFitsAreBitIdenticalOnAnyThreadCount) {
  for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
    const std::vector<double> serial = fitted_on(1, space);
    for (std::size_t threads : kThreadCounts) {
      expect_bitwise_equal(fitted_on(threads, space), serial,
                           std::string(space_name(space)) + " on " + std::to_string(threads) + " threads");
    }
  }
}

// The weight-space fit itself (Gram blocks, both blocked Cholesky factors, triangular solves and inverses
// on the pool): its mean weights u, covariance term M and condition estimate on `threads` threads, at
// D = d + 1 = 65 (one block and a row), 201 (ragged blocks) and 769 (the d = 768).
std::vector<double> weight_space_fit(std::size_t d, std::size_t threads) {
  ThreadCount set(threads);
  const SyntheticEmbeddings obs = synthetic_embeddings(2 * d + 40, d, 21);
  const Probe probe = testing::fitted_probe(obs.x, obs.labels, 0.1, 5.0, PosteriorSpace::weight);
  const LatentWeights w = probe.latent_weights();
  std::vector<double> all(w.u.data(), w.u.data() + w.u.size());
  all.insert(all.end(), w.M.data(), w.M.data() + w.M.size());
  all.push_back(probe.condition());
  return all;
}

TEST(ParallelFits, WeightSpaceFitIsBitIdenticalOnAnyThreadCount) {
  for (std::size_t d : {64, 200, 768}) {
    const std::vector<double> serial = weight_space_fit(d, 1);
    for (std::size_t threads : {2, 3}) {
      expect_bitwise_equal(weight_space_fit(d, threads), serial,
                           "d=" + std::to_string(d) + " on " + std::to_string(threads) + " threads");
    }
  }
}

}  // namespace
}  // namespace gpprobe
