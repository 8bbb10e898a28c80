// The covariance terms of the multi-class vertex bound (docs/design/multiclass.md, "The vertex bound"),
// checked against the model's own quadrature, independently of multiclass_box_bounds.cpp's code:
//   constant     E[(w^2 - 1)^+] = 2 phi(1) for w ~ N(0, 1) (composite Simpson on [-12, 12])
//   zeroth order |F(m, Gamma) - F(m, Gamma_0)| <= phi(1) |dGamma|_* / min(lambda_min(Gamma_0), lambda_min(Gamma))
//                for random means, covariances with variances up to 2000 (200 for D = 3) and changes up to 30 %
//   first order  |F(Gamma) - F(Gamma_0) - 1/2 tr(dGamma H)| <= sqrt(6)/8 max_t |B(t)|_F^2 with H the Hessian
//                of F in m at Gamma_0 (fourth-order central differences, step 0.1 sd) and B(t) = Gamma(t)^-1/2 dGamma
//                Gamma(t)^-1/2, whose Frobenius norm is largest at an end of the segment
//   the bound    softmax_vertex_bounds holds F at sampled (m, Gamma) of random boxes (corners included), D = 1, 2
// Each prints how tight it is (the largest ratio of the change to the bound).
#include <cmath>
#include <iostream>
#include <random>

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include "gpprobe/certify/multiclass_box_bounds.h"
#include "gpprobe/classification/multiclass_probability.h"

#include "softmax_reference.h"

namespace gpprobe {
namespace {

using reference::exact_f;

constexpr double kPhiOne = 0.24197072451914337;

Eigen::MatrixXd random_covariance(std::size_t D, std::mt19937& rng, double largest = 2000.0) {
  std::normal_distribution<double> z;
  std::uniform_real_distribution<double> scale(0.0, std::log(largest));
  Eigen::MatrixXd A(D, D);
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < A.cols(); ++j) A(i, j) = z(rng);
  Eigen::MatrixXd S = A * A.transpose() / double(D) + 0.3 * Eigen::MatrixXd::Identity(D, D);
  const Eigen::VectorXd s = Eigen::VectorXd::NullaryExpr(Eigen::Index(D), [&] { return std::exp(0.5 * scale(rng)); });
  return s.asDiagonal() * S * s.asDiagonal();
}

// A symmetric change of relative size up to `relative` (whitened by Gamma_0).
Eigen::MatrixXd random_change(const Eigen::MatrixXd& gamma, double relative, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Eigen::Index D = gamma.rows();
  Eigen::MatrixXd E(D, D);
  for (Eigen::Index i = 0; i < D; ++i)
    for (Eigen::Index j = 0; j <= i; ++j) E(i, j) = E(j, i) = u(rng);
  E *= relative / std::max(E.norm(), 1e-300);
  const Eigen::LLT<Eigen::MatrixXd> llt(gamma);
  const Eigen::MatrixXd L = llt.matrixL();
  return L * E * L.transpose();
}

double smallest_eigenvalue(const Eigen::MatrixXd& S) {
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(S, Eigen::EigenvaluesOnly).eigenvalues()(0);
}

TEST(MulticlassCovarianceChange, TwicePhiOneIsTheMeanPositivePartOfHermiteTwo) {
  const int panels = 240000;
  const double a = -12.0, b = 12.0, h = (b - a) / panels;
  double sum = 0.0;
  for (int i = 0; i <= panels; ++i) {
    const double w = a + h * i;
    const double f = std::max(w * w - 1.0, 0.0) * std::exp(-0.5 * w * w) / std::sqrt(2.0 * M_PI);
    sum += f * (i == 0 || i == panels ? 1.0 : i % 2 ? 4.0 : 2.0);
  }
  EXPECT_NEAR(sum * h / 3.0, 2.0 * kPhiOne, 1e-9);
}

TEST(MulticlassCovarianceChange, ZerothOrderBoundHoldsAlongRandomChanges) {
  std::mt19937 rng(31);
  std::normal_distribution<double> z;
  double tightest = 0.0;
  for (std::size_t D : {1u, 2u, 3u}) {
    for (int trial = 0; trial < (D == 3 ? 1 : 8); ++trial) {
      const Eigen::MatrixXd G0 = random_covariance(D, rng, D == 3 ? 200.0 : 2000.0);
      Eigen::VectorXd m(D);
      for (Eigen::Index j = 0; j < m.size(); ++j) m[j] = z(rng) * std::sqrt(G0(j, j));
      const std::size_t c = std::size_t(trial) % (D + 1);
      const double f0 = exact_f(m, G0, c);
      for (int s = 0; s < 4; ++s) {
        const Eigen::MatrixXd dG = random_change(G0, 0.3 * (s + 1) / 4.0, rng);
        const Eigen::MatrixXd G = G0 + dG;
        const double lambda = std::min(smallest_eigenvalue(G0), smallest_eigenvalue(G));
        ASSERT_GT(lambda, 0.0);
        const double nuclear =
            Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(dG, Eigen::EigenvaluesOnly).eigenvalues().cwiseAbs().sum();
        const double bound = kPhiOne * nuclear / lambda;
        const double change = std::abs(exact_f(m, G, c) - f0);
        EXPECT_LE(change, bound + 1e-8) << "D " << D << " trial " << trial;
        tightest = std::max(tightest, change / bound);
      }
    }
  }
  std::cout << "  zeroth order: largest change / bound " << tightest << "\n";
}

// The Hessian of F in m by fourth-order central differences (step h in units of the standard deviations).
Eigen::MatrixXd hessian_in_mean(const Eigen::VectorXd& m, const Eigen::MatrixXd& G, std::size_t c) {
  const Eigen::Index D = m.size();
  Eigen::MatrixXd H(D, D);
  auto second = [&](const Eigen::VectorXd& u) {
    const double h = 0.1;
    double s = -30.0 * exact_f(m, G, c);
    s += 16.0 * (exact_f(m + h * u, G, c) + exact_f(m - h * u, G, c));
    s -= exact_f(m + 2.0 * h * u, G, c) + exact_f(m - 2.0 * h * u, G, c);
    return s / (12.0 * h * h);
  };
  const Eigen::VectorXd sd = G.diagonal().cwiseSqrt();
  for (Eigen::Index j = 0; j < D; ++j) H(j, j) = second(sd[j] * Eigen::VectorXd::Unit(D, j)) / (sd[j] * sd[j]);
  for (Eigen::Index j = 0; j < D; ++j)
    for (Eigen::Index k = j + 1; k < D; ++k) {
      const Eigen::VectorXd u = sd[j] * Eigen::VectorXd::Unit(D, j) + sd[k] * Eigen::VectorXd::Unit(D, k);
      H(j, k) = H(k, j) = 0.5 * (second(u) - H(j, j) * sd[j] * sd[j] - H(k, k) * sd[k] * sd[k]) / (sd[j] * sd[k]);
    }
  return H;
}

TEST(MulticlassCovarianceChange, FirstOrderRemainderHoldsAlongRandomChanges) {
  std::mt19937 rng(37);
  std::normal_distribution<double> z;
  double tightest = 0.0;
  for (std::size_t D : {1u, 2u}) {
    for (int trial = 0; trial < 6; ++trial) {
      const Eigen::MatrixXd G0 = random_covariance(D, rng);
      Eigen::VectorXd m(D);
      for (Eigen::Index j = 0; j < m.size(); ++j) m[j] = z(rng) * std::sqrt(G0(j, j));
      const std::size_t c = std::size_t(trial) % (D + 1);
      const double f0 = exact_f(m, G0, c);
      const Eigen::MatrixXd H = hessian_in_mean(m, G0, c);
      for (int s = 0; s < 4; ++s) {
        const Eigen::MatrixXd dG = random_change(G0, 0.4 * (s + 1) / 4.0, rng);
        // B(t)'s eigenvalues are beta / (1 + t beta) with beta those of Gamma_0^-1 dGamma: |B(t)|_F^2 is largest at an end.
        const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ges(dG, G0, Eigen::EigenvaluesOnly);
        double at0 = 0.0, at1 = 0.0;
        for (Eigen::Index i = 0; i < ges.eigenvalues().size(); ++i) {
          const double beta = ges.eigenvalues()(i);
          at0 += beta * beta;
          at1 += std::pow(beta / (1.0 + beta), 2);
        }
        const double bound = std::sqrt(6.0) / 8.0 * std::max(at0, at1);
        const double linear = 0.5 * (dG.array() * H.array()).sum();
        const double remainder = std::abs(exact_f(m, G0 + dG, c) - f0 - linear);
        EXPECT_LE(remainder, bound + 1e-6) << "D " << D << " trial " << trial;
        tightest = std::max(tightest, remainder / bound);
      }
    }
  }
  std::cout << "  first order: largest remainder / bound " << tightest << "\n";
}

TEST(MulticlassCovarianceChange, VertexBoundsHoldOverSampledBoxes) {
  std::mt19937 rng(41);
  std::normal_distribution<double> z;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  double widest = 0.0;
  for (std::size_t D : {1u, 2u}) {  // D = 3: the four-class box soundness tests (multiclass_bounds_test.cpp)
    for (int trial = 0; trial < 6; ++trial) {
      const Eigen::MatrixXd G0 = random_covariance(D, rng, D == 3 ? 200.0 : 2000.0);
      const double relative = trial % 2 ? 0.03 : 0.2;  // small boxes use the first-order bound
      std::vector<Interval> mean(D), cov(D * D);
      std::vector<double> reference(D * D);
      for (std::size_t j = 0; j < D; ++j) {
        const double centre = z(rng) * std::sqrt(G0(Eigen::Index(j), Eigen::Index(j))), w = relative * 3.0 * unit(rng);
        mean[j] = {centre - w, centre + w};
      }
      for (std::size_t j = 0; j < D; ++j)
        for (std::size_t k = j; k < D; ++k) {
          const double g = G0(Eigen::Index(j), Eigen::Index(k));
          const double scale = std::sqrt(G0(Eigen::Index(j), Eigen::Index(j)) * G0(Eigen::Index(k), Eigen::Index(k)));
          const double below = relative * scale * unit(rng), above = relative * scale * unit(rng);
          cov[j * D + k] = cov[k * D + j] = {g - below, g + above};
          reference[j * D + k] = reference[k * D + j] = g;
        }
      for (std::size_t c = 0; c <= D; ++c) {
        const Interval b = softmax_vertex_bounds(mean, cov, reference, c, 0.005);
        widest = std::max(widest, b.width());
        for (int s = 0; s < 20; ++s) {
          Eigen::VectorXd m(D);
          Eigen::MatrixXd G(D, D);
          for (std::size_t j = 0; j < D; ++j) m[Eigen::Index(j)] = mean[j].lower + mean[j].width() * unit(rng);
          for (std::size_t j = 0; j < D; ++j)
            for (std::size_t k = j; k < D; ++k) {
              const Interval& i = cov[j * D + k];
              const double corner =
                  s % 3 == 0 ? (unit(rng) < 0.5 ? i.lower : i.upper) : i.lower + i.width() * unit(rng);
              G(Eigen::Index(j), Eigen::Index(k)) = G(Eigen::Index(k), Eigen::Index(j)) = corner;
            }
          if (!(smallest_eigenvalue(G) > 0.0)) continue;
          const double f = exact_f(m, G, c, 1e-9);
          EXPECT_GE(f, b.lower - 1e-8) << "D " << D << " trial " << trial << " class " << c;
          EXPECT_LE(f, b.upper + 1e-8) << "D " << D << " trial " << trial << " class " << c;
        }
      }
    }
  }
  std::cout << "  vertex bounds: widest " << widest << "\n";
}

}  // namespace
}  // namespace gpprobe
