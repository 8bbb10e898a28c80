// Every bad input comes back as a Status with the exact message a user will read.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "gpprobe/probe/probe.h"

#include "result_assertions.h"

namespace gpprobe {
namespace {

struct Data {
  RowMatrix X{3, 2};
  std::vector<std::uint8_t> y{1, 0, 1};
  Data() { X << 1, 0, 0, 1, 1, 1; }
};

Status fit_status(const RowMatrix& X, const std::vector<std::uint8_t>& y, double eps = 0.1, double s = 5) {
  ProbeOptions o;
  o.epsilon = eps;
  o.strength = s;
  return Probe::fit(MatrixView(X), y.data(), y.size(), o).status();
}

void expect_status(const Status& s, StatusCode code, const std::string& message) {
  EXPECT_EQ(s.code(), code) << s.message();
  EXPECT_EQ(s.message(), message);
}

TEST(BadInput, NonFiniteObservationsAndQueries) {
  Data d;
  d.X(1, 0) = std::nan("");
  expect_status(fit_status(d.X, d.y), StatusCode::non_finite, "observations row 1, column 0 is NaN");
  d.X(1, 0) = -std::numeric_limits<double>::infinity();
  expect_status(fit_status(d.X, d.y), StatusCode::non_finite, "observations row 1, column 0 is -Inf");

  Data good;
  Result<Probe> probe = Probe::fit(MatrixView(good.X), good.y.data(), 3);
  ASSERT_TRUE(probe.ok());
  RowMatrix Q(2, 2);
  Q << 0, 0, 1, std::numeric_limits<double>::infinity();
  std::vector<double> out(2);
  ProbeScoreColumns c;
  c.judged_probability = out.data();
  expect_status(probe.value().score(MatrixView(Q), c), StatusCode::non_finite, "queries row 1, column 1 is +Inf");
}

TEST(BadInput, ShapesThatDoNotFit) {
  Data d;
  Result<Probe> probe = Probe::fit(MatrixView(d.X), d.y.data(), 3);
  ASSERT_TRUE(probe.ok());
  RowMatrix Q(1, 3);
  Q << 1, 2, 3;
  std::vector<double> out(1);
  ProbeScoreColumns c;
  c.judged_probability = out.data();
  expect_status(probe.value().score(MatrixView(Q), c), StatusCode::dimension_mismatch,
                "queries have 3 columns, observations have 2 columns");
  expect_status(fit_status(d.X, {1, 0}), StatusCode::dimension_mismatch,
                "labels have 2 entries, observations have 3 rows");
  expect_status(fit_status(d.X, {1, 0, 1, 1}), StatusCode::dimension_mismatch,
                "labels have 4 entries, observations have 3 rows");
  const RowMatrix empty(0, 2);
  expect_status(probe.value().score(MatrixView(empty), c), StatusCode::invalid_argument, "queries are empty (0 rows)");
}

TEST(BadInput, QueriesOfNoColumns) {
  // A probe of no observation takes queries of any width, but not of none (found by fuzzing: 2^64 - 1
  // rows of 0 columns were checked one empty row at a time).
  Result<Probe> prior = Probe::fit(MatrixView(static_cast<const double*>(nullptr), 0, 0), nullptr, 0);
  ASSERT_TRUE(prior.ok());
  std::vector<double> out(3);
  ProbeScoreColumns c;
  c.judged_probability = out.data();
  const RowMatrix no_columns(3, 0);
  expect_status(prior.value().score(MatrixView(no_columns), c), StatusCode::invalid_argument, "queries have 0 columns");
}

TEST(BadInput, LabelsOutsideZeroOne) {
  Data d;
  expect_status(fit_status(d.X, {1, 2, 0}), StatusCode::invalid_argument, "label 1 is 2; labels must be 0 or 1");
  Result<Probe> probe = Probe::fit(MatrixView(d.X), d.y.data(), 3);
  ASSERT_OK(probe);
  const RowMatrix row = d.X.topRows(1);
  expect_status(probe.value().add_observation(MatrixView(row), 7), StatusCode::invalid_argument,
                "label 0 is 7; labels must be 0 or 1");
  EXPECT_EQ(probe.value().observation_count(), 3u);  // unchanged
  expect_status(probe.value().remove_observation(3), StatusCode::invalid_argument,
                "cannot remove observation 3: the probe has 3 observations");
}

TEST(BadInput, HyperparametersOutsideTheirDomain) {
  Data d;
  expect_status(fit_status(d.X, d.y, 0.0), StatusCode::invalid_argument, "epsilon must be a finite number > 0, got 0");
  expect_status(fit_status(d.X, d.y, -1.5), StatusCode::invalid_argument,
                "epsilon must be a finite number > 0, got -1.5");
  expect_status(fit_status(d.X, d.y, std::nan("")), StatusCode::invalid_argument,
                "epsilon must be a finite number > 0, got nan");
  expect_status(fit_status(d.X, d.y, std::numeric_limits<double>::infinity()), StatusCode::invalid_argument,
                "epsilon must be a finite number > 0, got inf");
  expect_status(fit_status(d.X, d.y, 0.1, 0.0), StatusCode::invalid_argument,
                "strength must be a finite number > 0, got 0");
  expect_status(fit_status(d.X, d.y, 0.1, -2.0), StatusCode::invalid_argument,
                "strength must be a finite number > 0, got -2");
}

TEST(BadInput, HyperparametersAtTheEdgeOfDoublePrecision) {
  // epsilon = 5e-324 made the prior variance log(1/epsilon + 1) = +Inf and every output NaN.
  Data d;
  expect_status(fit_status(d.X, d.y, 5e-324), StatusCode::invalid_argument,
                "epsilon must be between 1e-300 and 1e+300 (the prior variance log(1/epsilon + 1) must be a normal, "
                "finite number), got 4.9406564584124654e-324");
  expect_status(fit_status(d.X, d.y, 1e301), StatusCode::invalid_argument,
                "epsilon must be between 1e-300 and 1e+300 (the prior variance log(1/epsilon + 1) must be a normal, "
                "finite number), got 1.0000000000000001e+301");
  expect_status(fit_status(d.X, d.y, 0.1, 1e301), StatusCode::invalid_argument,
                "strength must be between 0 and 1e+300 (epsilon + strength must stay finite), got "
                "1.0000000000000001e+301");
  // The ends of the domain fit and score to finite numbers, knowledge in [0, 1].
  for (auto [eps, s] :
       {std::pair{1e-300, 5.0}, std::pair{1e300, 5.0}, std::pair{0.1, 1e300}, std::pair{1e300, 1e300}}) {
    ProbeOptions o;
    o.epsilon = eps;
    o.strength = s;
    Result<Probe> probe = Probe::fit(MatrixView(d.X), d.y.data(), 3, o);
    if (!probe.ok()) {  // a strength this large pins the data down beyond double precision: said so
      EXPECT_EQ(probe.status().code(), StatusCode::numerical_failure) << eps << " " << s << probe.status().message();
      continue;
    }
    std::vector<double> judged(3), episteme(3), alea(3), mean(3), variance(3), knowledge(3);
    ProbeScoreColumns c{judged.data(),   episteme.data(),  alea.data(), mean.data(),
                        variance.data(), knowledge.data(), nullptr};
    ASSERT_TRUE(probe.value().score(MatrixView(d.X), c).ok()) << eps << " " << s;
    for (int q = 0; q < 3; ++q) {
      for (double v : {judged[q], episteme[q], alea[q], mean[q], variance[q]}) EXPECT_TRUE(std::isfinite(v)) << eps;
      EXPECT_GE(knowledge[q], 0.0);
      EXPECT_LE(knowledge[q], 1.0);
    }
  }
}

TEST(BadInput, AddedObservationWithTheWrongShape) {
  Data d;
  Result<Probe> probe = Probe::fit(MatrixView(d.X), d.y.data(), 3);
  ASSERT_OK(probe);
  RowMatrix wide(1, 3);
  wide << 1, 2, 3;
  expect_status(probe.value().add_observation(MatrixView(wide), 1), StatusCode::dimension_mismatch,
                "the added observation has 3 columns, observations have 2 columns");
  RowMatrix nan_row(1, 2);
  nan_row << 1, std::nan("");
  expect_status(probe.value().add_observation(MatrixView(nan_row), 1), StatusCode::non_finite,
                "the added observation row 0, column 1 is NaN");
  EXPECT_EQ(probe.value().observation_count(), 3u);
}

}  // namespace
}  // namespace gpprobe
