// Every case of tests/reference/gpc_multiclass_golden.json, compared relatively as its README says
// (|a - b| <= tol * max(1, |b|)): f^ and pi^ 1e-8, the log marginal likelihood and its two log-determinant
// sums 1e-9, the gradient 1e-7, latent mean and full covariance 1e-8, class probabilities 1e-9. The
// reference's Monte Carlo estimate (prob_mc) is checked only as an estimate: within 5 standard errors.
#include <functional>

#include <gtest/gtest.h>

#include "multiclass_fixtures.h"

namespace gpprobe {
namespace {

using testing::expect_all_near;
using testing::relatively_near;

std::vector<double> flat(const nlohmann::json& nested) {
  std::vector<double> out;
  const std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& j) {
    if (j.is_array()) {
      for (const auto& e : j) walk(e);
    } else {
      out.push_back(j.get<double>());
    }
  };
  walk(nested);
  return out;
}

template <class Matrix>
std::vector<double> flat(const Matrix& m) {
  std::vector<double> out;
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out.push_back(m(i, j));
  return out;
}

void expect_near_flat(const std::vector<double>& actual, const nlohmann::json& expected, double tolerance,
                      const std::string& what, testing::ErrorLog* log) {
  expect_all_near(actual, nlohmann::json(flat(expected)), tolerance, what, log);
}

TEST(MulticlassGolden, EveryCase) {
  testing::ErrorLog errors, *log = &errors;
  std::size_t cases = 0;
  for (const auto& c : testing::multiclass_golden_cases()) {
    const std::string name = c["name"].get<std::string>();
    SCOPED_TRACE(name);
    const MulticlassTrainingData data = testing::multiclass_data(c);
    const MulticlassLaplace model = testing::fitted_multiclass(data, testing::multiclass_kernels(c));
    EXPECT_EQ(model.shared_kernel(), c["shared_kernel"].get<bool>());
    expect_near_flat(flat(model.f_hat()), c["f_hat"], 1e-8, name + ": f_hat", log);
    expect_near_flat(flat(model.pi_hat()), c["pi_hat"], 1e-8, name + ": pi_hat", log);
    EXPECT_TRUE(relatively_near(model.log_marginal_likelihood(), c["log_marginal_likelihood"], 1e-9));
    log->add("LML", model.log_marginal_likelihood(), c["log_marginal_likelihood"]);
    EXPECT_TRUE(relatively_near(model.log_det().sum_log_L, c["log_det_terms"]["sum_c_sum_i_log_L_c_ii"], 1e-9));
    EXPECT_TRUE(relatively_near(model.log_det().sum_log_M, c["log_det_terms"]["sum_i_log_M_ii"], 1e-9));
    EXPECT_TRUE(relatively_near(model.lml_as_printed(), c["lml_alg33_as_printed"], 1e-9));
    std::vector<double> gradient;
    for (const auto& row : model.gradient()) gradient.insert(gradient.end(), row.begin(), row.end());
    expect_near_flat(gradient, c["lml_gradient"], 1e-7, name + ": gradient", log);
    if (model.shared_kernel()) {
      // The tied gradient computed alone (one contraction of the summed G) against the reference rows' sum.
      MulticlassOptions tied_only;
      tied_only.tied_gradient_only = true;
      Result<MulticlassLaplace> alone = MulticlassLaplace::fit(data, testing::multiclass_kernels(c), tied_only);
      ASSERT_TRUE(alone.ok()) << alone.status().message();
      std::vector<double> expected(alone.value().tied_gradient().size(), 0.0);
      for (const auto& row : c["lml_gradient"])
        for (std::size_t p = 0; p < expected.size(); ++p) expected[p] += row[p].get<double>();
      expect_all_near(alone.value().tied_gradient(), nlohmann::json(expected), 1e-7, name + ": tied gradient", log);
    }
    {
      // Warm starts from the mode and weights at hyperparameters 10 % off (what the hyperparameter fit
      // passes between evaluations): the same mode and evidence as the reference.
      std::vector<SeArdKernel> nearby = testing::multiclass_kernels(c);
      for (auto& k : nearby) k.signal_variance *= 1.1;
      const MulticlassLaplace there = testing::fitted_multiclass(data, nearby);
      MulticlassOptions warm;
      warm.start_a = &there.alpha();
      warm.start_f = &there.f_hat();
      Result<MulticlassLaplace> again = MulticlassLaplace::fit(data, testing::multiclass_kernels(c), warm);
      ASSERT_TRUE(again.ok()) << again.status().message();
      expect_near_flat(flat(again.value().f_hat()), c["f_hat"], 1e-8, name + ": f_hat (warm start)", log);
      EXPECT_TRUE(relatively_near(again.value().log_marginal_likelihood(), c["log_marginal_likelihood"], 1e-9));
      std::vector<double> warm_gradient;
      for (const auto& row : again.value().gradient())
        warm_gradient.insert(warm_gradient.end(), row.begin(), row.end());
      expect_near_flat(warm_gradient, c["lml_gradient"], 1e-7, name + ": gradient (warm start)", log);
    }
    // The reference stops on the same rule from the same start: the same number of steps, give or take one.
    EXPECT_LE(model.iterations(), c["newton_iterations"].get<std::size_t>() + 1);
    EXPECT_EQ(model.step_halvings(), 0u);

    const RowMatrix test = testing::gpc_matrix(c["X_test"]);
    Result<MulticlassPrediction> p = model.predict(MatrixView(test));
    ASSERT_TRUE(p.ok()) << p.status().message();
    expect_near_flat(flat(p.value().latent.mean), c["latent_mean"], 1e-8, name + ": latent mean", log);
    expect_near_flat(p.value().latent.covariance, c["latent_cov"], 1e-8, name + ": latent covariance", log);
    expect_near_flat(flat(p.value().probability), c["prob"], 1e-9, name + ": probability", log);
    for (const SoftmaxExpectation& q : p.value().quadrature) {
      EXPECT_TRUE(q.converged);
      EXPECT_LE(q.error_estimate, 1e-13);
    }
    // The Monte Carlo estimate agrees with the exact values as an estimate does.
    const std::vector<double> mc = flat(c["prob_mc"]), stderr_ = flat(c["prob_mc_stderr"]),
                              ours = flat(p.value().probability);
    for (std::size_t k = 0; k < mc.size(); ++k) EXPECT_LE(std::abs(mc[k] - ours[k]), 5.0 * stderr_[k] + 1e-12) << k;
    ++cases;
  }
  EXPECT_EQ(cases, 6u);
}

}  // namespace
}  // namespace gpprobe
