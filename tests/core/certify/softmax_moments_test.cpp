// softmax_difference_moments: F_c(m, Gamma) = E[softmax_c(g)], g ~ N(m, Gamma), with its gradient and Hessian in m
// from one node sweep (Stein's lemma through the tensor rule, the step-split axis's closed form differentiated in
// its offset), checked against an independent reference: the analytic derivatives of softmax,
//   d_a s_c = s_c (delta_ca - s_a),   d_a d_b s_c = s_c ((delta_ca - s_a)(delta_cb - s_b) - s_a (delta_ab - s_b)),
// integrated against the Gaussian density in g itself by composite 8-point Gauss-Legendre (panels of at most 2.5
// units of g, over m +- 9 sd per axis), at small variances (the inner axis in t) and at the learned digits kernel's
// (differences' variances ~ 2 S with S ~ 1,200: the step-split inner axis). Then the vertex bound that uses it
// (softmax_vertex_bounds' first-order term) against dense sampling of F over narrow and wide boxes at that scale,
// binary (D = 1) and softmax (D = 2).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <vector>

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include "gpprobe/certify/multiclass_box_bounds.h"
#include "gpprobe/classification/multiclass_probability.h"

#include "softmax_reference.h"

namespace gpprobe {
namespace {

using reference::exact_f;

struct Reference {
  std::vector<double> value, gradient, hessian;  // C, C * D, C * D * D (as SoftmaxMoments)
};

// The 8-point Gauss-Legendre nodes and weights on [-1, 1] (Abramowitz and Stegun, table 25.4).
const double kNodes[8] = {-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
                          0.1834346424956498,  0.5255324099163290,  0.7966664774136267,  0.9602898564975363};
const double kWeights[8] = {0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
                            0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};

std::vector<std::pair<double, double>> axis(double centre, double sd) {
  const double half = 9.0 * sd;
  const int panels = int(std::ceil(2.0 * half / std::min(2.5, sd / 4.0)));
  const double width = 2.0 * half / panels;
  std::vector<std::pair<double, double>> out;
  for (int p = 0; p < panels; ++p)
    for (int k = 0; k < 8; ++k)
      out.push_back({centre - half + (p + 0.5 + 0.5 * kNodes[k]) * width, 0.5 * width * kWeights[k]});
  return out;
}

Reference reference(const Eigen::VectorXd& m, const Eigen::MatrixXd& gamma) {
  const std::size_t D = std::size_t(m.size()), C = D + 1;
  EXPECT_LE(D, 2u);
  const Eigen::MatrixXd inverse = gamma.inverse();
  const double norm = 1.0 / (std::pow(2.0 * M_PI, 0.5 * double(D)) * std::sqrt(gamma.determinant()));
  std::vector<std::vector<std::pair<double, double>>> axes;
  for (std::size_t j = 0; j < D; ++j)
    axes.push_back(axis(m[Eigen::Index(j)], std::sqrt(gamma(Eigen::Index(j), Eigen::Index(j)))));
  if (D == 1) axes.push_back({{0.0, 1.0}});
  Reference out;
  std::vector<long double> value(C, 0.0L), gradient(C * D, 0.0L), hessian(C * D * D, 0.0L);
  std::vector<double> s(C);
  for (const auto& [g0, w0] : axes[0])
    for (const auto& [g1, w1] : axes[1]) {
      const double g[2] = {g0, g1};
      double quadratic = 0.0;
      for (std::size_t a = 0; a < D; ++a)
        for (std::size_t b = 0; b < D; ++b)
          quadratic +=
              (g[a] - m[Eigen::Index(a)]) * inverse(Eigen::Index(a), Eigen::Index(b)) * (g[b] - m[Eigen::Index(b)]);
      const double w = w0 * w1 * norm * std::exp(-0.5 * quadratic);
      if (w < 1e-300) continue;
      softmax_of_differences(g, D, s.data());
      for (std::size_t c = 0; c < C; ++c) {
        value[c] += w * s[c];
        for (std::size_t a = 0; a < D; ++a) {
          const double da = (c == a ? 1.0 : 0.0) - s[a];
          gradient[c * D + a] += w * s[c] * da;
          for (std::size_t b = 0; b < D; ++b) {
            const double db = (c == b ? 1.0 : 0.0) - s[b];
            hessian[(c * D + a) * D + b] += w * s[c] * (da * db - s[a] * ((a == b ? 1.0 : 0.0) - s[b]));
          }
        }
      }
    }
  for (long double v : value) out.value.push_back(double(v));
  for (long double v : gradient) out.gradient.push_back(double(v));
  for (long double v : hessian) out.hessian.push_back(double(v));
  return out;
}

void expect_moments(const Eigen::VectorXd& m, const Eigen::MatrixXd& gamma, const char* what) {
  SoftmaxExpectationOptions options;
  options.tolerance = 1e-11;
  const SoftmaxMoments got = softmax_difference_moments(m, gamma, options).value();
  const Reference want = reference(m, gamma);
  ASSERT_TRUE(got.converged) << what;
  const std::size_t D = std::size_t(m.size()), C = D + 1;
  double worst_h = 0.0, largest_h = 0.0;
  for (std::size_t c = 0; c < C; ++c) {
    EXPECT_NEAR(got.probabilities[c], want.value[c], 1e-9) << what << " class " << c;
    for (std::size_t a = 0; a < D; ++a) {
      const std::size_t i = c * D + a;
      EXPECT_NEAR(got.gradient[i], want.gradient[i], 1e-9 + 1e-6 * std::abs(want.gradient[i])) << what << " grad " << i;
      EXPECT_LE(std::abs(got.gradient[i] - want.gradient[i]), 10.0 * got.gradient_error[i] + 1e-10) << what;
      for (std::size_t b = 0; b < D; ++b) {
        const std::size_t h = i * D + b;
        // The Hessian's entries here are ~1e-4 (large variances) to ~0.1: 1e-9 absolute is far below the second
        // differences' error (~1e-6) that the vertex bound used before.
        EXPECT_NEAR(got.hessian[h], want.hessian[h], 1e-9 + 1e-6 * std::abs(want.hessian[h])) << what << " hess " << h;
        EXPECT_LE(std::abs(got.hessian[h] - want.hessian[h]), 10.0 * got.hessian_error[h] + 1e-10) << what;
        worst_h = std::max(worst_h, std::abs(got.hessian[h] - want.hessian[h]));
        largest_h = std::max(largest_h, std::abs(want.hessian[h]));
      }
    }
  }
  std::cout << "  " << what << ": largest |H| " << largest_h << ", largest |H - reference| " << worst_h << "\n";
}

Eigen::MatrixXd matrix2(double a, double b, double d) {
  Eigen::MatrixXd m(2, 2);
  m << a, b, b, d;
  return m;
}

TEST(SoftmaxMoments, BinaryMatchesTheAnalyticDerivativesInG) {
  for (double variance : {0.5, 3.0, 30.0, 2400.0})  // l < 2: the inner rule in t; l >= 2: the step split
    for (double mean : {-7.0, 0.3, 25.0}) {
      Eigen::VectorXd m(1);
      m << mean;
      Eigen::MatrixXd g(1, 1);
      g << variance;
      expect_moments(m, g, ("binary, variance " + std::to_string(variance) + ", mean " + std::to_string(mean)).c_str());
    }
}

TEST(SoftmaxMoments, ThreeClassesMatchTheAnalyticDerivativesInG) {
  Eigen::VectorXd m(2);
  m << 0.4, -0.7;
  expect_moments(m, matrix2(1.0, 0.3, 0.8), "C = 3, small variances (Gauss-Hermite, inner rule in t)");
  m << 3.0, -12.0;
  expect_moments(m, matrix2(40.0, 25.0, 30.0), "C = 3, moderate variances (step split)");
  m << 30.0, 55.0;
  // The learned digits kernel's scale: differences' variances ~ 2,400 that nearly cancel (Gamma's smaller
  // eigenvalue ~100): Gauss-Legendre outer axis, step-split inner axis.
  expect_moments(m, matrix2(2400.0, 2280.0, 2300.0), "C = 3, the digits kernel's scale");
}

TEST(SoftmaxMoments, RefusesWhatItCannotDifferentiate) {
  Eigen::VectorXd m(2);
  m << 0.0, 0.0;
  EXPECT_FALSE(softmax_difference_moments(m, matrix2(1.0, 1.0, 1.0)).ok());  // singular: no L^-1
  SoftmaxExpectationOptions qmc;
  qmc.rule = SoftmaxRule::quasi_monte_carlo;
  EXPECT_FALSE(softmax_difference_moments(m, matrix2(1.0, 0.0, 1.0), qmc).ok());
  EXPECT_FALSE(softmax_difference_moments(m, Eigen::MatrixXd::Identity(3, 3)).ok());
  m[0] = std::nan("");
  EXPECT_FALSE(softmax_difference_moments(m, matrix2(1.0, 0.0, 1.0)).ok());
}

// The vertex bound at S ~ 1,200 over narrow boxes (the first-order term decides) and wide ones, D = 1 and 2: F at
// 400 sampled (m, Gamma) per class and box, a third of them at corners of the covariance box, inside the bounds.
TEST(SoftmaxMoments, VertexBoundsHoldOverDenseSamplesAtTheDigitsScale) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  struct Case {
    Eigen::VectorXd centre;
    Eigen::MatrixXd gamma;
    double mean_half, cov_half;
  };
  std::vector<Case> cases;
  for (double mean_half : {0.05, 2.0})
    for (double cov_half : {1.0, 60.0}) {
      Eigen::VectorXd one(1), two(2);
      one << 4.0;
      two << 20.0, 35.0;
      Eigen::MatrixXd g1(1, 1);
      g1 << 2400.0;
      cases.push_back({one, g1, mean_half, cov_half});
      cases.push_back({two, matrix2(2400.0, 2280.0, 2300.0), mean_half, cov_half});
    }
  double narrowest = 1.0;
  for (const Case& k : cases) {
    const std::size_t D = std::size_t(k.centre.size());
    std::vector<Interval> mean(D), cov(D * D);
    std::vector<double> reference(D * D);
    for (std::size_t j = 0; j < D; ++j)
      mean[j] = {k.centre[Eigen::Index(j)] - k.mean_half, k.centre[Eigen::Index(j)] + k.mean_half};
    for (std::size_t j = 0; j < D; ++j)
      for (std::size_t i = 0; i < D; ++i) {
        const double g = k.gamma(Eigen::Index(j), Eigen::Index(i));
        cov[j * D + i] = {g - k.cov_half, g + k.cov_half};
        reference[j * D + i] = g;
      }
    for (std::size_t c = 0; c <= D; ++c) {
      const Interval b = softmax_vertex_bounds(mean, cov, reference, c, 1e-4);
      ASSERT_LE(b.lower, b.upper);
      if (k.mean_half < 1.0 && k.cov_half < 10.0) narrowest = std::min(narrowest, 1.0 - b.width());
      for (int s = 0; s < 400; ++s) {
        Eigen::VectorXd m(D);
        Eigen::MatrixXd G(D, D);
        for (std::size_t j = 0; j < D; ++j) {
          const double u = s % 4 == 0 ? double(unit(rng) < 0.5) : unit(rng);
          m[Eigen::Index(j)] = mean[j].lower + mean[j].width() * u;
        }
        for (std::size_t j = 0; j < D; ++j)
          for (std::size_t i = j; i < D; ++i) {
            const Interval& r = cov[j * D + i];
            const double u = s % 3 == 0 ? double(unit(rng) < 0.5) : unit(rng);
            G(Eigen::Index(j), Eigen::Index(i)) = G(Eigen::Index(i), Eigen::Index(j)) = r.lower + r.width() * u;
          }
        if (!(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(G).eigenvalues()(0) > 0.0)) continue;
        const double f = exact_f(m, G, c, 1e-12);
        EXPECT_GE(f, b.lower) << "D " << D << " class " << c << " mean +-" << k.mean_half << " cov +-" << k.cov_half;
        EXPECT_LE(f, b.upper) << "D " << D << " class " << c << " mean +-" << k.mean_half << " cov +-" << k.cov_half;
      }
    }
  }
  // The narrow boxes' bounds are informative (not [0, 1]).
  EXPECT_GT(narrowest, 0.9);
}

}  // namespace
}  // namespace gpprobe
