// Kept scores (scored_queries.h): every add and remove updates all queries by a rank-one change, and
// the numbers equal a probe fitted afresh to the same observations (to 1e-9) after long sequences of
// changes, in both posterior spaces and for float32 and float64 queries. full_rescores() pins that the
// updates really were rank-one (no silent full pass) and that the drift guard does take over.
#include "gpprobe/probe/scored_queries.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/evaluation/synthetic_embeddings.h"
#include "gpprobe/probe/probe.h"

#include "result_assertions.h"

namespace gpprobe {
namespace {

constexpr std::size_t kColumns = 7;

// All seven columns of `n` queries, column-major in one vector.
std::vector<double> columns_of(std::size_t n, ProbeScoreColumns* out, std::vector<double>* storage) {
  storage->assign(kColumns * n, 0.0);
  double* base = storage->data();
  *out = {base, base + n, base + 2 * n, base + 3 * n, base + 4 * n, base + 5 * n, base + 6 * n};
  return *storage;
}

struct Pool {
  SyntheticEmbeddings data;
  RowMatrix observation(std::size_t row) const { return data.x.row(Eigen::Index(row)); }
};

// A fresh fit of `rows` (in the probe's order) scored on `queries`, against the kept scores.
void expect_equal_to_refit(const Pool& pool, const std::vector<std::size_t>& rows, const Probe& probe,
                           const ProbeOptions& options, const MatrixView& queries, const ScoredQueries& kept) {
  RowMatrix x(Eigen::Index(rows.size()), pool.data.x.cols());
  std::vector<std::uint8_t> labels;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    x.row(Eigen::Index(k)) = pool.data.x.row(Eigen::Index(rows[k]));
    labels.push_back(pool.data.labels[rows[k]]);
  }
  ASSERT_EQ(labels, probe.labels());
  ProbeOptions same = options;
  same.space = probe.space();
  Result<Probe> fresh = Probe::fit(MatrixView(x), labels.data(), labels.size(), same);
  ASSERT_TRUE(fresh.ok()) << fresh.status().message();
  const std::size_t n = queries.rows();
  ProbeScoreColumns expected_out, kept_out;
  std::vector<double> expected, actual;
  columns_of(n, &expected_out, &expected);
  columns_of(n, &kept_out, &actual);
  ASSERT_TRUE(fresh.value().score(queries, expected_out).ok());
  ASSERT_TRUE(kept.write(kept_out, 0, n).ok());
  for (std::size_t i = 0; i < kColumns * n; ++i) {
    ASSERT_NEAR(actual[i], expected[i], 1e-9 * std::max(1.0, std::fabs(expected[i])))
        << "column " << i / n << ", query " << i % n << " after " << rows.size() << " observations";
  }
}

// 300 random adds and removes from `start` observations, compared with a refit every 25 steps.
template <class Scalar>
void run_sequence(PosteriorSpace space, std::size_t dimension, std::size_t start, double strength,
                  std::size_t* full_rescores) {
  const Pool pool{synthetic_embeddings(400, dimension, 7)};
  const SyntheticEmbeddings q64 = synthetic_embeddings(300, dimension, 11);
  const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> q = q64.x.template cast<Scalar>();
  const MatrixView queries(q.data(), std::size_t(q.rows()), std::size_t(q.cols()));
  ProbeOptions options;
  options.space = space;
  options.strength = strength;
  std::vector<std::size_t> rows;
  RowMatrix x(static_cast<Eigen::Index>(start), static_cast<Eigen::Index>(dimension));
  std::vector<std::uint8_t> labels;
  for (std::size_t k = 0; k < start; ++k) {
    rows.push_back(k);
    x.row(Eigen::Index(k)) = pool.data.x.row(Eigen::Index(k));
    labels.push_back(pool.data.labels[k]);
  }
  Result<Probe> fitted = Probe::fit(MatrixView(x), labels.data(), labels.size(), options);
  ASSERT_TRUE(fitted.ok()) << fitted.status().message();
  Probe probe = ok_value(std::move(fitted));
  ScoredQueries kept(queries);
  ASSERT_TRUE(kept.score(probe).ok());
  ASSERT_TRUE(kept.current(probe));

  std::mt19937_64 random(3);
  for (int step = 1; step <= 300; ++step) {
    const bool add = rows.size() < 2 || random() % 5 < 3;
    if (add) {
      const std::size_t row = random() % pool.data.x.rows();
      const RowMatrix one = pool.observation(row);
      ASSERT_TRUE(kept.add_observation(&probe, MatrixView(one), pool.data.labels[row]).ok());
      rows.push_back(row);
    } else {
      const std::size_t index = random() % rows.size();
      ASSERT_TRUE(kept.remove_observation(&probe, index).ok());
      rows.erase(rows.begin() + std::ptrdiff_t(index));
    }
    ASSERT_TRUE(kept.current(probe));
    if (step % 25 == 0) expect_equal_to_refit(pool, rows, probe, options, queries, kept);
    if (::testing::Test::HasFatalFailure()) return;
  }
  *full_rescores = kept.full_rescores();
}

// The kept latents of `queries` against the probe's own scoring of them.
void expect_latents_of(const Probe& probe, const RowMatrix& queries, const ScoredQueries& kept, double tolerance) {
  const std::size_t n = std::size_t(queries.rows());
  std::vector<double> mean(n), variance(n);
  ProbeScoreColumns latent;
  latent.latent_mean = mean.data();
  latent.latent_variance = variance.data();
  ASSERT_TRUE(probe.score(MatrixView(queries), latent).ok());
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(kept.latent_mean()[i], mean[i], tolerance);
    EXPECT_NEAR(kept.latent_variance()[i], variance[i], tolerance);
  }
}

TEST(ScoredQueries, FunctionSpaceSequenceEqualsRefit) {
  std::size_t full = 0;
  run_sequence<double>(PosteriorSpace::function, 24, 10, 5.0, &full);
  EXPECT_EQ(full, 0u);  // every change was a rank-one update
}

TEST(ScoredQueries, WeightSpaceSequenceEqualsRefitFloat32Queries) {
  std::size_t full = 0;
  run_sequence<float>(PosteriorSpace::weight, 24, 60, 5.0, &full);
  EXPECT_EQ(full, 0u);
}

TEST(ScoredQueries, StrongObservationsStayEqualToRefit) {
  // A strength of 1e4 makes the raised noise tiny: removals cancel in n - x'Cx and the posterior is
  // ill-conditioned, so the weight-space and query drift guards have work to do.
  std::size_t full = 0;
  run_sequence<double>(PosteriorSpace::weight, 8, 40, 1e4, &full);
  run_sequence<double>(PosteriorSpace::function, 8, 5, 1e4, &full);
}

TEST(ScoredQueries, ChangesBehindItsBackAreMetByAFullPass) {
  const SyntheticEmbeddings data = synthetic_embeddings(30, 6, 5);
  const SyntheticEmbeddings q = synthetic_embeddings(50, 6, 6);
  const RowMatrix first = data.x.topRows(20);
  Result<Probe> fitted = Probe::fit(MatrixView(first), data.labels.data(), 20);
  ASSERT_TRUE(fitted.ok());
  Probe probe = ok_value(std::move(fitted));
  ScoredQueries kept(MatrixView(q.x));
  ASSERT_TRUE(kept.score(probe).ok());
  ASSERT_TRUE(probe.remove_observation(0).ok());  // not through `kept`
  EXPECT_FALSE(kept.current(probe));
  ProbeScoreColumns out;
  std::vector<double> storage;
  columns_of(50, &out, &storage);
  EXPECT_EQ(kept.write(out, 0, 50).code(), StatusCode::ok);  // still complete, for the old revision
  const RowMatrix one = data.x.row(25);
  ASSERT_TRUE(kept.add_observation(&probe, MatrixView(one), data.labels[25]).ok());
  EXPECT_EQ(kept.full_rescores(), 1u);
  EXPECT_TRUE(kept.current(probe));
  // And the numbers are the probe's own, to the last bit (that pass scored them).
  expect_latents_of(probe, q.x, kept, 0.0);
}

TEST(ScoredQueries, ASecondSetFollowsTheSameRankOneChanges) {
  const SyntheticEmbeddings data = synthetic_embeddings(60, 10, 5);
  const SyntheticEmbeddings main_set = synthetic_embeddings(40, 10, 6), other_set = synthetic_embeddings(30, 10, 8);
  const RowMatrix first = data.x.topRows(20);
  Result<Probe> fitted = Probe::fit(MatrixView(first), data.labels.data(), 20);
  ASSERT_TRUE(fitted.ok());
  Probe probe = ok_value(std::move(fitted));
  ScoredQueries leader(MatrixView(main_set.x)), follower(MatrixView(other_set.x));
  ASSERT_TRUE(leader.score(probe).ok());
  ASSERT_TRUE(follower.score(probe).ok());
  for (int k = 0; k < 10; ++k) {
    const RowMatrix one = data.x.row(20 + k);
    ASSERT_TRUE(leader.add_observation(&probe, MatrixView(one), data.labels[std::size_t(20 + k)]).ok());
    ASSERT_TRUE(follower.follow(probe, leader).ok());
    ASSERT_TRUE(leader.remove_observation(&probe, std::size_t(k)).ok());
    ASSERT_TRUE(follower.follow(probe, leader).ok());
  }
  EXPECT_EQ(follower.full_rescores(), 0u);
  expect_latents_of(probe, other_set.x, follower, 1e-12);
  // Two changes behind the follower's back: a full pass, and the numbers are still the probe's.
  const RowMatrix one = data.x.row(50);
  ASSERT_TRUE(leader.add_observation(&probe, MatrixView(one), 1).ok());
  ASSERT_TRUE(leader.remove_observation(&probe, 0).ok());
  ASSERT_TRUE(follower.follow(probe, leader).ok());
  EXPECT_EQ(follower.full_rescores(), 1u);
  EXPECT_TRUE(follower.current(probe));
}

TEST(ScoredQueries, FailedChangesLeaveProbeAndScores) {
  const SyntheticEmbeddings data = synthetic_embeddings(10, 4, 5);
  Result<Probe> fitted = Probe::fit(MatrixView(data.x), data.labels.data(), 10);
  ASSERT_TRUE(fitted.ok());
  Probe probe = ok_value(std::move(fitted));
  ScoredQueries kept(MatrixView(data.x));
  ASSERT_TRUE(kept.score(probe).ok());
  const std::vector<double> before = kept.latent_mean();
  const RowMatrix wide = RowMatrix::Ones(1, 5);
  EXPECT_EQ(kept.add_observation(&probe, MatrixView(wide), 1).code(), StatusCode::dimension_mismatch);
  EXPECT_EQ(kept.remove_observation(&probe, 10).code(), StatusCode::invalid_argument);
  EXPECT_TRUE(kept.current(probe));
  EXPECT_EQ(kept.latent_mean(), before);
  EXPECT_EQ(probe.observation_count(), 10u);
  ProbeScoreColumns out;
  std::vector<double> storage;
  columns_of(10, &out, &storage);
  EXPECT_EQ(kept.write(out, 5, 6).code(), StatusCode::invalid_argument);
  ScoredQueries partial(MatrixView(data.x));
  ASSERT_TRUE(partial.score_rows(probe, 0, 4).ok());
  EXPECT_EQ(partial.score_rows(probe, 6, 4).code(), StatusCode::invalid_argument);
  EXPECT_EQ(partial.write(out, 0, 4).code(), StatusCode::invalid_argument);
  ASSERT_TRUE(partial.score_rows(probe, 4, 6).ok());
  EXPECT_TRUE(partial.current(probe));
}

}  // namespace
}  // namespace gpprobe
