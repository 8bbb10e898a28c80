// What limited an experiment's schedule of observation counts, as the core says it (the app and the CLI
// show this text): the smaller class of the observation pool, or nothing when max_observations did.
#include <random>

#include <gtest/gtest.h>

#include "gpprobe/evaluation/experiment.h"

#include "result_assertions.h"

namespace gpprobe {
namespace {

struct Data {
  RowMatrix x;
  std::vector<std::uint8_t> labels, mask;
};

// 20 positives and 44 negatives in 4 dimensions; the mask marks every third row as a query.
Data data() {
  std::mt19937 rng(2);
  std::normal_distribution<double> z;
  Data d{RowMatrix(64, 4), std::vector<std::uint8_t>(64), std::vector<std::uint8_t>(64)};
  for (int i = 0; i < 64; ++i) {
    d.labels[std::size_t(i)] = i < 20 ? 1 : 0;
    d.mask[std::size_t(i)] = i % 3 == 0 ? 1 : 0;
    for (int j = 0; j < 4; ++j) d.x(i, j) = z(rng) + (i < 20 ? 1.0 : 0.0);
  }
  return d;
}

ExperimentResult run(const Data& d, bool masked, std::size_t max_observations) {
  ExperimentData e;
  e.embeddings = MatrixView(d.x);
  e.labels = d.labels.data();
  e.label_count = d.labels.size();
  if (masked) {
    e.query_mask = d.mask.data();
    e.query_mask_count = d.mask.size();
  }
  ExperimentOptions o;
  o.trials = 1;
  o.members = 3;
  o.max_observations = max_observations;
  Result<ExperimentResult> r = run_experiment(ExperimentKind::probing, e, o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return ok_value(std::move(r));
}

TEST(ExperimentSchedule, SaysWhichClassOfThePoolStoppedIt) {
  const Data d = data();
  const ExperimentResult halves = run(d, false, 512);
  EXPECT_EQ(halves.observation_counts, (std::vector<std::size_t>{2, 4, 8, 16}));
  EXPECT_EQ(halves.schedule_limit,
            "stopped at O = 16 (up to 512 asked): each trial keeps 10 of the 20 positive examples (label 1) for "
            "observations (the other 10 are held-out queries), and O = 32 needs 16 of each class");
  // With a query mask the pool is the unmasked rows: 13 positives (rows 1, 2, 4, 5, ... below 20).
  const ExperimentResult masked = run(d, true, 512);
  EXPECT_EQ(masked.observation_counts.back(), 16u);
  EXPECT_EQ(masked.schedule_limit,
            "stopped at O = 16 (up to 512 asked): the observation pool (the rows outside the query subset) holds "
            "13 positive examples (label 1), and O = 32 needs 16 of each class");
}

TEST(ExperimentSchedule, SaysNothingWhenMaxObservationsEndedIt) {
  const Data d = data();
  EXPECT_EQ(run(d, false, 16).schedule_limit, "");
  EXPECT_EQ(run(d, false, 31).schedule_limit, "");  // 32 > 31: the cap, not the pool
}

}  // namespace
}  // namespace gpprobe
