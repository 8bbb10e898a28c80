// The gradient of the multi-class Laplace evidence against 5-point central differences (h = 1e-3 in the
// log-hyperparameters) on every golden case, per class and tied (the sum of the class rows, and the tied
// gradient computed alone with tied_gradient_only): max |g - fd| / max(1, |g|) <= 1e-7.
#include <cmath>

#include <gtest/gtest.h>

#include "multiclass_fixtures.h"

namespace gpprobe {
namespace {

double evidence(const MulticlassTrainingData& data, const std::vector<SeArdKernel>& kernels) {
  MulticlassOptions options;
  options.with_gradient = false;
  Result<MulticlassLaplace> fit = MulticlassLaplace::fit(data, kernels, options);
  EXPECT_TRUE(fit.ok()) << fit.status().message();
  return fit.ok() ? fit.value().log_marginal_likelihood() : NAN;
}

// Moves log-parameter p (0: log s2, 1 + j: log l_j) of the classes in `which` by `step`.
std::vector<SeArdKernel> moved(std::vector<SeArdKernel> kernels, const std::vector<std::size_t>& which, std::size_t p,
                               double step) {
  for (std::size_t c : which) {
    if (p == 0) kernels[c].signal_variance *= std::exp(step);
    else kernels[c].length_scales[p - 1] *= std::exp(step);
  }
  return kernels;
}

double central_difference(const MulticlassTrainingData& data, const std::vector<SeArdKernel>& kernels,
                          const std::vector<std::size_t>& which, std::size_t p) {
  const double h = 1e-3;
  const auto at = [&](double s) { return evidence(data, moved(kernels, which, p, s)); };
  return (-at(2 * h) + 8 * at(h) - 8 * at(-h) + at(-2 * h)) / (12 * h);
}

TEST(MulticlassGradient, FiniteDifferencesEveryGoldenCase) {
  double worst = 0.0;
  for (const auto& c : testing::multiclass_golden_cases()) {
    SCOPED_TRACE(c["name"].get<std::string>());
    const MulticlassTrainingData data = testing::multiclass_data(c);
    std::vector<SeArdKernel> kernels = testing::multiclass_kernels(c);
    for (auto& k : kernels) k = k.expanded(data.dimension());
    const MulticlassLaplace model = testing::fitted_multiclass(data, kernels);
    const std::size_t C = data.classes, P = 1 + data.dimension();
    for (std::size_t k = 0; k < C; ++k)
      for (std::size_t p = 0; p < P; ++p) {
        const double g = model.gradient()[k][p], fd = central_difference(data, kernels, {k}, p);
        const double error = std::abs(g - fd) / std::max(1.0, std::abs(g));
        worst = std::max(worst, error);
        EXPECT_LE(error, 1e-7) << "class " << k << " parameter " << p << ": " << g << " vs " << fd;
      }
    if (!model.shared_kernel()) continue;
    // Tied: moving every class's parameter together.
    std::vector<std::size_t> all(C);
    for (std::size_t k = 0; k < C; ++k) all[k] = k;
    const std::vector<double> tied = model.tied_gradient();
    // The tied gradient alone (one contraction of the summed G, what the tied hyperparameter fit asks for).
    MulticlassOptions tied_only;
    tied_only.tied_gradient_only = true;
    Result<MulticlassLaplace> alone = MulticlassLaplace::fit(data, kernels, tied_only);
    ASSERT_TRUE(alone.ok()) << alone.status().message();
    EXPECT_TRUE(alone.value().gradient().empty());
    ASSERT_EQ(alone.value().tied_gradient().size(), P);
    for (std::size_t p = 0; p < P; ++p) {
      const double fd = central_difference(data, kernels, all, p);
      EXPECT_LE(std::abs(tied[p] - fd) / std::max(1.0, std::abs(tied[p])), 1e-7) << "tied parameter " << p;
      const double single = alone.value().tied_gradient()[p];
      EXPECT_LE(std::abs(single - fd) / std::max(1.0, std::abs(single)), 1e-7) << "tied-only parameter " << p;
    }
  }
  std::cout << "  largest relative gradient error against finite differences: " << worst << "\n";
}

}  // namespace
}  // namespace gpprobe
