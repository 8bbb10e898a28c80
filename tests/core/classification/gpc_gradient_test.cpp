// Every log marginal likelihood gradient of GP classification (Laplace probit and logistic, EP) against
// central finite differences in theta = [log s2, log l_1..l_d], on the golden data sets, including one
// with a large signal variance and one with a single class.
#include <cmath>

#include <gtest/gtest.h>

#include "gpc_fixtures.h"
#include "result_assertions.h"

namespace gpprobe {
namespace {

SeArdKernel from_theta(const std::vector<double>& theta) {
  SeArdKernel k{std::exp(theta[0]), {}};
  for (std::size_t j = 1; j < theta.size(); ++j) k.length_scales.push_back(std::exp(theta[j]));
  return k;
}

// The largest |analytic - finite difference| / max(1, |analytic|) over the parameters.
double gradient_error(const ClassifierTrainingData& data, const SeArdKernel& kernel, const ClassifierOptions& options) {
  std::vector<double> theta{std::log(kernel.signal_variance)};
  for (double l : kernel.expanded(data.dimension()).length_scales) theta.push_back(std::log(l));
  Result<ClassifierEvidence> at = gpc_log_marginal_likelihood(data, from_theta(theta), options);
  EXPECT_TRUE(at.ok()) << at.status().message();
  EXPECT_EQ(ok_value(at).gradient.size(), theta.size());
  // Five-point stencil: truncation O(h^4) (the third derivatives are large at s2 = 421), rounding ~1e-11.
  constexpr double h = 1e-4;
  const auto at_offset = [&](std::size_t p, double offset) {
    std::vector<double> t = theta;
    t[p] += offset;
    return ok_value(gpc_log_marginal_likelihood(data, from_theta(t), options)).value;
  };
  double worst = 0.0;
  for (std::size_t p = 0; p < theta.size(); ++p) {
    const double fd =
        (8.0 * (at_offset(p, h) - at_offset(p, -h)) - (at_offset(p, 2.0 * h) - at_offset(p, -2.0 * h))) / (12.0 * h);
    const double analytic = ok_value(at).gradient[p];
    worst = std::max(worst, std::abs(analytic - fd) / std::max(1.0, std::abs(analytic)));
  }
  return worst;
}

struct Approximation {
  ClassifierMethod method;
  ClassifierLikelihood likelihood;
  const char* name;
};
const Approximation kApproximations[] = {
    {ClassifierMethod::laplace, ClassifierLikelihood::probit, "Laplace probit"},
    {ClassifierMethod::laplace, ClassifierLikelihood::logistic, "Laplace logistic"},
    {ClassifierMethod::ep, ClassifierLikelihood::probit, "EP probit"}};

TEST(ClassifierGradient, MatchesFiniteDifferencesOnEveryGoldenCase) {
  for (const Approximation& a : kApproximations) {
    double worst = 0.0;
    for (const auto& c : testing::gpc_golden_cases()) {
      ClassifierOptions options;
      options.method = a.method;
      options.likelihood = a.likelihood;
      const double error = gradient_error(testing::gpc_data(c), testing::gpc_kernel(c), options);
      EXPECT_LT(error, 2e-8) << a.name << " on " << c["name"];
      worst = std::max(worst, error);
    }
    std::cout << "  " << a.name << ": largest gradient error against finite differences " << worst << "\n";
  }
}

TEST(ClassifierGradient, MatchesFiniteDifferencesWithOneClassOnly) {
  const nlohmann::json c = testing::gpc_golden_cases()[2];  // xor-2d, every label made +1
  ClassifierTrainingData data = testing::gpc_data(c);
  data.y.setOnes();
  for (const Approximation& a : kApproximations) {
    ClassifierOptions options;
    options.method = a.method;
    options.likelihood = a.likelihood;
    EXPECT_LT(gradient_error(data, testing::gpc_kernel(c), options), 2e-8) << a.name;
  }
}

}  // namespace
}  // namespace gpprobe
