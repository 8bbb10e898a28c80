// The common form (alpha, Q) every fitted classifier exposes: Q equals (K + W^-1)^-1 formed densely, the
// blocked evaluation equals mu = k'alpha, Sigma = s2 - k'Qk point by point, and evaluation reports
// progress and cancels.
#include <Eigen/Dense>
#include <gtest/gtest.h>

#include "gpprobe/classification/ep_classifier.h"
#include "gpprobe/classification/laplace_classifier.h"
#include "gpprobe/classification/probability.h"
#include "gpprobe/kernels/kernel_matrix.h"

#include "gpc_fixtures.h"
#include "result_assertions.h"

namespace gpprobe {
namespace {

const nlohmann::json& xor_case() {
  static const nlohmann::json c = testing::gpc_golden_cases()[2];
  return c;
}

// (K + diag(1 / w))^-1 by a dense solve: the textbook formula, independent of the factor M.
Eigen::MatrixXd dense_q(const ClassifierTrainingData& data, const SeArdKernel& kernel, const Eigen::VectorXd& w) {
  Eigen::MatrixXd A = kernel_matrix(kernel.kernel(), data.x.data(), data.size(), data.dimension());
  A.diagonal() += w.cwiseInverse();
  return A.inverse();
}

TEST(ClassifierCommonForm, QIsTheInverseOfKPlusWInverse) {
  const ClassifierTrainingData data = testing::gpc_data(xor_case());
  const SeArdKernel kernel = testing::gpc_kernel(xor_case());
  const LaplaceFit laplace = ok_value(fit_laplace(data, kernel.kernel(), ClassifierLikelihood::probit, false));
  const EpFit ep = ok_value(fit_ep(data, kernel.kernel(), false));
  for (ClassifierMethod method : {ClassifierMethod::laplace, ClassifierMethod::ep}) {
    ClassifierOptions options;
    options.method = method;
    const GpClassifier gpc = ok_value(GpClassifier::fit(data, kernel, options));
    const ClassifierCommonForm& form = gpc.common_form();
    const Eigen::MatrixXd expected =
        dense_q(data, kernel, method == ClassifierMethod::laplace ? laplace.W : ep.site_tau);
    EXPECT_LT((Eigen::MatrixXd(form.Q()) - expected).cwiseAbs().maxCoeff(), 1e-12 * expected.cwiseAbs().maxCoeff());
    EXPECT_EQ(Eigen::MatrixXd(form.Q()), Eigen::MatrixXd(form.Q()).transpose());
    EXPECT_EQ(form.alpha(), method == ClassifierMethod::laplace ? laplace.alpha : ep.alpha);
    EXPECT_EQ(form.inputs(), data.x);
    EXPECT_EQ(form.signal_variance(), 4.0);
    EXPECT_EQ(form.length_scales(), (std::vector<double>{0.9, 1.3}));
    EXPECT_EQ(form.likelihood(), ClassifierLikelihood::probit);
    EXPECT_EQ(form.size(), 30u);
    EXPECT_EQ(form.dimension(), 2u);
  }
}

TEST(ClassifierCommonForm, BlockedEvaluationEqualsTheFormulaPointByPoint) {
  const ClassifierTrainingData data = testing::gpc_data(xor_case());
  const SeArdKernel kernel = testing::gpc_kernel(xor_case());
  ClassifierOptions options;
  options.likelihood = ClassifierLikelihood::logistic;
  const ClassifierCommonForm form = ok_value(GpClassifier::fit(data, kernel, options)).common_form();
  // 600 points: three blocks of up to 256.
  RowMatrix points(600, 2);
  for (Eigen::Index i = 0; i < points.rows(); ++i) points.row(i) << -3.0 + 0.01 * double(i), 2.0 - 0.007 * double(i);
  std::vector<double> mean(600), variance(600), probability(600);
  std::vector<std::size_t> reports;
  ASSERT_TRUE(form.evaluate(MatrixView(points), {mean.data(), variance.data(), probability.data()},
                            [&](std::size_t done, std::size_t total) {
                              EXPECT_EQ(total, 600u);
                              reports.push_back(done);
                              return true;
                            })
                  .ok());
  EXPECT_EQ(reports, (std::vector<std::size_t>{256, 512, 600}));
  const Eigen::MatrixXd Q = form.Q();
  for (Eigen::Index i = 0; i < points.rows(); i += 37) {
    Eigen::VectorXd k(30);
    cross_kernel_matrix(kernel.kernel(), points.row(i).data(), 1, data.x.data(), 30, 2, k.data());
    const double mu = k.dot(form.alpha()), sigma = 4.0 - k.dot(Q * k);
    EXPECT_NEAR(mean[std::size_t(i)], mu, 1e-13);
    EXPECT_NEAR(variance[std::size_t(i)], sigma, 1e-12);
    EXPECT_LE(variance[std::size_t(i)], 4.0);
    EXPECT_DOUBLE_EQ(probability[std::size_t(i)], logistic_expectation(mean[std::size_t(i)], variance[std::size_t(i)]));
    const ClassifierCommonForm::Latent one = form.latent(points.row(i).data());
    EXPECT_NEAR(one.mean, mean[std::size_t(i)], 1e-14);
    EXPECT_NEAR(one.variance, variance[std::size_t(i)], 1e-14);
    EXPECT_NEAR(form.probability(points.row(i).data()), probability[std::size_t(i)], 1e-14);
  }
  const Status cancelled = form.evaluate(MatrixView(points), {mean.data(), nullptr, nullptr},
                                         [](std::size_t done, std::size_t) { return done < 256; });
  EXPECT_EQ(cancelled.code(), StatusCode::cancelled);
  EXPECT_EQ(cancelled.message(), "prediction cancelled after 256 test points of 600");
}

TEST(ClassifierCommonForm, FromFactorChecksSizes) {
  const RowMatrix x = RowMatrix::Zero(3, 2);
  const Status s = ClassifierCommonForm::from_factor(x, {1.0, {1.0}}, ClassifierLikelihood::probit,
                                                     Eigen::VectorXd::Zero(2), RowMatrix::Identity(3, 3))
                       .status();
  EXPECT_EQ(s.code(), StatusCode::dimension_mismatch);
  EXPECT_EQ(s.message(), "the common form needs alpha of size n and an n by n factor (n = 3)");
  // A factor M gives Q = M'M.
  RowMatrix M(2, 2);
  M << 2, 0, 1, 3;
  const ClassifierCommonForm form =
      ClassifierCommonForm::from_factor(RowMatrix::Zero(2, 1), {1.0, {1.0}}, ClassifierLikelihood::probit,
                                        Eigen::VectorXd::Zero(2), M)
          .value();
  EXPECT_EQ(Eigen::MatrixXd(form.Q()), (Eigen::MatrixXd(2, 2) << 5, 3, 3, 9).finished());
}

}  // namespace
}  // namespace gpprobe
