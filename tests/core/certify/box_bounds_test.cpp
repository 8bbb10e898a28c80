// Properties of the single-box bounds and the certified search, on random models and boxes:
//   soundness   every latent mean, variance and probability the model reports at densely sampled
//               points of the box (corners, uniform samples, the candidates) lies inside the bounds,
//               with no tolerance: Laplace probit and logistic, EP probit, 1-4 dimensions, some fixed
//   shrinking   the bounds close on the value as the box shrinks to a point
//   search      branch and bound's interval holds every sampled value's extreme to within epsilon
//   pieces      the pairwise sums against a direct evaluation; the separable minimum against a grid
#include "gpprobe/certify/box_bounds.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/common/random_stream.h"

#include "core/src/certify/pairwise_exponential_sums.h"
#include "core/src/certify/separable_quadratic.h"
#include "result_assertions.h"

namespace gpprobe {
namespace {

struct RandomModel {
  GpClassifier gpc;
  std::string label;
};

// n points in [-2, 2]^d with a smooth noisy boundary, random hyperparameters and approximation.
RandomModel random_model(std::uint64_t seed) {
  RandomStream rng(seed);
  const std::size_t d = 1 + rng.index(4), n = 5 + rng.index(36);
  RowMatrix x{Eigen::Index(n), Eigen::Index(d)};
  std::vector<double> labels(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < d; ++j) x(Eigen::Index(i), Eigen::Index(j)) = rng.uniform(-2.0, 2.0);
    labels[i] =
        std::sin(2.0 * x(Eigen::Index(i), 0)) + 0.5 * x(Eigen::Index(i), Eigen::Index(d - 1)) + 0.4 * rng.normal() > 0.0
            ? 1.0
            : 0.0;
  }
  labels[0] = 0.0, labels[1] = 1.0;
  SeArdKernel kernel{rng.uniform(0.3, 6.0), {}};
  for (std::size_t j = 0; j < d; ++j) kernel.length_scales.push_back(rng.uniform(0.3, 2.0));
  ClassifierOptions options;
  const std::size_t kind = rng.index(3);
  options.method = kind == 2 ? ClassifierMethod::ep : ClassifierMethod::laplace;
  options.likelihood = kind == 1 ? ClassifierLikelihood::logistic : ClassifierLikelihood::probit;
  Result<GpClassifier> gpc = GpClassifier::fit(MatrixView(x), labels.data(), n, kernel, options);
  EXPECT_TRUE(gpc.ok()) << gpc.status().message();
  return {ok_value(std::move(gpc)), "seed " + std::to_string(seed) + " n " + std::to_string(n) + " d " +
                                        std::to_string(d) + " " + method_name(options.method) + "-" +
                                        likelihood_name(options.likelihood)};
}

// A random region: a point near the data, gamma in [0, 1.2], a random non-empty subset of coordinates.
RobustnessRegion random_region(std::size_t d, RandomStream& rng) {
  std::vector<double> point(d);
  for (double& v : point) v = rng.uniform(-2.5, 2.5);
  std::vector<std::size_t> dims;
  for (std::size_t j = 0; j < d; ++j)
    if (rng.uniform() < 0.7) dims.push_back(j);
  if (dims.empty()) dims.push_back(rng.index(d));
  return ok_value(RobustnessRegion::linf_ball(point, rng.uniform(0.0, 1.2), dims));
}

// Corners (up to 2^4), uniform samples and the bounds' own candidates, as k-vectors.
std::vector<std::vector<double>> samples(const Box& box, const LatentBoxBounds& b, std::size_t count,
                                         RandomStream& rng) {
  const std::size_t k = box.dimension();
  std::vector<std::vector<double>> points = {b.mean_lower_point, b.mean_upper_point, b.variance_lower_point,
                                             b.variance_upper_point, box.centre()};
  if (k <= 4) {
    for (std::size_t mask = 0; mask < (std::size_t(1) << k); ++mask) {
      std::vector<double> p(k);
      for (std::size_t a = 0; a < k; ++a) p[a] = (mask >> a) & 1 ? box.upper[a] : box.lower[a];
      points.push_back(p);
    }
  }
  for (std::size_t s = 0; s < count; ++s) {
    std::vector<double> p(k);
    for (std::size_t a = 0; a < k; ++a) p[a] = rng.uniform(box.lower[a], box.upper[a]);
    points.push_back(p);
  }
  return points;
}

TEST(ClassifierBoxBounds, SoundOnRandomModelsAndBoxes) {
  std::size_t checked = 0;
  double widest_probability = 0.0;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const RandomModel m = random_model(seed);
    const ClassifierCommonForm& form = m.gpc.common_form();
    RandomStream rng(seed + 1000);
    for (int trial = 0; trial < 4; ++trial) {
      const RobustnessRegion region = random_region(form.dimension(), rng);
      const ClassifierBoxBounds bounds(form, region);
      // The root box and a random sub-box (what branch and bound bounds).
      Box sub = region.box();
      for (std::size_t a = 0; a < sub.dimension(); ++a) {
        const double t = rng.uniform(sub.lower[a], sub.upper[a]);
        (rng.uniform() < 0.5 ? sub.lower[a] : sub.upper[a]) = t;
      }
      for (const Box& box : {region.box(), sub}) {
        const LatentBoxBounds b = bounds.latent(box);
        const Interval p = bounds.probability(b);
        ASSERT_LE(b.mean.lower, b.mean.upper) << m.label;
        ASSERT_LE(0.0, b.variance.lower) << m.label;
        ASSERT_LE(b.variance.upper, form.signal_variance()) << m.label;
        widest_probability = std::max(widest_probability, p.width());
        for (const std::vector<double>& moving : samples(box, b, 400, rng)) {
          ASSERT_TRUE(box.contains(moving)) << m.label;
          const std::vector<double> x = region.full(moving);
          const ClassifierCommonForm::Latent f = form.latent(x.data());
          const double pi = form.probability(x.data());
          ASSERT_TRUE(b.mean.contains(f.mean))
              << m.label << ": mean " << f.mean << " outside [" << b.mean.lower << ", " << b.mean.upper << "]";
          ASSERT_TRUE(b.variance.contains(f.variance)) << m.label << ": variance " << f.variance << " outside ["
                                                       << b.variance.lower << ", " << b.variance.upper << "]";
          ASSERT_TRUE(p.contains(pi)) << m.label << ": probability " << pi << " outside [" << p.lower << ", " << p.upper
                                      << "]";
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 190000u);
  EXPECT_GT(widest_probability, 0.5);  // the boxes are not all trivially small
}

TEST(ClassifierBoxBounds, CloseOnTheValueAsTheBoxShrinks) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const RandomModel m = random_model(seed);
    const ClassifierCommonForm& form = m.gpc.common_form();
    RandomStream rng(seed + 2000);
    std::vector<double> point(form.dimension());
    for (double& v : point) v = rng.uniform(-1.5, 1.5);
    double previous = std::numeric_limits<double>::infinity();
    for (double gamma : {0.4, 0.1, 0.025, 0.00625}) {
      const RobustnessRegion region = ok_value(RobustnessRegion::linf_ball(point, gamma));
      const ClassifierBoxBounds bounds(form, region);
      const LatentBoxBounds b = bounds.latent(region.box());
      const double gap = bounds.probability(b).width() + b.mean.width() + b.variance.width();
      // The relaxations' gaps are O(width^2) and the bounds' widths O(width): at least a factor 3 per
      // quartering of the box.
      EXPECT_LT(gap, previous / 3.0) << m.label << " gamma " << gamma;
      previous = gap;
    }
    const RobustnessRegion point_region = ok_value(RobustnessRegion::linf_ball(point, 0.0));
    const ClassifierBoxBounds bounds(form, point_region);
    const LatentBoxBounds b = bounds.latent(point_region.box());
    const ClassifierCommonForm::Latent f = form.latent(point.data());
    EXPECT_NEAR(b.mean.lower, f.mean, 1e-9 * (1.0 + std::abs(f.mean))) << m.label;
    EXPECT_NEAR(b.mean.upper, f.mean, 1e-9 * (1.0 + std::abs(f.mean))) << m.label;
    EXPECT_NEAR(b.variance.lower, f.variance, 1e-9) << m.label;
    EXPECT_NEAR(b.variance.upper, f.variance, 1e-9) << m.label;
  }
}

TEST(ClassifierRobustness, BranchAndBoundHoldsTheSampledExtremes) {
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    const RandomModel m = random_model(seed);
    const ClassifierCommonForm& form = m.gpc.common_form();
    RandomStream rng(seed + 3000);
    const RobustnessRegion region = random_region(form.dimension(), rng);
    RobustnessOptions options;
    options.gamma = region.gamma();
    options.dims = region.dims();
    options.tolerance = 0.01;
    options.max_iterations = 3000;
    const Result<RobustnessCertificate> r = certify_robustness(form, region.point(), options);
    ASSERT_TRUE(r.ok()) << m.label << ": " << r.status().message();
    const RobustnessCertificate& cert = r.value();
    double lowest = 1.0, highest = 0.0;
    const ClassifierBoxBounds bounds(form, region);
    for (const std::vector<double>& moving : samples(region.box(), bounds.latent(region.box()), 3000, rng)) {
      const double pi = bounds.probability_at(moving);
      lowest = std::min(lowest, pi), highest = std::max(highest, pi);
    }
    EXPECT_LE(cert.minimum.lower, lowest) << m.label;
    EXPECT_GE(cert.maximum.upper, highest) << m.label;
    EXPECT_LE(cert.probability.lower, cert.minimum.lower) << m.label;
    EXPECT_GE(cert.probability.upper, cert.maximum.upper) << m.label;
    for (const ProbabilityExtreme* x : {&cert.minimum, &cert.maximum}) {
      if (x->status != SearchStatus::converged) continue;  // reported, never wrong: only the gap is open
      EXPECT_LE(x->upper - x->lower, options.tolerance) << m.label;
      const double attained = x == &cert.minimum ? x->upper : x->lower;
      EXPECT_NEAR(form.probability(x->witness.data()), attained, 1e-12) << m.label;
    }
    if (cert.minimum.status == SearchStatus::converged) EXPECT_LE(cert.minimum.upper, lowest + options.tolerance);
    if (cert.maximum.status == SearchStatus::converged) EXPECT_GE(cert.maximum.lower, highest - options.tolerance);
    for (std::size_t j = 0; j < form.dimension(); ++j) {
      EXPECT_GE(cert.gpfgs.point[j], cert.lower[j]) << m.label;
      EXPECT_LE(cert.gpfgs.point[j], cert.upper[j]) << m.label;
    }
    EXPECT_GE(cert.gpfgs.probability, cert.minimum.lower) << m.label;
    EXPECT_LE(cert.gpfgs.probability, cert.maximum.upper) << m.label;
  }
}

TEST(PairwiseExponentialSums, MatchADirectEvaluation) {
  RandomStream rng(5);
  for (std::size_t n : {1u, 3u, 4u, 7u, 33u}) {
    Eigen::MatrixXd A = Eigen::MatrixXd::Random(Eigen::Index(n), Eigen::Index(n));
    const RowMatrix Q = A + A.transpose();
    std::vector<double> zL(n), zU(n), mid(n), low(n), high(n), spread(n), em(n), ed(n);
    for (std::size_t i = 0; i < n; ++i) {
      zL[i] = rng.uniform(0.0, 3.0);
      zU[i] = i % 3 == 0 ? zL[i] : zL[i] + rng.uniform(0.0, 2.0);  // some points with no spread
      mid[i] = std::exp(-0.5 * (zL[i] + zU[i]));
      low[i] = std::exp(-zL[i]);
      high[i] = std::exp(-zU[i]);
      spread[i] = zU[i] - zL[i];
      em[i] = std::expm1(-spread[i]);
      ed[i] = std::exp(-spread[i]);
    }
    std::vector<double> out(kPairwiseSums * n);
    pairwise_exponential_sums(Q.data(), n, {mid.data(), low.data(), high.data(), spread.data(), em.data(), ed.data()},
                              out.data());
    for (std::size_t i = 0; i < n; ++i) {
      double expected[kPairwiseSums] = {};
      for (std::size_t l = 0; l < n; ++l) {
        const double q = Q(Eigen::Index(i), Eigen::Index(l)), p = std::max(q, 0.0), m = std::min(q, 0.0);
        const double w = spread[i] + spread[l];
        // The chord of e^{-w} over [zL_i + zL_l, zU_i + zU_l], its slope divided by e^{-zL_i}.
        const double slope = w > 0.0 ? low[l] * std::expm1(-w) / w : -low[l];
        const double terms[kPairwiseSums] = {p * mid[l],  m * mid[l],  p * low[l], m * low[l],
                                             p * high[l], m * high[l], p * slope,  m * slope};
        for (int s = 0; s < kPairwiseSums; ++s) expected[s] += terms[s];
      }
      for (int s = 0; s < kPairwiseSums; ++s)
        EXPECT_NEAR(out[std::size_t(s) * n + i], expected[s], 1e-13) << n << " " << s;
    }
  }
}

TEST(SeparableQuadratic, MinimumMatchesAFineGrid) {
  RandomStream rng(9);
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t n = 1 + rng.index(12), k = 1 + rng.index(2);
    std::vector<double> columns(n * k), theta(k), b(n);
    for (double& v : columns) v = rng.uniform(-2.0, 2.0);
    for (double& v : theta) v = rng.uniform(0.2, 3.0);
    for (double& v : b) v = rng.uniform(-1.0, 1.5);
    Box box;
    for (std::size_t a = 0; a < k; ++a) {
      const double lo = rng.uniform(-2.5, 2.0);
      box.lower.push_back(lo), box.upper.push_back(lo + rng.uniform(0.0, 1.5));
    }
    const MovingInputs inputs{n, k, columns.data(), theta.data()};
    const SeparableMinimum got = minimise_separable(inputs, b.data(), box);
    ASSERT_TRUE(box.contains(got.point));
    const auto h = [&](const std::vector<double>& x) {
      double sum = 0.0;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t a = 0; a < k; ++a) sum += b[i] * theta[a] * std::pow(x[a] - columns[a * n + i], 2);
      return sum;
    };
    EXPECT_NEAR(h(got.point), got.value, 1e-12);
    double grid = std::numeric_limits<double>::infinity();
    const int steps = 400;
    for (int s = 0; s <= steps; ++s) {
      for (int t = 0; t <= (k > 1 ? steps : 0); ++t) {
        std::vector<double> x = {box.lower[0] + (box.upper[0] - box.lower[0]) * s / steps};
        if (k > 1) x.push_back(box.lower[1] + (box.upper[1] - box.lower[1]) * t / steps);
        grid = std::min(grid, h(x));
      }
    }
    EXPECT_LE(got.value, grid + 1e-12);
    EXPECT_GE(got.value, grid - 1e-3);  // the grid's own resolution
  }
}

}  // namespace
}  // namespace gpprobe
