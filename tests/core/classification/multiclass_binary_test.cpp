// C = 2 is binary classification (docs/design/multiclass.md): the two-class softmax model with one shared
// kernel K is the binary logistic model with kernel 2K on f = f^1 - f^0 (class 1 = label +1). On every
// binary golden case with a logistic Laplace reference (tests/reference/gpc_golden.json), independently of
// our binary code and against it:
//   evidence     equal (1e-10), and the binary golden value (1e-9)
//   mode         f^1 - f^0 = binary f^ (1e-9), f^0 + f^1 = 0 (1e-10)
//   gradient     the tied (summed) gradient = the binary gradient in [log s2, log l_j] (1e-8)
//   predictions  mu_1 - mu_0 = binary mean, Sigma_00 + Sigma_11 - 2 Sigma_01 = binary variance (1e-9),
//                pi^1 = binary logistic probability (1e-12) and = the golden one (1e-9)
// and the certified extremes and the safety verdict of class 1 over a box agree with the binary ones.
#include <gtest/gtest.h>

#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/certify/multiclass_robustness.h"
#include "gpprobe/classification/laplace_classifier.h"

#include "gpc_fixtures.h"
#include "multiclass_fixtures.h"

namespace gpprobe {
namespace {

using testing::relatively_near;

struct TwoModels {
  ClassifierTrainingData binary_data;
  SeArdKernel binary_kernel;
  MulticlassTrainingData data;
  SeArdKernel kernel;  // half the binary signal variance
};

TwoModels two_models(const nlohmann::json& c) {
  TwoModels t;
  t.binary_data = testing::gpc_data(c);
  t.binary_kernel = testing::gpc_kernel(c).expanded(t.binary_data.dimension());
  std::vector<double> labels;
  for (Eigen::Index i = 0; i < t.binary_data.y.size(); ++i) labels.push_back(t.binary_data.y[i] > 0 ? 1.0 : 0.0);
  t.data = make_multiclass_training_data(MatrixView(t.binary_data.x), labels.data(), labels.size(), 2).value();
  t.kernel = t.binary_kernel;
  t.kernel.signal_variance *= 0.5;
  return t;
}

TEST(MulticlassBinary, TwoClassesAreTheBinaryLogisticModelWithKernelTwiceK) {
  std::size_t cases = 0;
  for (const auto& c : testing::gpc_golden_cases()) {
    if (!c.contains("laplace_logistic")) continue;
    SCOPED_TRACE(c["name"].get<std::string>());
    const TwoModels t = two_models(c);
    const MulticlassLaplace model = testing::fitted_multiclass(t.data, {t.kernel});
    Result<LaplaceFit> binary =
        fit_laplace(t.binary_data, t.binary_kernel.kernel(), ClassifierLikelihood::logistic, true);
    ASSERT_TRUE(binary.ok());
    const nlohmann::json& e = c["laplace_logistic"];
    EXPECT_TRUE(relatively_near(model.log_marginal_likelihood(), binary.value().log_marginal_likelihood, 1e-10));
    EXPECT_TRUE(relatively_near(model.log_marginal_likelihood(), e["log_marginal_likelihood"], 1e-9));
    for (std::size_t i = 0; i < t.data.size(); ++i) {
      const double f0 = model.f_hat()(Eigen::Index(i), 0), f1 = model.f_hat()(Eigen::Index(i), 1);
      EXPECT_TRUE(relatively_near(f1 - f0, binary.value().f_hat[Eigen::Index(i)], 1e-9)) << i;
      EXPECT_NEAR(f0 + f1, 0.0, 1e-10) << i;
    }
    const std::vector<double> tied = model.tied_gradient();
    ASSERT_EQ(tied.size(), binary.value().gradient.size());
    for (std::size_t p = 0; p < tied.size(); ++p)
      EXPECT_TRUE(relatively_near(tied[p], binary.value().gradient[p], 1e-8)) << p;

    ClassifierOptions options;
    options.likelihood = ClassifierLikelihood::logistic;
    const GpClassifier gpc = GpClassifier::fit(t.binary_data, t.binary_kernel, options).value();
    const RowMatrix test = testing::gpc_matrix(c["X_test"]);
    const std::size_t m = std::size_t(test.rows());
    std::vector<double> mean(m), variance(m), probability(m);
    ASSERT_TRUE(gpc.predict(MatrixView(test), {mean.data(), variance.data(), probability.data()}).ok());
    const MulticlassPrediction p = model.predict(MatrixView(test)).value();
    for (std::size_t q = 0; q < m; ++q) {
      const Eigen::MatrixXd S = p.latent.covariance_at(q);
      const double mu = p.latent.mean(Eigen::Index(q), 1) - p.latent.mean(Eigen::Index(q), 0);
      EXPECT_TRUE(relatively_near(mu, mean[q], 1e-9)) << q;
      EXPECT_TRUE(relatively_near(S(0, 0) + S(1, 1) - 2.0 * S(0, 1), variance[q], 1e-9)) << q;
      EXPECT_NEAR(p.probability(Eigen::Index(q), 1), probability[q], 1e-12) << q;
      EXPECT_TRUE(relatively_near(p.probability(Eigen::Index(q), 1), e["prob"][q], 1e-9)) << q;
    }
    ++cases;
  }
  EXPECT_EQ(cases, 4u);
}

TEST(MulticlassBinary, CertifiedExtremesAndSafetyAgreeWithTheBinarySearch) {
  const nlohmann::json c = testing::gpc_golden_cases()[2];  // xor-2d
  ASSERT_EQ(c["name"], "xor-2d");
  const TwoModels t = two_models(c);
  const MulticlassLaplace model = testing::fitted_multiclass(t.data, {t.kernel});
  ClassifierOptions gpc_options;
  gpc_options.likelihood = ClassifierLikelihood::logistic;
  const GpClassifier gpc = GpClassifier::fit(t.binary_data, t.binary_kernel, gpc_options).value();
  const RowMatrix test = testing::gpc_matrix(c["X_test"]);
  for (Eigen::Index row : {0, 1}) {
    const std::vector<double> point(test.row(row).data(), test.row(row).data() + test.cols());
    for (double gamma : {0.05, 0.3}) {
      SCOPED_TRACE("point " + std::to_string(row) + ", gamma " + std::to_string(gamma));
      RobustnessOptions binary_options;
      binary_options.gamma = gamma;
      binary_options.tolerance = 0.01;
      const RobustnessCertificate b = certify_robustness(gpc.common_form(), point, binary_options).value();
      MulticlassRobustnessOptions options;
      options.gamma = gamma;
      options.tolerance = 0.01;
      const ClassCertificate m = certify_class_probability(model, point, 1, options).value();
      EXPECT_NEAR(m.probability_at_point[1], b.probability_at_point, 1e-12);
      for (const auto& [ours, theirs] : {std::pair{m.minimum, b.minimum}, std::pair{m.maximum, b.maximum}}) {
        EXPECT_EQ(ours.status, SearchStatus::converged);
        EXPECT_LE(ours.upper - ours.lower, 0.01 + 1e-12);
        // Both intervals hold the same extreme: they overlap.
        EXPECT_LE(std::max(ours.lower, theirs.lower), std::min(ours.upper, theirs.upper) + 1e-12);
      }
      // Safety: class 1 is predicted iff pi > 1/2, and the margin is 2 pi^{c^} - 1.
      const SafetyCertificate s = certify_safety(model, point, options).value();
      EXPECT_EQ(s.predicted_class, b.probability_at_point > 0.5 ? 1u : 0u);
      if (b.verdict_can_flip == VerdictFlip::no) EXPECT_NE(s.verdict, SafetyVerdict::refuted);
      if (b.verdict_can_flip == VerdictFlip::yes) EXPECT_NE(s.verdict, SafetyVerdict::certified);
      const double extreme =
          s.predicted_class == 1 ? b.minimum.lower : 1.0 - b.maximum.upper;  // pi^{c^}_min lower bound
      if (s.verdict == SafetyVerdict::certified)
        EXPECT_GT(2.0 * (s.predicted_class == 1 ? b.minimum.upper : 1.0 - b.maximum.lower) - 1.0, 0.0);
      if (s.verdict == SafetyVerdict::refuted) EXPECT_LT(2.0 * extreme - 1.0, 0.0);
      EXPECT_NE(s.verdict, SafetyVerdict::unknown);
    }
  }
}

}  // namespace
}  // namespace gpprobe
