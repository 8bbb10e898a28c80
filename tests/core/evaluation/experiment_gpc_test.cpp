// The GP classification probes of the probing experiment (experiment.h ClassifierProbeOptions): they add two
// curves and change none of the others (which experiment_test.cpp holds to the independent Python
// reference), they rank a separable concept well, Laplace and EP (both probit, EP from Laplace's
// optimum) rank alike, and their AUROC is the AUROC of a classifier fitted through the public API on
// the same observations and queries.
#include <algorithm>
#include <cmath>
#include <tuple>

#include <gtest/gtest.h>

#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/hyperparameter_fit.h"
#include "gpprobe/evaluation/experiment.h"
#include "gpprobe/evaluation/metrics.h"
#include "gpprobe/evaluation/synthetic_embeddings.h"
#include "gpprobe/linalg/parallel_for.h"

#include "result_assertions.h"

namespace gpprobe {
namespace {

struct Data {
  SyntheticEmbeddings embeddings = synthetic_embeddings(120, 8, 11, 1.5);
  ExperimentData view() const {
    ExperimentData d;
    d.embeddings = MatrixView(embeddings.x);
    d.labels = embeddings.labels.data();
    d.label_count = embeddings.labels.size();
    return d;
  }
};

ExperimentOptions options(bool gpc) {
  ExperimentOptions o;
  o.trials = 2;
  o.max_observations = 32;
  o.members = 10;
  o.gpc.enabled = gpc;
  return o;
}

TEST(ExperimentGpc, AddsTwoCurvesAndChangesNoOther) {
  const Data data;
  const ExperimentResult without = ok_value(run_experiment(ExperimentKind::probing, data.view(), options(false)));
  const ExperimentResult with = ok_value(run_experiment(ExperimentKind::probing, data.view(), options(true)));
  ASSERT_EQ(without.curves.size(), 4u);
  ASSERT_EQ(with.curves.size(), 6u);
  for (std::size_t c = 0; c < 4; ++c) {
    EXPECT_EQ(with.curves[c].method, without.curves[c].method);
    EXPECT_EQ(with.curves[c].values, without.curves[c].values) << with.curves[c].method;
  }
  EXPECT_EQ(with.curves[4].method, "gpc-laplace");
  EXPECT_EQ(with.curves[5].method, "gpc-ep");
  EXPECT_EQ(with.observation_counts, (std::vector<std::size_t>{2, 4, 8, 16, 32}));
  // A concept two classes apart: from 16 observations on, every probe of it ranks queries well, and the two
  // approximations of the same probit model rank alike.
  for (std::size_t j = 3; j < 5; ++j) {
    for (std::size_t c : {4u, 5u})
      EXPECT_GT(with.curves[c].mean[j], 0.9) << with.curves[c].method << " O = " << with.observation_counts[j];
    EXPECT_LT(std::abs(with.curves[4].mean[j] - with.curves[5].mean[j]), 0.03) << "O = " << with.observation_counts[j];
  }
  EXPECT_EQ(ok_value(run_experiment(ExperimentKind::fuzzy, data.view(), options(true))).curves.size(),
            2u);  // probing only

  // Up to O = 8 only: the same values there, NaN (not run) beyond, and the other probes unchanged.
  ExperimentOptions capped = options(true);
  capped.gpc.max_observations = 8;
  const ExperimentResult part = ok_value(run_experiment(ExperimentKind::probing, data.view(), capped));
  for (std::size_t c = 0; c < 6; ++c) {
    for (std::size_t t = 0; t < 2; ++t) {
      for (std::size_t j = 0; j < 5; ++j) {
        const double v = part.curves[c].values[t * 5 + j], full = with.curves[c].values[t * 5 + j];
        if (c >= 4 && j >= 3) EXPECT_TRUE(std::isnan(v)) << c << " " << j;
        else EXPECT_EQ(v, full) << c << " " << j;
      }
    }
  }
  EXPECT_TRUE(std::isnan(part.curves[4].mean[4]) && std::isnan(part.curves[5].sd[3]));
}

TEST(ExperimentGpc, RunAsTheirOwnPiecesOnThreadsWithTheSameNumbersAndProgress) {
  // With the GPC probes a step is two pieces (GPP, LP, SVM, LPE; the GPC probes), the GPC ones scheduled
  // first: on 3 threads every value is the one thread's, and progress counts both pieces of each step.
  const Data data;
  ExperimentOptions o = options(true);
  o.gpc.max_observations = 16;  // and the capped pieces still count
  set_thread_count(1);
  std::vector<std::size_t> serial_seen;
  const ExperimentResult serial =
      ok_value(run_experiment(ExperimentKind::probing, data.view(), o, [&](std::size_t done, std::size_t total) {
        EXPECT_EQ(total, 2u * 5u * 2u);  // trials x points x pieces
        serial_seen.push_back(done);
        return true;
      }));
  set_thread_count(3);
  const ExperimentResult threaded = ok_value(run_experiment(ExperimentKind::probing, data.view(), o));
  set_thread_count(0);
  EXPECT_EQ(serial_seen.size(), 20u);
  EXPECT_EQ(serial_seen.back(), 20u);
  ASSERT_EQ(threaded.curves.size(), 6u);
  for (std::size_t c = 0; c < 6; ++c) {
    for (std::size_t k = 0; k < serial.curves[c].values.size(); ++k) {
      const double a = threaded.curves[c].values[k], b = serial.curves[c].values[k];
      EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << serial.curves[c].method << " " << k;
    }
  }
  EXPECT_TRUE(std::isnan(serial.curves[4].values[4]) && !std::isnan(serial.curves[4].values[3]));  // O = 32 > 16
}

// The probe's score is p(y = 1) of a probit classifier whose signal variance and one length-scale were
// learned from the median distance of the observations (Laplace), then from Laplace's optimum (EP): the
// same steps through the public API give the experiment's AUROC, here on a data set whose split is fixed
// (queries by mask, the pool's classes of exactly O/2 rows, so every shuffle keeps the same sets).
TEST(ExperimentGpc, IsTheAurocOfTheClassifiersItDescribes) {
  const SyntheticEmbeddings e = synthetic_embeddings(60, 5, 4, 1.0);
  std::vector<std::uint8_t> mask(60, 1);
  std::size_t pool[2] = {0, 0};
  for (std::size_t i = 0; i < 60; ++i) {
    if (pool[e.labels[i]] < 4) {
      mask[i] = 0;
      ++pool[e.labels[i]];
    }
  }
  ExperimentData d;
  d.embeddings = MatrixView(e.x);
  d.labels = e.labels.data();
  d.label_count = 60;
  d.query_mask = mask.data();
  d.query_mask_count = 60;
  ExperimentOptions o = options(true);
  o.trials = 1;
  o.max_observations = 8;
  const ExperimentResult r = ok_value(run_experiment(ExperimentKind::probing, d, o));
  ASSERT_EQ(r.observation_counts.back(), 8u);

  // The 8 pool rows (positives first, as the protocol orders them; the order does not change the fit).
  std::vector<std::size_t> rows;
  for (int y : {1, 0})
    for (std::size_t i = 0; i < 60; ++i)
      if (!mask[i] && e.labels[i] == y) rows.push_back(i);
  RowMatrix x(8, 5), queries(52, 5);
  std::vector<double> labels;
  std::vector<std::uint8_t> truth;
  for (std::size_t k = 0; k < 8; ++k) {
    x.row(Eigen::Index(k)) = e.x.row(Eigen::Index(rows[k]));
    labels.push_back(double(e.labels[rows[k]]));
  }
  Eigen::Index q = 0;
  for (std::size_t i = 0; i < 60; ++i) {
    if (!mask[i]) continue;
    queries.row(q++) = e.x.row(Eigen::Index(i));
    truth.push_back(e.labels[i]);
  }
  std::vector<double> distances;
  for (Eigen::Index i = 0; i < 8; ++i)
    for (Eigen::Index j = i + 1; j < 8; ++j) distances.push_back((x.row(i) - x.row(j)).norm());
  std::sort(distances.begin(), distances.end());
  const double median = distances[distances.size() / 2];  // 28 distances: the upper middle one

  const ClassifierTrainingData data = ok_value(make_gpc_training_data(MatrixView(x), labels.data(), 8));
  ClassifierHyperparameterOptions fit;
  fit.shared_length_scale = true;
  SeArdKernel kernel{1.0, {median}};
  for (auto [method, iterations, curve] : {std::tuple{ClassifierMethod::laplace, o.gpc.laplace_iterations, 4},
                                           std::tuple{ClassifierMethod::ep, o.gpc.ep_iterations, 5}}) {
    ClassifierOptions options;
    options.method = method;
    fit.max_iterations = iterations;
    kernel = ok_value(fit_gpc_hyperparameters(data, kernel, options, fit)).kernel;
    const GpClassifier gpc = ok_value(GpClassifier::fit(data, kernel, options));
    std::vector<double> p(52);
    ASSERT_TRUE(gpc.predict(MatrixView(queries), {nullptr, nullptr, p.data()}).ok());
    EXPECT_EQ(r.curves[std::size_t(curve)].values.back(), ok_value(auroc(truth.data(), p.data(), 52)))
        << method_name(method);
  }
}

}  // namespace
}  // namespace gpprobe
