// The baselines against scikit-learn / numpy references (tests/reference/evaluation/baselines.json):
// LP = LogisticRegression(C=1) at its optimum (newton-cholesky, tol 1e-14) and as the default lbfgs, SVM = the exact dual QP of LinearSVC(loss="hinge")
// (liblinear agrees to 1e-11), LPE = those LPs on the resamples of an independent Python mirror of our
// RNG, Mahalanobis = numpy.linalg.pinv, kNN = NearestNeighbors on normalize()d rows.
#include "gpprobe/baselines/baselines.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "gpprobe/baselines/linear_probe.h"
#include "gpprobe/baselines/linear_probe_ensemble.h"
#include "gpprobe/baselines/linear_svm.h"
#include "gpprobe/baselines/mahalanobis.h"
#include "gpprobe/baselines/nearest_neighbours.h"

#include "evaluation/evaluation_fixtures.h"
#include "result_assertions.h"

namespace gpprobe {
namespace {

using testing::expect_near_all;

struct Case {
  std::string name;
  RowMatrix observations, queries;
  std::vector<std::uint8_t> labels;
  nlohmann::json expected;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  const nlohmann::json doc = testing::evaluation_fixture("baselines.json");
  for (const auto& c : doc["cases"]) {
    Case k;
    k.name = c["name"].get<std::string>();
    k.observations = testing::matrix_of(c["observations"]);
    k.queries = testing::matrix_of(c["queries"]);
    k.labels = testing::labels_of(c["labels"]);
    k.expected = c;
    out.push_back(std::move(k));
  }
  return out;
}

std::vector<double> column(std::size_t n) { return std::vector<double>(n); }

TEST(LinearProbe, MatchesScikitLearnLogisticRegression) {
  for (const Case& c : cases()) {
    Result<LinearProbe> lp = LinearProbe::fit(MatrixView(c.observations), c.labels.data(), c.labels.size());
    ASSERT_TRUE(lp.ok()) << c.name << ": " << lp.status().message();
    const auto& e = c.expected["lp"];
    for (Eigen::Index j = 0; j < lp.value().weights().size(); ++j) {
      EXPECT_NEAR(lp.value().weights()[j], e["weights"][std::size_t(j)].get<double>(), 1e-7) << c.name;
    }
    EXPECT_NEAR(lp.value().intercept(), e["intercept"].get<double>(), 1e-7) << c.name;
    std::vector<double> decision = column(c.queries.rows()), probability = column(c.queries.rows());
    ASSERT_TRUE(lp.value().decision(MatrixView(c.queries), decision.data()).ok());
    ASSERT_TRUE(lp.value().probability(MatrixView(c.queries), probability.data()).ok());
    expect_near_all(decision, e["decision"], 1e-6, c.name + " decision");
    expect_near_all(probability, e["probability"], 1e-9, c.name + " probability");
    // The documented target: the default LogisticRegression(), which stops at its tol = 1e-4.
    expect_near_all(probability, e["default_lbfgs_probability"], 1e-4, c.name + " default probability");
    EXPECT_LE(lp.value().iterations(), 30u) << c.name;
  }
}

TEST(LinearProbe, Float32InputsStayWithinTheirRounding) {
  const std::vector<Case> all = cases();
  const Case& c = all[0];
  const Eigen::MatrixXf x = c.observations.cast<float>(), q = c.queries.cast<float>();
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> xr = x, qr = q;
  Result<LinearProbe> lp =
      LinearProbe::fit(MatrixView(xr.data(), xr.rows(), xr.cols()), c.labels.data(), c.labels.size());
  ASSERT_TRUE(lp.ok());
  std::vector<double> probability = column(c.queries.rows());
  ASSERT_TRUE(lp.value().probability(MatrixView(qr.data(), qr.rows(), qr.cols()), probability.data()).ok());
  expect_near_all(probability, c.expected["lp"]["probability"], 1e-5, "float32 probability");
}

TEST(LinearSvm, MatchesTheExactHingeSvm) {
  for (const Case& c : cases()) {
    Result<LinearSvm> svm = LinearSvm::fit(MatrixView(c.observations), c.labels.data(), c.labels.size());
    ASSERT_TRUE(svm.ok()) << c.name << ": " << svm.status().message();
    const auto& e = c.expected["svm"];
    EXPECT_NEAR(svm.value().intercept(), e["intercept"].get<double>(), 1e-9) << c.name;
    std::vector<double> decision = column(c.queries.rows());
    ASSERT_TRUE(svm.value().decision(MatrixView(c.queries), decision.data()).ok());
    expect_near_all(decision, e["decision"], 1e-9, c.name + " svm decision");
  }
}

TEST(LinearProbeEnsemble, ResamplesMatchTheIndependentMirrorOfTheStream) {
  for (const Case& c : cases()) {
    const auto& e = c.expected["lpe"];
    Result<std::vector<std::uint32_t>> counts =
        bootstrap_counts(c.labels.data(), c.labels.size(), e["members"], e["seed"]);
    ASSERT_TRUE(counts.ok());
    std::vector<std::uint32_t> expected;
    for (const auto& row : e["counts"])
      for (const auto& v : row) expected.push_back(v.get<std::uint32_t>());
    EXPECT_EQ(counts.value(), expected) << c.name;
  }
}

TEST(LinearProbeEnsemble, MatchesScikitLearnFitsOnTheResamples) {
  for (const Case& c : cases()) {
    const auto& e = c.expected["lpe"];
    EnsembleOptions options;
    options.members = e["members"];
    options.seed = e["seed"];
    Result<LinearProbeEnsemble> lpe =
        LinearProbeEnsemble::fit(MatrixView(c.observations), c.labels.data(), c.labels.size(), options);
    ASSERT_TRUE(lpe.ok()) << c.name << ": " << lpe.status().message();
    const std::size_t n = c.queries.rows();
    std::vector<double> judged = column(n), variance = column(n), ood = column(n), episteme = column(n),
                        alea = column(n);
    ASSERT_TRUE(
        lpe.value()
            .score(MatrixView(c.queries), {judged.data(), variance.data(), ood.data(), episteme.data(), alea.data()})
            .ok());
    expect_near_all(judged, e["judged_probability"], 1e-9, c.name + " lpe judged");
    expect_near_all(variance, e["variance"], 1e-9, c.name + " lpe variance");
    expect_near_all(alea, e["alea"], 1e-8, c.name + " lpe alea");
    expect_near_all(episteme, e["episteme"], 1e-6, c.name + " lpe episteme");
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(ood[i], -variance[i]);
    if (c.labels.size() == 2) {  // every resample is the pair itself: identical members, variance exactly 0
      for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(variance[i], 0.0) << c.name;
    }
  }
}

TEST(Mahalanobis, MatchesNumpyPseudoInverse) {
  for (const Case& c : cases()) {
    Result<MahalanobisDetector> maha =
        MahalanobisDetector::fit(MatrixView(c.observations), c.labels.data(), c.labels.size());
    ASSERT_TRUE(maha.ok()) << c.name;
    EXPECT_EQ(maha.value().rank(), c.expected["maha"]["rank"].get<std::size_t>()) << c.name;
    std::vector<double> distance = column(c.queries.rows()), ood = column(c.queries.rows());
    ASSERT_TRUE(maha.value().score(MatrixView(c.queries), distance.data(), ood.data()).ok());
    const auto& e = c.expected["maha"]["distance"];
    for (std::size_t i = 0; i < distance.size(); ++i) {
      EXPECT_NEAR(distance[i], e[i].get<double>(), 1e-9 * std::max(1.0, e[i].get<double>())) << c.name << " " << i;
      EXPECT_EQ(ood[i], -distance[i]);
    }
  }
}

TEST(NearestNeighbours, MatchesScikitLearnOnNormalisedRows) {
  for (const Case& c : cases()) {
    for (std::size_t k : {1u, 2u}) {
      Result<NearestNeighbourDetector> knn = NearestNeighbourDetector::fit(MatrixView(c.observations), k);
      ASSERT_TRUE(knn.ok()) << c.name;
      std::vector<double> distance = column(c.queries.rows()), ood = column(c.queries.rows());
      ASSERT_TRUE(knn.value().score(MatrixView(c.queries), distance.data(), ood.data()).ok());
      expect_near_all(distance, c.expected["knn"][k == 1 ? "k1" : "k2"], 1e-7, c.name + " knn");
    }
  }
}

TEST(NearestNeighbours, ZeroRowsStayZeroLikeNormalize) {
  const RowMatrix obs = (RowMatrix(2, 2) << 3, 4, 0, 0).finished();
  const RowMatrix q = (RowMatrix(2, 2) << 0, 0, 6, 8).finished();
  Result<NearestNeighbourDetector> knn = NearestNeighbourDetector::fit(MatrixView(obs), 1);
  ASSERT_TRUE(knn.ok());
  std::vector<double> distance(2);
  ASSERT_TRUE(knn.value().score(MatrixView(q), distance.data(), nullptr).ok());
  EXPECT_DOUBLE_EQ(distance[0], 0.0);  // the zero query meets the zero observation
  EXPECT_DOUBLE_EQ(distance[1], 0.0);  // (6, 8) normalises onto (3, 4)
}

TEST(Baselines, RunBaselineFillsTheDocumentedColumns) {
  const std::vector<Case> all = cases();
  const Case& c = all[0];
  const std::size_t n = c.queries.rows();
  for (const char* name : {"lp", "svm", "lpe", "msp", "maha", "knn"}) {
    Result<BaselineMethod> method = parse_baseline(name);
    ASSERT_TRUE(method.ok());
    EXPECT_STREQ(baseline_name(method.value()), name);
    Result<BaselineScores> r = run_baseline(method.value(), MatrixView(c.observations), c.labels.data(),
                                            c.labels.size(), MatrixView(c.queries), {1.0, 12, 7, 2});
    ASSERT_TRUE(r.ok()) << name << ": " << r.status().message();
    const auto columns = baseline_columns(method.value());
    EXPECT_EQ(r.value().score.size(), n);
    EXPECT_EQ(r.value().probability.size(), columns.size() > 1 ? n : 0u) << name;
    EXPECT_EQ(r.value().episteme.size(), columns.size() > 2 ? n : 0u) << name;
  }
  const auto& e = c.expected;
  Result<BaselineScores> msp = run_baseline(BaselineMethod::msp, MatrixView(c.observations), c.labels.data(),
                                            c.labels.size(), MatrixView(c.queries));
  ASSERT_OK(msp);
  for (std::size_t i = 0; i < n; ++i) {
    const double p = e["lp"]["probability"][i];
    EXPECT_NEAR(msp.value().score[i], std::max(p, 1 - p), 1e-9);
  }
  Result<BaselineScores> lpe = run_baseline(BaselineMethod::lpe, MatrixView(c.observations), c.labels.data(),
                                            c.labels.size(), MatrixView(c.queries), {1.0, 12, 7, 1});
  ASSERT_OK(lpe);
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(lpe.value().score[i], -e["lpe"]["variance"][i].get<double>(), 1e-9);
  Result<BaselineScores> knn = run_baseline(BaselineMethod::knn, MatrixView(c.observations), c.labels.data(),
                                            c.labels.size(), MatrixView(c.queries), {1.0, 100, 0, 2});
  ASSERT_OK(knn);
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(knn.value().score[i], -e["knn"]["k2"][i].get<double>(), 1e-7);
}

TEST(Baselines, EachBadInputNamesTheProblem) {
  const RowMatrix obs = (RowMatrix(3, 2) << 1, 0, 0, 1, 1, 1).finished();
  const RowMatrix q = (RowMatrix(1, 2) << 0.5, 0.5).finished();
  const RowMatrix wide = (RowMatrix(1, 3) << 0.5, 0.5, 1).finished();
  const std::vector<std::uint8_t> y = {1, 0, 1}, ones = {1, 1, 1}, bad = {1, 2, 0};
  RowMatrix nan_obs = obs;
  nan_obs(1, 1) = std::numeric_limits<double>::quiet_NaN();
  const RowMatrix empty(0, 2);
  auto run = [&](const char* method, const RowMatrix& o, const std::vector<std::uint8_t>& l, const RowMatrix& qs,
                 BaselineOptions options = {}) {
    return run_baseline(ok_value(parse_baseline(method)), MatrixView(o), l.data(), l.size(), MatrixView(qs), options)
        .status();
  };
  testing::expect_statuses({
      {parse_baseline("forest").status(), StatusCode::invalid_argument,
       "method must be lp, svm, lpe, msp, maha or knn, got 'forest'"},
      {run("lp", obs, ones, q), StatusCode::invalid_argument,
       "lp needs observations of both classes; all 3 labels are 1"},
      {run("svm", obs, ones, q), StatusCode::invalid_argument,
       "svm needs observations of both classes; all 3 labels are 1"},
      {run("lpe", obs, ones, q), StatusCode::invalid_argument,
       "lpe needs observations of both classes; all 3 labels are 1"},
      {run("msp", obs, ones, q), StatusCode::invalid_argument,
       "lp needs observations of both classes; all 3 labels are 1"},
      {run("maha", obs, bad, q), StatusCode::invalid_argument, "label 1 is 2; labels must be 0 or 1"},
      {run("knn", obs, {1, 0}, q), StatusCode::dimension_mismatch, "labels have 2 entries, observations have 3 rows"},
      {run("lp", nan_obs, y, q), StatusCode::non_finite, "observations row 1, column 1 is NaN"},
      {run("maha", empty, {}, q), StatusCode::invalid_argument, "observations are empty (0 rows)"},
      {run("svm", obs, y, wide), StatusCode::dimension_mismatch, "queries have 3 columns, observations have 2 columns"},
      {run("knn", obs, y, empty), StatusCode::invalid_argument, "queries are empty (0 rows)"},
      {run("knn", obs, y, q, {1.0, 100, 0, 4}), StatusCode::invalid_argument,
       "knn: k must be between 1 and the number of observations (3), got 4"},
      {run("knn", obs, y, q, {1.0, 100, 0, 0}), StatusCode::invalid_argument,
       "knn: k must be between 1 and the number of observations (3), got 0"},
      {run("lp", obs, y, q, {0.0, 100, 0, 1}), StatusCode::invalid_argument, "C must be a finite number > 0, got 0"},
      {run("svm", obs, y, q, {-1.0, 100, 0, 1}), StatusCode::invalid_argument, "C must be a finite number > 0, got -1"},
      {run("lpe", obs, y, q, {1.0, 0, 0, 1}), StatusCode::invalid_argument, "lpe needs at least 1 member, got 0"},
  });
  const std::vector<std::uint8_t> single = {0};
  const RowMatrix one_row = obs.topRows(1);
  EXPECT_EQ(LinearProbe::fit(MatrixView(one_row), single.data(), 1).status().message(),
            "lp needs observations of both classes; the only label is 0");
}

TEST(Baselines, CancellingTheEnsembleStopsAfterTheCurrentMember) {
  const std::vector<Case> all = cases();
  const Case& c = all[0];
  std::size_t calls = 0;
  Result<BaselineScores> r =
      run_baseline(BaselineMethod::lpe, MatrixView(c.observations), c.labels.data(), c.labels.size(),
                   MatrixView(c.queries), {}, [&](std::size_t done, std::size_t total) {
                     ++calls;
                     EXPECT_EQ(total, 100u);
                     return done < 3;
                   });
  EXPECT_EQ(r.status().code(), StatusCode::cancelled);
  EXPECT_EQ(r.status().message(), "lpe fitting cancelled after 3 members of 100");
  EXPECT_EQ(calls, 3u);
}

// A resample drawn twice is fitted once and copied: its members equal a fit of that resample alone, bit
// for bit, wherever it appears.
TEST(LinearProbeEnsemble, RepeatedResamplesGiveTheSeparateFitsBits) {
  for (const Case& c : cases()) {
    const std::size_t O = c.labels.size();
    Result<std::vector<std::uint32_t>> drawn = bootstrap_counts(c.labels.data(), O, 2, 5);
    ASSERT_TRUE(drawn.ok());
    const std::vector<std::uint32_t>& two = drawn.value();
    std::vector<std::uint32_t> counts;  // resamples r0 r1 r0 r1 r0
    for (std::size_t k = 0; k < 5; ++k)
      counts.insert(counts.end(), two.begin() + std::ptrdiff_t(k % 2 * O),
                    two.begin() + std::ptrdiff_t((k % 2 + 1) * O));
    Result<LinearProbeEnsemble> all =
        LinearProbeEnsemble::fit_resamples(MatrixView(c.observations), c.labels.data(), O, counts.data(), 5);
    ASSERT_TRUE(all.ok()) << c.name;
    for (std::size_t r = 0; r < 2; ++r) {
      Result<LinearProbeEnsemble> alone =
          LinearProbeEnsemble::fit_resamples(MatrixView(c.observations), c.labels.data(), O, &two[r * O], 1);
      ASSERT_TRUE(alone.ok()) << c.name;
      for (std::size_t m = r; m < 5; m += 2) {
        EXPECT_TRUE(
            (all.value().weights().row(Eigen::Index(m)).array() == alone.value().weights().row(0).array()).all())
            << c.name << " member " << m;
      }
    }
  }
}

// Scoring (distinct members with their shares, sums through logistic_expectations) gives the header's
// measures computed member by member from the members' weights, to rounding.
TEST(LinearProbeEnsemble, ScoresEqualTheMembersSumsOneByOne) {
  for (const Case& c : cases()) {
    Result<LinearProbeEnsemble> lpe =
        LinearProbeEnsemble::fit(MatrixView(c.observations), c.labels.data(), c.labels.size(), {37, 3, 1.0});
    ASSERT_TRUE(lpe.ok()) << c.name;
    const RowMatrix& W = lpe.value().weights();
    const std::size_t n = c.queries.rows(), M = std::size_t(W.rows()), d = std::size_t(c.queries.cols());
    std::vector<double> judged = column(n), variance = column(n), ood = column(n), episteme = column(n),
                        alea = column(n);
    ASSERT_TRUE(
        lpe.value()
            .score(MatrixView(c.queries), {judged.data(), variance.data(), ood.data(), episteme.data(), alea.data()})
            .ok());
    for (std::size_t q = 0; q < n; ++q) {
      std::vector<double> t(M);
      double g_mean = 0, t_mean = 0, sp_neg = 0, entropy = 0;
      for (std::size_t m = 0; m < M; ++m) {
        t[m] = W(Eigen::Index(m), Eigen::Index(d));
        for (std::size_t j = 0; j < d; ++j)
          t[m] += W(Eigen::Index(m), Eigen::Index(j)) * c.queries(Eigen::Index(q), Eigen::Index(j));
        const double g = 1.0 / (1.0 + std::exp(-t[m]));
        const double tail = std::log1p(std::exp(-std::abs(t[m])));
        const double neg = std::max(-t[m], 0.0) + tail, pos = std::max(t[m], 0.0) + tail;  // softplus(-t), softplus(t)
        g_mean += g / double(M);
        t_mean += t[m] / double(M);
        sp_neg += neg / double(M);
        entropy += (g * neg + (1.0 - g) * pos) / double(M);
      }
      double g_var = 0, t_var = 0;
      for (std::size_t m = 0; m < M; ++m) {
        const double g = 1.0 / (1.0 + std::exp(-t[m]));
        g_var += (g - g_mean) * (g - g_mean) / double(M);
        t_var += (t[m] - t_mean) * (t[m] - t_mean) / double(M);
      }
      const double episteme_expected =
          -(0.5 * std::log(2.0 * M_PI * M_E * std::max(t_var, 1e-12)) - t_mean - 2.0 * sp_neg);
      EXPECT_NEAR(judged[q], g_mean, 1e-13) << c.name << " query " << q;
      EXPECT_NEAR(alea[q], entropy, 1e-13) << c.name << " query " << q;
      EXPECT_NEAR(variance[q], g_var, 1e-13) << c.name << " query " << q;
      EXPECT_NEAR(episteme[q], episteme_expected, 1e-9 * std::max(1.0, std::abs(episteme_expected)))
          << c.name << " query " << q;
    }
  }
}

}  // namespace
}  // namespace gpprobe
