#include "gpprobe/probe/gauss_hermite.h"

#include <cassert>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "common/numeric_constants.h"

namespace gpprobe {

namespace {

// Orthonormal Hermite polynomials for the weight exp(-x^2): p_0 = pi^(-1/4),
// p_{k+1} = x sqrt(2/(k+1)) p_k - sqrt(k/(k+1)) p_{k-1}. Returns p_n(x) and p_{n-1}(x), and the sum of
// p_k(x)^2 for k < n (the reciprocal of the Gauss weight at a node).
struct HermiteValues {
  double pn = 0.0;
  double pn_1 = 0.0;
  double sum_squares = 0.0;
};

HermiteValues hermite(int n, double x) {
  HermiteValues h;
  double previous = 0.0;
  double current = std::pow(kPi, -0.25);
  for (int k = 0; k < n; ++k) {
    h.sum_squares += current * current;
    const double next = x * std::sqrt(2.0 / (k + 1)) * current - std::sqrt(double(k) / (k + 1)) * previous;
    previous = current;
    current = next;
  }
  h.pn = current;
  h.pn_1 = previous;
  return h;
}

}  // namespace

GaussHermite GaussHermite::make(int n) {
  assert(n >= 1 && n <= 256 && "Gauss-Hermite order must be in [1, 256]");
  // Golub-Welsch: the nodes are the eigenvalues of the symmetric tridiagonal Jacobi matrix with zero
  // diagonal and off-diagonal sqrt(k/2).
  Eigen::VectorXd diagonal = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd off(std::max(n - 1, 0));
  for (int k = 1; k < n; ++k) off[k - 1] = std::sqrt(0.5 * k);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver;
  solver.computeFromTridiagonal(diagonal, off, Eigen::EigenvaluesOnly);

  GaussHermite rule;
  rule.nodes.resize(n);
  rule.weights.resize(n);
  const double sqrt_pi = std::sqrt(kPi);
  for (int i = 0; i < n; ++i) {
    double x = solver.eigenvalues()[i];
    // Newton on p_n with p_n' = sqrt(2n) p_{n-1}; two steps take the eigenvalue to full precision.
    for (int step = 0; step < 3; ++step) {
      const HermiteValues h = hermite(n, x);
      x -= h.pn / (std::sqrt(2.0 * n) * h.pn_1);
    }
    const HermiteValues h = hermite(n, x);
    // Weight for exp(-x^2) is 1/sum p_k^2; for the standard normal divide by sqrt(pi) and scale x.
    rule.weights[i] = 1.0 / (h.sum_squares * sqrt_pi);
    rule.nodes[i] = std::sqrt(2.0) * x;
  }
  return rule;
}

const GaussHermite& probe_quadrature() {
  static const GaussHermite rule = GaussHermite::make(128);
  return rule;
}

}  // namespace gpprobe
