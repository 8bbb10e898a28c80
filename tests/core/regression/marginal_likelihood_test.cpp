// The log marginal likelihood, its gradient and the predictions against scikit-learn (fixtures), and
// the gradient against central differences.
#include "gpprobe/regression/marginal_likelihood.h"

#include <cmath>

#include <gtest/gtest.h>

#include "gpprobe/regression/gp_regression.h"

#include "regression_fixtures.h"
#include "result_assertions.h"

namespace gpprobe {
namespace {

using testing::kernel_from_json;
using testing::regression_fixture;
using testing::rows_from_json;

TEST(MarginalLikelihood, MatchesSklearnValueGradientAndPredictions) {
  const auto cases = regression_fixture("likelihood.json");
  ASSERT_EQ(cases.size(), 11u);
  for (const auto& c : cases) {
    const std::string name = c["name"];
    const Kernel kernel = kernel_from_json(c["kernel"]);
    const RowMatrix x = rows_from_json(c["x"]);
    const std::vector<double> y = c["y"].get<std::vector<double>>();
    const double mean = c["mean"], noise = c["noise_variance"];
    Eigen::VectorXd r = Eigen::Map<const Eigen::VectorXd>(y.data(), Eigen::Index(y.size())).array() - mean;
    Result<MarginalLikelihood> lml = log_marginal_likelihood(kernel, noise, x.data(), y.size(), x.cols(), r, true);
    ASSERT_TRUE(lml.ok()) << name << ": " << lml.status().message();
    EXPECT_NEAR(lml.value().value, c["log_marginal_likelihood"].get<double>(), 1e-6) << name;
    const std::vector<double> grad = c["gradient"].get<std::vector<double>>();
    ASSERT_EQ(lml.value().gradient.size(), grad.size()) << name;
    for (std::size_t p = 0; p < grad.size(); ++p) {
      EXPECT_NEAR(lml.value().gradient[p], grad[p], 1e-6 * std::max(1.0, std::abs(grad[p]))) << name << " " << p;
    }

    Result<GpRegression> gp = GpRegression::fit(MatrixView(x), y.data(), y.size(), kernel, noise, mean);
    ASSERT_TRUE(gp.ok()) << name;
    EXPECT_NEAR(gp.value().log_marginal_likelihood(), c["log_marginal_likelihood"].get<double>(), 1e-6);
    const RowMatrix test = rows_from_json(c["test"]);
    const std::size_t m = std::size_t(test.rows());
    std::vector<double> mu(m), observation(m);
    PredictionColumns out;
    out.mean = mu.data();
    out.observation_variance = observation.data();
    ASSERT_TRUE(gp.value().predict(MatrixView(test), out).ok());
    for (std::size_t i = 0; i < m; ++i) {
      EXPECT_NEAR(mu[i], c["predicted_mean"][i].get<double>(), 1e-8) << name << " test " << i;
      EXPECT_NEAR(std::sqrt(observation[i]), c["predicted_observation_std"][i].get<double>(), 1e-8) << name;
    }
  }
}

TEST(MarginalLikelihood, GradientMatchesCentralDifferences) {
  for (const auto& c : regression_fixture("likelihood.json")) {
    const Kernel kernel = kernel_from_json(c["kernel"]);
    const RowMatrix x = rows_from_json(c["x"]);
    const std::vector<double> y = c["y"].get<std::vector<double>>();
    const Eigen::VectorXd r = Eigen::Map<const Eigen::VectorXd>(y.data(), Eigen::Index(y.size()));
    std::vector<double> theta = kernel.log_parameters();
    theta.push_back(std::log(c["noise_variance"].get<double>()));
    const auto value = [&](const std::vector<double>& t) {
      return ok_value(log_marginal_likelihood(kernel.with_log_parameters(t.data()), std::exp(t.back()), x.data(),
                                              y.size(), x.cols(), r, false))
          .value;
    };
    const auto lml = log_marginal_likelihood(kernel, std::exp(theta.back()), x.data(), y.size(), x.cols(), r, true);
    ASSERT_OK(lml);
    for (std::size_t p = 0; p < theta.size(); ++p) {
      const double h = 1e-5;
      std::vector<double> up = theta, down = theta;
      up[p] += h;
      down[p] -= h;
      const double fd = (value(up) - value(down)) / (2 * h);
      EXPECT_NEAR(lml.value().gradient[p], fd, 1e-5 * std::max(1.0, std::abs(fd))) << c["name"] << " " << p;
    }
  }
}

TEST(MarginalLikelihood, SingularKernelMatrixIsANamedFailure) {
  const double x[] = {0.0, 0.0};
  const Eigen::VectorXd r = Eigen::Vector2d(1.0, 1.0);
  const auto lml = log_marginal_likelihood(Kernel::rbf({1.0}), 0.0, x, 2, 1, r, true);
  EXPECT_EQ(lml.status().code(), StatusCode::numerical_failure);
  EXPECT_EQ(lml.status().message(), "the kernel matrix K + noise I (kernel rbf(1), noise 0) is not positive definite");
}

}  // namespace
}  // namespace gpprobe
