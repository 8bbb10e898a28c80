// The regression solver: closed forms, properties (0 <= G <= 1, variance never above the prior),
// knowledge in extrapolation and gaps, blocked predictions, seeded samples, every bad input's message.
#include "gpprobe/regression/gp_regression.h"

#include <cmath>

#include <gtest/gtest.h>

#include "gpprobe/regression/hyperparameter_fit.h"
#include "gpprobe/regression/regression_examples.h"

#include "result_assertions.h"

namespace gpprobe {
namespace {

struct Predictions {
  std::vector<double> mean, latent, observation, knowledge, latent_lower, latent_upper, obs_lower, obs_upper;
  PredictionColumns columns(std::size_t m) {
    for (auto* v : {&mean, &latent, &observation, &knowledge, &latent_lower, &latent_upper, &obs_lower, &obs_upper})
      v->resize(m);
    return {mean.data(),         latent.data(),       observation.data(), knowledge.data(),
            latent_lower.data(), latent_upper.data(), obs_lower.data(),   obs_upper.data()};
  }
};

TEST(GpRegression, OnePointMatchesTheClosedForm) {
  // n = 1: mean = m + k(x*,x) (y - m) / (v + noise), var = v - k(x*,x)^2 / (v + noise).
  const double x[] = {0.0}, y[] = {2.0}, test[] = {0.5};
  const double v = 1.5, noise = 0.2, mean = 0.5, l = 0.8;
  const Kernel kernel = Kernel::constant(v) * Kernel::rbf({l});
  Result<GpRegression> gp = GpRegression::fit(MatrixView(x, 1, 1), y, 1, kernel, noise, mean);
  ASSERT_TRUE(gp.ok());
  Predictions p;
  ASSERT_TRUE(gp.value().predict(MatrixView(test, 1, 1), p.columns(1)).ok());
  const double k = v * std::exp(-0.5 * 0.25 / (l * l));
  const double s2 = v - k * k / (v + noise);
  EXPECT_NEAR(p.mean[0], mean + k * (2.0 - mean) / (v + noise), 1e-14);
  EXPECT_NEAR(p.latent[0], s2, 1e-14);
  EXPECT_NEAR(p.observation[0], s2 + noise, 1e-14);
  EXPECT_NEAR(p.knowledge[0], 1.0 - s2 / v, 1e-14);
  EXPECT_NEAR(p.latent_upper[0] - p.mean[0], 1.959963984540054 * std::sqrt(s2), 1e-14);
  EXPECT_NEAR(p.mean[0] - p.obs_lower[0], 1.959963984540054 * std::sqrt(s2 + noise), 1e-14);
  // The default mean is the average of y; the log marginal likelihood of N(y; m, v + noise).
  const double lml = -0.5 * (2.0 - mean) * (2.0 - mean) / (v + noise) - 0.5 * std::log(2 * M_PI * (v + noise));
  EXPECT_NEAR(gp.value().log_marginal_likelihood(), lml, 1e-14);
  EXPECT_EQ(ok_value(GpRegression::fit(MatrixView(x, 1, 1), y, 1, kernel, noise)).mean(), 2.0);
}

TEST(GpRegression, KnowledgeIsBoundedAndDropsInExtrapolationAndGaps) {
  const RegressionExample e = ok_value(regression_example("missing-segments", 2));
  const Kernel kernel = Kernel::constant(1.0) * Kernel::rbf({0.5});
  Result<GpRegression> gp = GpRegression::fit(MatrixView(e.x), e.y.data(), e.y.size(), kernel, 0.01);
  ASSERT_TRUE(gp.ok());
  // A grid over [-5, 25]: inside the data, in the three gaps, and beyond both ends.
  const std::size_t m = 3001;
  std::vector<double> grid(m);
  for (std::size_t i = 0; i < m; ++i) grid[i] = -5.0 + 30.0 * double(i) / double(m - 1);
  Predictions p;
  PredictionReport report;
  ASSERT_TRUE(gp.value().predict(MatrixView(grid.data(), m, 1), p.columns(m), {}, &report).ok());
  const auto G = [&](double t) { return p.knowledge[std::size_t(std::lround((t + 5.0) / 30.0 * double(m - 1)))]; };
  for (std::size_t i = 0; i < m; ++i) {
    EXPECT_GE(p.knowledge[i], 0.0);
    EXPECT_LE(p.knowledge[i], 1.0);
    EXPECT_LE(p.latent[i], 1.0);  // never above the prior variance
    EXPECT_GE(p.latent[i], 0.0);
  }
  EXPECT_GT(G(2.0), 0.99);   // among the data
  EXPECT_LT(G(-3.0), 0.01);  // far beyond the data: back to the prior
  EXPECT_LT(G(24.0), 0.01);
  EXPECT_GT(G(4.25), G(9.75));  // the 0.5-long gap is better known than the 1.5-long one,
  EXPECT_GT(G(9.75), G(15.5));  // which is better known than the 3-long one
  EXPECT_LT(G(15.5), 0.5);
  EXPECT_EQ(report.clamped_variances, 0u);
}

TEST(GpRegression, KnowledgeDropsBeyondACensoredTail) {
  const RegressionExample e = ok_value(regression_example("periodic-extrapolation", 1));
  const Kernel kernel = Kernel::constant(1.0) * Kernel::locally_periodic(1.0, 2.0, 4.0);
  Result<GpRegression> gp = GpRegression::fit(MatrixView(e.x), e.y.data(), e.y.size(), kernel, 0.02);
  ASSERT_TRUE(gp.ok());
  const double t[] = {6.0, 8.5, 10.0, 12.0, 20.0};
  Predictions p;
  ASSERT_TRUE(gp.value().predict(MatrixView(t, 5, 1), p.columns(5)).ok());
  for (int i = 0; i + 1 < 5; ++i) EXPECT_GT(p.knowledge[i], p.knowledge[i + 1]) << t[i];
  EXPECT_GT(p.knowledge[0], 0.95);
  EXPECT_LT(p.knowledge[4], 0.01);
}

TEST(GpRegression, BlocksGiveTheSameNumbersAsSinglePoints) {
  const RegressionExample e = ok_value(regression_example("lecture", 4));
  Result<GpRegression> gp =
      GpRegression::fit(MatrixView(e.x), e.y.data(), e.y.size(), Kernel::constant(1.0) * Kernel::matern52({0.7}), 0.06);
  ASSERT_TRUE(gp.ok());
  const std::size_t m = 600;  // three blocks, the last one partial
  std::vector<double> grid(m);
  for (std::size_t i = 0; i < m; ++i) grid[i] = -1.0 + 7.0 * double(i) / double(m);
  Predictions all;
  std::size_t calls = 0;
  ASSERT_TRUE(gp.value()
                  .predict(MatrixView(grid.data(), m, 1), all.columns(m),
                           [&](std::size_t done, std::size_t total) {
                             ++calls;
                             EXPECT_EQ(total, m);
                             return true;
                           })
                  .ok());
  EXPECT_EQ(calls, 3u);
  for (std::size_t i : {0u, 255u, 256u, 599u}) {
    Predictions one;
    ASSERT_TRUE(gp.value().predict(MatrixView(&grid[i], 1, 1), one.columns(1)).ok());
    EXPECT_NEAR(one.mean[0], all.mean[i], 1e-12);
    EXPECT_NEAR(one.latent[0], all.latent[i], 1e-12);
  }
  const Status cancelled = gp.value().predict(MatrixView(grid.data(), m, 1), all.columns(m),
                                              [](std::size_t done, std::size_t) { return done < 256; });
  EXPECT_EQ(cancelled.message(), "prediction cancelled after 256 test points of 600");
}

TEST(GpRegression, SamplesAreSeededAndHaveThePosteriorMoments) {
  const RegressionExample e = ok_value(regression_example("lecture", 5));
  Result<GpRegression> gp =
      GpRegression::fit(MatrixView(e.x), e.y.data(), e.y.size(), Kernel::constant(1.0) * Kernel::rbf({0.55}), 0.0625);
  ASSERT_TRUE(gp.ok());
  const double t[] = {1.0, 1.1, 5.5, 7.0};
  Predictions p;
  ASSERT_TRUE(gp.value().predict(MatrixView(t, 4, 1), p.columns(4)).ok());
  const std::size_t count = 20000;
  Result<PosteriorSamples> s = gp.value().sample(MatrixView(t, 4, 1), count, 9);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s.value().values.rows(), Eigen::Index(count));
  for (int j = 0; j < 4; ++j) {
    const Eigen::VectorXd col = s.value().values.col(j);
    const double mean = col.mean();
    const double var = (col.array() - mean).square().sum() / double(count - 1);
    // Monte Carlo error: 5 standard errors of the mean and of the variance.
    EXPECT_NEAR(mean, p.mean[j], 5.0 * std::sqrt(p.latent[j] / double(count))) << j;
    EXPECT_NEAR(var, p.latent[j], 5.0 * p.latent[j] * std::sqrt(2.0 / double(count))) << j;
  }
  // Neighbouring points are strongly correlated; far ones are not.
  const auto& v = s.value().values;
  const double c01 = ((v.col(0).array() - v.col(0).mean()) * (v.col(1).array() - v.col(1).mean())).mean();
  EXPECT_GT(c01 / std::sqrt(p.latent[0] * p.latent[1]), 0.8);
  Result<PosteriorSamples> again = gp.value().sample(MatrixView(t, 4, 1), count, 9);
  ASSERT_OK(again);
  EXPECT_EQ((again.value().values - v).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ(s.value().jitter, 0.0);

  // A dense grid makes the covariance singular to working precision: jitter is added and reported.
  std::vector<double> grid(400);
  for (std::size_t i = 0; i < grid.size(); ++i) grid[i] = 5.0 * double(i) / 400.0;
  Result<PosteriorSamples> dense = gp.value().sample(MatrixView(grid.data(), grid.size(), 1), 3, 1);
  ASSERT_TRUE(dense.ok());
  EXPECT_GT(dense.value().jitter, 0.0);
  EXPECT_LE(dense.value().jitter, 1e-6);
  Result<PosteriorSamples> prior = sample_prior(Kernel::rbf({1.0}), 2.0, MatrixView(t, 4, 1), 5, 3);
  ASSERT_TRUE(prior.ok());
  EXPECT_EQ(prior.value().values.rows(), 5);
}

TEST(GpRegression, BadInputsAreNamed) {
  const double x[] = {0.0, 1.0, 2.0}, y[] = {0.0, 1.0, 0.5};
  const Kernel k = Kernel::rbf({1.0});
  const MatrixView X(x, 3, 1);
  const auto message = [](const Status& s) { return s.message(); };
  EXPECT_EQ(message(GpRegression::fit(MatrixView(x, 0, 1), y, 0, k, 0.1).status()),
            "training inputs are empty (0 rows)");
  EXPECT_EQ(message(GpRegression::fit(X, y, 2, k, 0.1).status()),
            "training targets have 2 values, training inputs have 3 rows");
  const double bad_y[] = {0.0, NAN, 1.0};
  EXPECT_EQ(message(GpRegression::fit(X, bad_y, 3, k, 0.1).status()), "training target 1 is NaN");
  const double bad_x[] = {0.0, INFINITY, 1.0};
  EXPECT_EQ(message(GpRegression::fit(MatrixView(bad_x, 3, 1), y, 3, k, 0.1).status()),
            "training inputs row 1, column 0 is +Inf");
  EXPECT_EQ(message(GpRegression::fit(X, y, 3, k, -1.0).status()),
            "noise variance must be a finite number >= 0, got -1");
  EXPECT_EQ(message(GpRegression::fit(X, y, 3, Kernel::rbf({1.0, 2.0}), 0.1).status()),
            "rbf.length_scale has 2 entries, the inputs have 1 column");
  EXPECT_EQ(message(GpRegression::fit(X, y, 3, k, 0.1, INFINITY).status()),
            "mean must be finite (or NaN for the average of y)");
  const double dup[] = {1.0, 1.0};
  EXPECT_EQ(GpRegression::fit(MatrixView(dup, 2, 1), y, 2, k, 0.0).status().code(), StatusCode::numerical_failure);

  const GpRegression gp = ok_value(GpRegression::fit(X, y, 3, k, 0.1));
  const double q[] = {0.5, 0.5};
  double out[2];
  PredictionColumns columns;
  columns.mean = out;
  EXPECT_EQ(gp.predict(MatrixView(q, 1, 2), columns).message(),
            "test inputs have 2 columns, training inputs have 1 column");
  EXPECT_EQ(gp.predict(MatrixView(q, 0, 1), columns).message(), "test inputs are empty (0 rows)");
  const double nan_q[] = {NAN};
  EXPECT_EQ(gp.predict(MatrixView(nan_q, 1, 1), columns).message(), "test inputs row 0, column 0 is NaN");
  EXPECT_EQ(gp.sample(MatrixView(q, 2, 1), 0, 1).status().message(), "the number of samples must be at least 1");
  std::vector<double> many(kMaxSamplePoints + 1, 0.0);
  EXPECT_EQ(gp.sample(MatrixView(many.data(), many.size(), 1), 1, 1).status().message(),
            "joint samples factorise an m by m covariance: at most 4000 test points, got 4001");
  EXPECT_EQ(regression_example("sine", 1).status().message(),
            "example must be lecture, periodic-extrapolation or missing-segments, got 'sine'");
}

TEST(GpRegression, NonFiniteNumbersAreFailuresNotResults) {
  // Issue 9, item 13: inputs near 1e308, a mean of 1e300 and a period of 1e-12 at x ~ 1e24 once came back
  // as successes holding NaN or Inf. Each is a numerical_failure naming the input; what is finite stays.
  const double x[] = {0.0, 1.0, 2.0, 3.0}, y[] = {1.0, 2.0, 1.5, 0.5};
  const MatrixView train(x, 4, 1);
  const double huge[] = {1.5, 1e308};
  const MatrixView test(huge, 2, 1);
  Predictions p;
  auto predicted = [&](const Kernel& kernel) {
    return ok_value(GpRegression::fit(train, y, 4, kernel, 0.1)).predict(test, p.columns(2));
  };
  // The linear kernel's a'b overflows; the periodic kernel takes the sine of +Inf.
  Status s = predicted(Kernel::linear(1.0));
  EXPECT_EQ(s.code(), StatusCode::numerical_failure);
  const std::string overflow =
      "test inputs row 1: the prediction is not finite (the kernel overflows at inputs this large)";
  EXPECT_EQ(s.message(), overflow);
  s = predicted(Kernel::periodic(1.0, 1.0));
  EXPECT_EQ(s.message(), overflow);
  // The RBF kernel legitimately decays to 0 there: the prior mean (the average of y) and variance.
  ASSERT_TRUE(predicted(Kernel::rbf({1.0})).ok());
  EXPECT_EQ(p.mean[1], 1.25);
  EXPECT_EQ(p.latent[1], 1.0);
  EXPECT_EQ(p.knowledge[1], 0.0);
  EXPECT_EQ(sample_prior(Kernel::linear(1.0), 0.0, test, 2, 7).status().message(),
            "test inputs: the prior mean or covariance is not finite (inputs too large for the kernel)");
  EXPECT_EQ(ok_value(GpRegression::fit(train, y, 4, Kernel::rbf({1.0}), 0.1)).sample(test, 2, 7).ok(), true);

  // Training inputs near 1e308, and a mean 1e300 away from the targets (r' K^-1 r overflows).
  const double far[] = {0.0, 1e308};
  EXPECT_EQ(GpRegression::fit(MatrixView(far, 2, 1), y, 2, Kernel::linear(1.0), 0.1).status().message(),
            "training inputs: the kernel linear(1) is not finite between rows 1 and 1 (inputs too large for it)");
  const Status mean = GpRegression::fit(train, y, 4, Kernel::rbf({1.0}), 0.1, 1e300).status();
  EXPECT_EQ(mean.code(), StatusCode::numerical_failure);
  EXPECT_EQ(mean.message(),
            "training targets: the log marginal likelihood is not finite (r' K_y^-1 r overflows): the "
            "targets lie too far from the mean for double precision");
  HyperparameterFitOptions options;
  options.mean = 1e300;
  EXPECT_EQ(fit_hyperparameters(train, y, 4, Kernel::rbf({1.0}), 0.1, options).status().message(),
            "the marginal likelihood could not be evaluated at any of the 1 starting point: " + mean.message());

  // Period 1e-12 at x ~ 1e24: sines of arguments near 1e36, a covariance that is numerically anything.
  // Fit, samples and the optimiser either succeed with finite numbers or fail with a status.
  std::vector<double> xs(20), ys(20), ts(10);
  for (int i = 0; i < 20; ++i) xs[i] = 1e24 * (1 + 0.37 * i), ys[i] = std::sin(i);
  for (int i = 0; i < 10; ++i) ts[i] = 1e24 * (1.1 + 0.5 * i);
  const Kernel periodic = Kernel::periodic(1.0, 1e-12);
  const MatrixView points(xs.data(), 20, 1), tests(ts.data(), 10, 1);
  EXPECT_EQ(GpRegression::fit(points, ys.data(), 20, periodic, 0.1).status().code(), StatusCode::numerical_failure);
  Result<GpRegression> noisy = GpRegression::fit(points, ys.data(), 20, periodic, 10.0);
  ASSERT_TRUE(noisy.ok());
  EXPECT_TRUE(std::isfinite(noisy.value().log_marginal_likelihood()));
  Predictions q;
  ASSERT_TRUE(noisy.value().predict(tests, q.columns(10)).ok());
  for (int i = 0; i < 10; ++i) {
    EXPECT_TRUE(std::isfinite(q.mean[i]));
    EXPECT_GE(q.latent[i], 0.0);
    EXPECT_LE(q.latent[i], 1.0);
  }
  EXPECT_EQ(noisy.value().sample(tests, 3, 1).status().code(), StatusCode::numerical_failure);
  EXPECT_EQ(sample_prior(periodic, 0.0, tests, 3, 1).status().code(), StatusCode::numerical_failure);
  // From 1e-12 (projected onto the bounds, 1e-5) no start has a likelihood; two random restarts do.
  EXPECT_EQ(fit_hyperparameters(points, ys.data(), 20, periodic, 0.1).status().code(), StatusCode::numerical_failure);
  HyperparameterFitOptions restarts;
  restarts.restarts = 2;
  Result<HyperparameterFit> fitted =
      fit_hyperparameters(points, ys.data(), 20, Kernel::constant(1.0) * periodic, 0.1, restarts);
  ASSERT_TRUE(fitted.ok()) << fitted.status().message();
  EXPECT_TRUE(std::isfinite(fitted.value().log_marginal_likelihood));
  for (const KernelParameter& parameter : fitted.value().kernel.parameters())
    EXPECT_TRUE(std::isfinite(parameter.value));
}

TEST(RegressionExamples, AreSeededAndHoldOutTheirSegments) {
  const RegressionExample a = ok_value(regression_example("lecture", 7)),
                          b = ok_value(regression_example("lecture", 7));
  EXPECT_EQ(a.y, b.y);
  EXPECT_EQ(a.x.rows(), 50);
  EXPECT_NEAR(a.x(49, 0), 5.0, 1e-15);
  // The noise is N(0, 0.25^2): its sample sd over 50 points is within sampling variation.
  std::vector<double> truth(50);
  ASSERT_TRUE(example_truth("lecture", a.x.data(), 50, truth.data()).ok());
  double ss = 0.0;
  for (int i = 0; i < 50; ++i) ss += (a.y[i] - truth[i]) * (a.y[i] - truth[i]);
  EXPECT_NEAR(std::sqrt(ss / 50.0), 0.25, 0.07);
  const RegressionExample c = ok_value(regression_example("periodic-extrapolation", 1));
  EXPECT_LT(c.x.maxCoeff(), 8.0);
  EXPECT_GE(c.held_out_x.minCoeff(), 8.0);
  EXPECT_EQ(c.x.rows() + c.held_out_x.rows(), 150);
  const RegressionExample d = ok_value(regression_example("missing-segments", 1));
  for (Eigen::Index i = 0; i < d.x.rows(); ++i) EXPECT_FALSE(d.x(i, 0) >= 14.0 && d.x(i, 0) < 17.0);
  EXPECT_EQ(d.x.rows() + d.held_out_x.rows(), 400);
}

}  // namespace
}  // namespace gpprobe
