// Certified multi-class robustness (multiclass_robustness.h) on golden models, checked against the
// model's own predictions at 10,000 sampled points of the region (and its corners):
//   class extremes  lower <= every sampled value <= upper of the maximum; both searches converge to the
//                   tolerance; each witness lies in T and predict gives its probability to 1e-12
//   safety margin   the margin's lower bound lies below every sampled margin; a certified point, a refuted
//                   one (the witness's margin < 0 by predict), and a cancelled search that still returns a
//                   valid interval.
#include "gpprobe/certify/multiclass_robustness.h"

#include <random>

#include <gtest/gtest.h>

#include "classification/multiclass_fixtures.h"

namespace gpprobe {
namespace {

struct Sampled {
  RowMatrix probability;  // m by C
};

Sampled sample_region(const MulticlassLaplace& model, const RobustnessRegion& region, std::size_t count) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const Box& box = region.box();
  const std::size_t k = box.dimension(), d = model.dimension();
  RowMatrix X(Eigen::Index(count + (std::size_t(1) << k)), Eigen::Index(d));
  for (Eigen::Index s = 0; s < X.rows(); ++s) {
    std::vector<double> moving(k);
    for (std::size_t a = 0; a < k; ++a) {
      const bool corner = std::size_t(s) < (std::size_t(1) << k);
      moving[a] = corner ? ((std::size_t(s) >> a) & 1 ? box.upper[a] : box.lower[a])
                         : box.lower[a] + (box.upper[a] - box.lower[a]) * unit(rng);
    }
    const std::vector<double> x = region.full(moving);
    for (std::size_t j = 0; j < d; ++j) X(s, Eigen::Index(j)) = x[j];
  }
  SoftmaxExpectationOptions quadrature;  // 1e-9: far below every gap compared here
  quadrature.tolerance = 1e-9;
  return {model.predict(MatrixView(X), quadrature).value().probability};
}

double margin(const Eigen::Ref<const Eigen::RowVectorXd>& p, std::size_t predicted) {
  double other = -1.0;
  for (Eigen::Index c = 0; c < p.size(); ++c)
    if (std::size_t(c) != predicted) other = std::max(other, p[c]);
  return p[Eigen::Index(predicted)] - other;
}

void check_extremes(const MulticlassLaplace& model, const std::vector<double>& point, std::size_t c,
                    const MulticlassRobustnessOptions& options) {
  const ClassCertificate cert = certify_class_probability(model, point, c, options).value();
  const RobustnessRegion region = RobustnessRegion::linf_ball(point, options.gamma, options.dims).value();
  const Sampled s = sample_region(model, region, 10000);
  const double lowest = s.probability.col(Eigen::Index(c)).minCoeff(),
               highest = s.probability.col(Eigen::Index(c)).maxCoeff();
  EXPECT_LE(cert.root.lower, lowest + 1e-8);
  EXPECT_GE(cert.root.upper, highest - 1e-8);
  for (const ClassExtreme* e : {&cert.minimum, &cert.maximum}) {
    EXPECT_EQ(e->status, SearchStatus::converged);
    EXPECT_LE(e->upper - e->lower, options.tolerance + 1e-12);
    ASSERT_EQ(e->witness.size(), point.size());
    for (std::size_t j = 0; j < point.size(); ++j) {
      EXPECT_GE(e->witness[j], cert.lower[j]);
      EXPECT_LE(e->witness[j], cert.upper[j]);
    }
    const double at_witness = model.probability_at(e->witness.data(), options.quadrature)[c];
    EXPECT_NEAR(at_witness, e == &cert.minimum ? e->upper : e->lower, 1e-12);
  }
  EXPECT_LE(cert.minimum.lower, lowest + 1e-8);
  EXPECT_LE(cert.minimum.upper, lowest + options.tolerance + 1e-8);
  EXPECT_GE(cert.maximum.upper, highest - 1e-8);
  EXPECT_GE(cert.maximum.lower, highest - options.tolerance - 1e-8);
  std::cout << "  class " << c << ": min in [" << cert.minimum.lower << ", " << cert.minimum.upper << "] ("
            << cert.minimum.iterations << " splits), sampled " << lowest << "; max in [" << cert.maximum.lower << ", "
            << cert.maximum.upper << "] (" << cert.maximum.iterations << " splits), sampled " << highest << "\n";
}

std::vector<double> test_point(const nlohmann::json& c, Eigen::Index row) {
  const RowMatrix test = testing::gpc_matrix(c["X_test"]);
  return std::vector<double>(test.row(row).data(), test.row(row).data() + test.cols());
}

TEST(MulticlassRobustness, ClassExtremesSharedKernel) {
  const nlohmann::json c = testing::multiclass_golden_cases()[0];
  const MulticlassLaplace model =
      testing::fitted_multiclass(testing::multiclass_data(c), testing::multiclass_kernels(c), false);
  MulticlassRobustnessOptions options;
  options.gamma = 0.3;
  options.tolerance = 0.02;
  for (std::size_t k = 0; k < 3; ++k) check_extremes(model, test_point(c, 0), k, options);
}

TEST(MulticlassRobustness, ClassExtremesPerClassKernelsAndFourClasses) {
  const nlohmann::json c = testing::multiclass_golden_cases()[1];
  const MulticlassLaplace model =
      testing::fitted_multiclass(testing::multiclass_data(c), testing::multiclass_kernels(c), false);
  MulticlassRobustnessOptions options;
  options.gamma = 0.25;
  options.dims = {0, 1};
  options.tolerance = 0.02;
  check_extremes(model, test_point(c, 1), 2, options);
  const nlohmann::json q = testing::multiclass_golden_cases()[2];
  const MulticlassLaplace four =
      testing::fitted_multiclass(testing::multiclass_data(q), testing::multiclass_kernels(q), false);
  options.dims = {};
  options.gamma = 0.1;
  options.tolerance = 0.05;
  check_extremes(four, test_point(q, 0), 0, options);
}

TEST(MulticlassRobustness, SafetyCertifiedRefutedAndCancelled) {
  const nlohmann::json c = testing::multiclass_golden_cases()[0];
  const MulticlassLaplace model =
      testing::fitted_multiclass(testing::multiclass_data(c), testing::multiclass_kernels(c), false);
  MulticlassRobustnessOptions options;
  options.tolerance = 0.01;
  std::size_t certified = 0, refuted = 0;
  for (Eigen::Index row = 0; row < 7; ++row) {
    const std::vector<double> point = test_point(c, row);
    for (double gamma : {0.1, 2.0}) {
      options.gamma = gamma;
      const SafetyCertificate s = certify_safety(model, point, options).value();
      const RobustnessRegion region = RobustnessRegion::linf_ball(point, gamma).value();
      const Sampled sampled = sample_region(model, region, 10000);
      double lowest = 1.0;
      for (Eigen::Index i = 0; i < sampled.probability.rows(); ++i)
        lowest = std::min(lowest, margin(sampled.probability.row(i), s.predicted_class));
      EXPECT_LE(s.lower, lowest + 1e-8);
      EXPECT_NEAR(margin(Eigen::Map<const Eigen::RowVectorXd>(s.witness_probabilities.data(), 3), s.predicted_class),
                  s.upper, 1e-12);
      const std::vector<double> again = model.probability_at(s.witness.data());
      EXPECT_NEAR(margin(Eigen::Map<const Eigen::RowVectorXd>(again.data(), 3), s.predicted_class), s.upper, 1e-12);
      if (s.verdict == SafetyVerdict::certified) {
        ++certified;
        EXPECT_GT(s.lower, 0.0);
        EXPECT_GT(lowest, 0.0);
      } else if (s.verdict == SafetyVerdict::refuted) {
        ++refuted;
        EXPECT_LT(s.upper, 0.0);
      } else {
        EXPECT_LE(s.upper - s.lower, options.tolerance + 1e-12);
      }
      std::cout << "  point " << row << " gamma " << gamma << ": " << safety_verdict_name(s.verdict) << " margin in ["
                << s.lower << ", " << s.upper << "], sampled min " << lowest << ", " << safety_stop_name(s.stop)
                << " after " << s.iterations << " splits\n";
    }
  }
  EXPECT_GT(certified, 0u);
  EXPECT_GT(refuted, 0u);

  // Cancelled after 3 splits: the interval reached is still valid.
  options.gamma = 0.8;
  options.stop_when_decided = false;
  options.tolerance = 1e-6;
  const std::vector<double> point = test_point(c, 0);
  const SafetyCertificate s =
      certify_safety(model, point, options, [](std::size_t done, std::size_t) { return done < 3; }).value();
  EXPECT_EQ(s.stop, SafetyStop::cancelled);
  EXPECT_EQ(s.iterations, 3u);
  const Sampled sampled = sample_region(model, RobustnessRegion::linf_ball(point, 0.8).value(), 10000);
  for (Eigen::Index i = 0; i < sampled.probability.rows(); ++i)
    EXPECT_LE(s.lower, margin(sampled.probability.row(i), s.predicted_class) + 1e-8);
}

}  // namespace
}  // namespace gpprobe
