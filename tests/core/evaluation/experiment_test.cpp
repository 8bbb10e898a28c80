// The experiments against an independent re-implementation of their documented protocol
// (scripts/fixtures/reference_experiments.py: the Python mirror of our RNG, scikit-learn's models and
// metrics, a numpy GPP checked against gpp_golden.json), plus their properties and bad inputs.
#include "gpprobe/evaluation/experiment.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "gpprobe/evaluation/synthetic_embeddings.h"
#include "gpprobe/linalg/parallel_for.h"

#include "core/src/evaluation/experiment_protocol.h"
#include "evaluation_fixtures.h"
#include "result_assertions.h"

namespace gpprobe {
namespace {

struct Dataset {
  RowMatrix embeddings, ood;
  std::vector<std::uint8_t> labels, mask;
  nlohmann::json runs;

  ExperimentData data(bool with_mask) const {
    ExperimentData d;
    d.embeddings = MatrixView(embeddings);
    d.labels = labels.data();
    d.label_count = labels.size();
    d.ood = MatrixView(ood);
    if (with_mask) {
      d.query_mask = mask.data();
      d.query_mask_count = mask.size();
    }
    return d;
  }
};

Dataset dataset() {
  const nlohmann::json doc = testing::evaluation_fixture("experiments.json");
  return {testing::matrix_of(doc["embeddings"]), testing::matrix_of(doc["ood"]), testing::labels_of(doc["labels"]),
          testing::labels_of(doc["query_mask"]), doc["runs"]};
}

ExperimentOptions options_of(const nlohmann::json& o) {
  ExperimentOptions options;
  options.first_trial = o["first_trial"];
  options.trials = o["trials"];
  options.seed = o["seed"];
  options.max_observations = o["max_observations"];
  options.max_queries = o["max_queries"];
  options.members = o["members"];
  options.k = o["k"];
  return options;
}

TEST(Experiments, MatchTheIndependentReference) {
  const Dataset ds = dataset();
  for (const auto& run : ds.runs) {
    const std::string name = run["experiment"];
    Result<ExperimentResult> r =
        run_experiment(ok_value(parse_experiment(name)), ds.data(run["uses_mask"]), options_of(run["options"]));
    ASSERT_TRUE(r.ok()) << name << ": " << r.status().message();
    EXPECT_EQ(r.value().observation_counts, run["observation_counts"].get<std::vector<std::size_t>>()) << name;
    ASSERT_EQ(r.value().curves.size(), run["curves"].size()) << name;
    for (std::size_t c = 0; c < r.value().curves.size(); ++c) {
      const ExperimentCurve& curve = r.value().curves[c];
      EXPECT_EQ(curve.method, run["curves"][c]["method"]) << name;
      EXPECT_EQ(curve.metric, name == "fuzzy" ? "pearson" : "auroc");
      std::vector<double> expected;
      for (const auto& trial : run["curves"][c]["values"])
        for (const auto& v : trial) expected.push_back(v);
      testing::expect_near_all(curve.values, nlohmann::json(expected), 1e-8, name + " " + curve.method);
    }
    const auto& clouds = run["clouds"];
    ASSERT_EQ(r.value().clouds.size(), clouds.size()) << name;
    for (std::size_t k = 0; k < clouds.size(); ++k) {
      const ExperimentCloud& cloud = r.value().clouds[k];
      const std::string what = name + " cloud " + std::to_string(k);
      EXPECT_EQ(cloud.method, clouds[k]["method"]) << what;
      EXPECT_EQ(cloud.label_probability, clouds[k]["label_probability"].get<double>()) << what;
      EXPECT_EQ(cloud.observations, clouds[k]["observations"].get<std::size_t>()) << what;
      EXPECT_EQ(cloud.rows, clouds[k]["rows"].get<std::vector<std::size_t>>()) << what;
      testing::expect_near_all(cloud.judged_probability, clouds[k]["judged_probability"], 1e-8, what + " judged");
      testing::expect_near_all(cloud.alea, clouds[k]["alea"], 1e-8, what + " alea");
      testing::expect_near_all(cloud.episteme, clouds[k]["episteme"], 1e-6, what + " episteme");
    }
  }
}

TEST(Experiments, ATrialGivesTheSameNumbersAloneOrWithOthers) {
  const Dataset ds = dataset();
  ExperimentOptions options = options_of(ds.runs[0]["options"]);
  options.trials = 3;
  const ExperimentResult all = ok_value(run_experiment(ExperimentKind::probing, ds.data(false), options));
  const std::size_t points = all.observation_counts.size();
  for (std::size_t t = 0; t < 3; ++t) {
    ExperimentOptions one = options;
    one.first_trial = t;
    one.trials = 1;
    const ExperimentResult single = ok_value(run_experiment(ExperimentKind::probing, ds.data(false), one));
    EXPECT_EQ(single.first_trial, t);
    for (std::size_t c = 0; c < all.curves.size(); ++c) {
      for (std::size_t j = 0; j < points; ++j) {
        EXPECT_EQ(single.curves[c].values[j], all.curves[c].values[t * points + j]);
        EXPECT_EQ(single.curves[c].sd[j], 0.0);
      }
    }
  }
}

TEST(Experiments, SummariesAreTheMeanAndSampleStandardDeviation) {
  const std::vector<double> values = {1, 10, 2, 20, 6, 60};  // 3 trials by 2 points
  std::vector<double> mean(2), sd(2);
  summarise_trials(values.data(), 3, 2, mean.data(), sd.data());
  EXPECT_DOUBLE_EQ(mean[0], 3.0);
  EXPECT_DOUBLE_EQ(mean[1], 30.0);
  EXPECT_DOUBLE_EQ(sd[0], std::sqrt((4.0 + 1.0 + 9.0) / 2.0));
  EXPECT_DOUBLE_EQ(sd[1], std::sqrt((400.0 + 100.0 + 900.0) / 2.0));
}

// Sets the thread count for a test, restores the default at its end.
struct ThreadsForTest {
  explicit ThreadsForTest(std::size_t n) { set_thread_count(n); }
  ~ThreadsForTest() { set_thread_count(0); }
};

TEST(Experiments, ProgressCountsStepsAndCancelStops) {
  const Dataset ds = dataset();
  ExperimentOptions options = options_of(ds.runs[0]["options"]);
  const ThreadsForTest one(1);  // a trial's steps one after the other: one report per step
  std::vector<std::size_t> seen;
  Result<ExperimentResult> r =
      run_experiment(ExperimentKind::probing, ds.data(false), options, [&](std::size_t done, std::size_t total) {
        EXPECT_EQ(total, 8u);  // 2 trials by 4 counts
        seen.push_back(done);
        return done < 3;
      });
  EXPECT_EQ(r.status().code(), StatusCode::cancelled);
  EXPECT_EQ(r.status().message(), "probing experiment cancelled after 3 steps of 8");
  EXPECT_EQ(seen, (std::vector<std::size_t>{1, 2, 3}));
}

TEST(Experiments, ThreadsGiveTheSameNumbersAndProgressStillCountsAndCancels) {
  // A trial's steps run at the same time on several threads (largest O first): the curves and the
  // clouds are bit for bit those of one thread, in the same order; progress only grows, ends at the
  // total, and a cancel names how far it got.
  const Dataset ds = dataset();
  for (const auto& run : ds.runs) {
    const std::string name = run["experiment"];
    const ExperimentKind kind = ok_value(parse_experiment(name));
    const ExperimentData data = ds.data(run["uses_mask"]);
    const ExperimentOptions options = options_of(run["options"]);
    ExperimentResult serial;
    {
      const ThreadsForTest one(1);
      serial = ok_value(run_experiment(kind, data, options));
    }
    const ThreadsForTest three(3);
    std::vector<std::size_t> seen;
    const ExperimentResult threaded =
        ok_value(run_experiment(kind, data, options, [&](std::size_t done, std::size_t total) {
          EXPECT_EQ(total, options.trials * serial.observation_counts.size());
          seen.push_back(done);
          return true;
        }));
    ASSERT_EQ(threaded.curves.size(), serial.curves.size()) << name;
    for (std::size_t c = 0; c < serial.curves.size(); ++c) {
      ASSERT_EQ(threaded.curves[c].values.size(), serial.curves[c].values.size());
      for (std::size_t k = 0; k < serial.curves[c].values.size(); ++k) {
        const double a = threaded.curves[c].values[k], b = serial.curves[c].values[k];
        EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << name << " " << serial.curves[c].method << " " << k;
      }
    }
    ASSERT_EQ(threaded.clouds.size(), serial.clouds.size()) << name;
    for (std::size_t k = 0; k < serial.clouds.size(); ++k) {
      EXPECT_EQ(threaded.clouds[k].method, serial.clouds[k].method);
      EXPECT_EQ(threaded.clouds[k].observations, serial.clouds[k].observations);
      EXPECT_EQ(threaded.clouds[k].label_probability, serial.clouds[k].label_probability);
      EXPECT_EQ(threaded.clouds[k].judged_probability, serial.clouds[k].judged_probability);
      EXPECT_EQ(threaded.clouds[k].episteme, serial.clouds[k].episteme);
    }
    ASSERT_FALSE(seen.empty());
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end())) << name;
    EXPECT_EQ(seen.back(), options.trials * serial.observation_counts.size()) << name;
  }
  const ThreadsForTest three(3);
  std::size_t last = 0;
  const Result<ExperimentResult> cancelled = run_experiment(
      ExperimentKind::probing, ds.data(false), options_of(ds.runs[0]["options"]), [&](std::size_t done, std::size_t) {
        last = done;
        return done < 3;
      });
  EXPECT_EQ(cancelled.status().code(), StatusCode::cancelled);
  EXPECT_EQ(cancelled.status().message(), "probing experiment cancelled after " + std::to_string(last) + " steps of 8");
}

TEST(Experiments, EachBadInputNamesTheProblem) {
  const Dataset ds = dataset();
  auto status = [&](ExperimentKind kind, ExperimentData d, ExperimentOptions o = {}) {
    return run_experiment(kind, d, o).status();
  };
  const ExperimentData good = ds.data(false);
  ExperimentData short_labels = good;
  short_labels.label_count = 47;
  std::vector<std::uint8_t> bad_labels = ds.labels;
  bad_labels[5] = 2;
  ExperimentData bad = good;
  bad.labels = bad_labels.data();
  std::vector<std::uint8_t> bad_mask = ds.mask;
  bad_mask[4] = 7;
  ExperimentData masked = ds.data(true);
  masked.query_mask = bad_mask.data();
  ExperimentData short_mask = ds.data(true);
  short_mask.query_mask_count = 3;
  RowMatrix nan = ds.embeddings;
  nan(2, 3) = std::numeric_limits<double>::quiet_NaN();
  ExperimentData with_nan = good;
  with_nan.embeddings = MatrixView(nan);
  const RowMatrix narrow = ds.ood.leftCols(5);
  ExperimentData narrow_ood = good;
  narrow_ood.ood = MatrixView(narrow);
  ExperimentData no_ood = good;
  no_ood.ood = MatrixView();
  const std::vector<std::uint8_t> ones(48, 1);
  ExperimentData one_class = good;
  one_class.labels = ones.data();
  std::vector<std::uint8_t> all_queries(48, 1);
  ExperimentData no_pool = ds.data(true);
  no_pool.query_mask = all_queries.data();
  ExperimentOptions zero_trials;
  zero_trials.trials = 0;
  ExperimentOptions one_observation;
  one_observation.max_observations = 1;
  testing::expect_statuses({
      {parse_experiment("speed").status(), StatusCode::invalid_argument,
       "experiment must be probing, fuzzy or ood, got 'speed'"},
      {status(ExperimentKind::probing, short_labels), StatusCode::dimension_mismatch,
       "labels have 47 entries, embeddings have 48 rows"},
      {status(ExperimentKind::probing, bad), StatusCode::invalid_argument, "label 5 is 2; labels must be 0 or 1"},
      {status(ExperimentKind::probing, masked), StatusCode::invalid_argument,
       "query mask entry 4 is 7; entries must be 0 or 1"},
      {status(ExperimentKind::probing, short_mask), StatusCode::dimension_mismatch,
       "the query mask has 3 entries, embeddings have 48 rows"},
      {status(ExperimentKind::fuzzy, with_nan), StatusCode::non_finite, "embeddings row 2, column 3 is NaN"},
      {status(ExperimentKind::ood, narrow_ood), StatusCode::dimension_mismatch,
       "ood embeddings have 5 columns, embeddings have 6 columns"},
      {status(ExperimentKind::ood, no_ood), StatusCode::invalid_argument,
       "the ood experiment needs ood embeddings (0 rows given)"},
      {status(ExperimentKind::probing, one_class), StatusCode::invalid_argument,
       "the observation pool holds no negative example (label 0)"},
      {status(ExperimentKind::probing, no_pool), StatusCode::invalid_argument,
       "the observation pool holds no positive example (label 1)"},
      {status(ExperimentKind::probing, good, zero_trials), StatusCode::invalid_argument,
       "trials must be at least 1, got 0"},
      {status(ExperimentKind::probing, good, one_observation), StatusCode::invalid_argument,
       "max_observations must be at least 2, got 1"},
      {status(ExperimentKind::probing, ExperimentData{}), StatusCode::invalid_argument,
       "embeddings are empty (0 rows)"},
  });
}

TEST(Experiment, TrialsRunOneByOneAddUpToOneRun) {
  // The app runs one trial per call and the core adds them up: the same numbers as one call.
  const SyntheticEmbeddings data = synthetic_embeddings(80, 6, 3);
  ExperimentData d;
  d.embeddings = MatrixView(data.x);
  d.labels = data.labels.data();
  d.label_count = data.labels.size();
  ExperimentOptions options;
  options.trials = 3;
  options.max_observations = 8;
  options.members = 5;
  const ExperimentResult whole = ok_value(run_experiment(ExperimentKind::fuzzy, d, options));
  ExperimentResult parts;
  for (std::size_t t = 0; t < options.trials; ++t) {
    ExperimentOptions one = options;
    one.first_trial = t;
    one.trials = 1;
    ASSERT_TRUE(append_trials(&parts, ok_value(run_experiment(ExperimentKind::fuzzy, d, one))).ok());
  }
  ASSERT_EQ(parts.trials, 3u);
  ASSERT_EQ(parts.curves.size(), whole.curves.size());
  for (std::size_t c = 0; c < whole.curves.size(); ++c) {
    EXPECT_EQ(parts.curves[c].values, whole.curves[c].values) << whole.curves[c].method;
    EXPECT_EQ(parts.curves[c].mean, whole.curves[c].mean) << whole.curves[c].method;
    EXPECT_EQ(parts.curves[c].sd, whole.curves[c].sd) << whole.curves[c].method;
  }
  EXPECT_EQ(parts.clouds.size(), whole.clouds.size());
  ExperimentOptions again = options;
  again.trials = 1;  // trial 0 again: not the next trial
  EXPECT_EQ(append_trials(&parts, ok_value(run_experiment(ExperimentKind::fuzzy, d, again))).message(),
            "these trials are not the next ones of the same run");
}

// 200 rows in 4 dimensions, `positives` of them (label 1) around +3 e1 and the rest around -3 e1:
// every probe separates them perfectly (AUROC 1).
struct FewPositives {
  RowMatrix x;
  std::vector<std::uint8_t> labels;
  ExperimentData data() const {
    ExperimentData d;
    d.embeddings = MatrixView(x);
    d.labels = labels.data();
    d.label_count = labels.size();
    d.ood = MatrixView(x);
    return d;
  }
};

FewPositives few_positives(std::size_t positives) {
  const SyntheticEmbeddings noise = synthetic_embeddings(200, 4, 7);
  FewPositives f{noise.x, std::vector<std::uint8_t>(200, 0)};
  for (std::size_t i = 0; i < 200; ++i) {
    f.labels[i] = i % 40 == 0 && i / 40 < positives ? 1 : 0;
    f.x(Eigen::Index(i), 0) += f.labels[i] ? 3.0 : -3.0;
  }
  return f;
}

TEST(Experiments, HeldOutQueriesHoldBothClassesWhenFewArePositive) {
  // 5 positives: each trial holds out 2 of them among 99 query candidates, and a shuffled prefix of 4
  // queries lacks them in about 92% of trials (so probing failed with "auroc needs both classes").
  const FewPositives f = few_positives(5);
  ExperimentOptions options;
  options.trials = 10;
  options.max_queries = 4;
  options.max_observations = 4;
  options.members = 5;
  const Result<ExperimentResult> r = run_experiment(ExperimentKind::probing, f.data(), options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value().observation_counts, (std::vector<std::size_t>{2, 4}));
  for (const ExperimentCurve& curve : r.value().curves)
    for (double v : curve.values) EXPECT_EQ(v, 1.0) << curve.method;

  // The stratified draw: round(4 * 2 / 99) = 0 positives, raised to 1, and 3 negatives, the first of
  // each class in the trial's shuffled order; the same rows for the same seed.
  const Protocol protocol = ok_value(Protocol::make(ExperimentKind::probing, f.data(), options));
  const Protocol fuzzy = ok_value(Protocol::make(ExperimentKind::fuzzy, f.data(), options));
  const Protocol ood = ok_value(Protocol::make(ExperimentKind::ood, f.data(), options));
  std::size_t stratified = 0;
  for (std::size_t t = 0; t < options.trials; ++t) {
    const TrialDraw d = protocol.draw(t);
    ASSERT_EQ(d.queries.size(), 4u);
    const auto positives = std::count(d.query_labels.begin(), d.query_labels.end(), 1);
    EXPECT_GE(positives, 1) << "trial " << t;
    EXPECT_EQ(protocol.draw(t).queries, d.queries);
    EXPECT_EQ(fuzzy.draw(t).queries, d.queries);  // fuzzy needs the positives as well
    const TrialDraw unstratified = ood.draw(t);   // OOD needs no class: the shuffled prefix
    for (std::size_t i : d.queries) {
      EXPECT_EQ(std::count(d.pool_positive.begin(), d.pool_positive.end(), i), 0);
      EXPECT_EQ(std::count(d.pool_negative.begin(), d.pool_negative.end(), i), 0);
    }
    if (std::count(unstratified.query_labels.begin(), unstratified.query_labels.end(), 1) > 0) {
      EXPECT_EQ(unstratified.queries, d.queries) << "trial " << t;  // unchanged where it had both
    } else {
      ++stratified;
      EXPECT_EQ(positives, 1) << "trial " << t;
    }
  }
  EXPECT_GE(stratified, 5u);
}

TEST(Experiments, HeldOutQueriesThatCannotHoldAClassSaySoBeforeRunning) {
  const FewPositives one = few_positives(1);
  const FewPositives five = few_positives(5);
  std::vector<std::uint8_t> mask(200, 0);
  for (std::size_t i = 1; i < 200; i += 2) mask[i] = 1;  // odd rows: every positive (rows 0, 40, ...) is outside
  ExperimentData masked = five.data();
  masked.query_mask = mask.data();
  masked.query_mask_count = mask.size();
  const std::vector<std::uint8_t> no_query(200, 0);
  ExperimentData empty_subset = five.data();
  empty_subset.query_mask = no_query.data();
  empty_subset.query_mask_count = no_query.size();
  ExperimentOptions one_query;
  one_query.max_queries = 1;
  auto status = [](ExperimentKind kind, const ExperimentData& d, ExperimentOptions o = {}) {
    return run_experiment(kind, d, o,
                          [](std::size_t, std::size_t) {
                            ADD_FAILURE() << "a step ran";
                            return true;
                          })
        .status();
  };
  testing::expect_statuses({
      {status(ExperimentKind::probing, one.data()), StatusCode::invalid_argument,
       "the data hold 1 positive example (label 1); each trial holds out half of each class (rounded down: 0 of 1) "
       "as queries, so no query is a positive example (label 1): probing's AUROC needs held-out queries of both "
       "classes"},
      {status(ExperimentKind::fuzzy, masked), StatusCode::invalid_argument,
       "the query subset holds no positive example (label 1): the fuzzy experiment scores the positive queries"},
      {status(ExperimentKind::ood, empty_subset), StatusCode::invalid_argument,
       "the query subset is empty: the ood experiment needs held-out queries"},
      {status(ExperimentKind::probing, five.data(), one_query), StatusCode::invalid_argument,
       "max_queries is 1, but probing's AUROC needs a held-out query of each class: at least 2"},
  });
  // Fuzzy with one query: that query is a positive one.
  ExperimentOptions fuzzy_one = one_query;
  fuzzy_one.trials = 3;
  fuzzy_one.max_observations = 4;
  fuzzy_one.members = 3;
  const Protocol fuzzy = ok_value(Protocol::make(ExperimentKind::fuzzy, five.data(), fuzzy_one));
  for (std::size_t t = 0; t < 3; ++t) EXPECT_EQ(fuzzy.draw(t).query_labels, std::vector<std::uint8_t>{1});
}

}  // namespace
}  // namespace gpprobe
