// Class probabilities of multi-class GP classification, pi^c = E[softmax_c(f)], f ~ N(mu, Sigma) (C classes,
// Sigma C by C positive semi-definite), as settled in docs/design/multiclass.md:
//
//   softmax(f) = softmax(f - f_r 1), so the integral runs over the C - 1 differences g = A f (rows e_j - e_r,
//   r = C - 1): g ~ N(A mu, A Sigma A'), g = m + L t with L L' = A Sigma A' (Cholesky; a symmetric square root
//   where rounding makes it semi-definite), t ~ N(0, I). One rule gives all C probabilities, which sum to 1.
//
//   tensor (C <= 4 by default)
//     Gauss-Hermite with N nodes per axis, N raised 8, 12, 16, 24, ..., 256 until two successive changes of
//     every probability are <= tolerance; where it has not converged by 256 (large variances: the softmax
//     has complex poles ~pi/sd from the real axis), composite Gauss-Legendre on [-9, 9] per axis (P panels
//     of 16 nodes, P = 8, 12, 16, 24, 32, 48, 64, 96, 128), the same test. error_estimate = the last change (or, when
//     no order converged within max_nodes, the last change seen: then `converged` is false). Automatic
//     starts at Gauss-Legendre when an outer axis (a column of L but the last) has an entry above 8. With L
//     lower triangular the outer axes' panels are graded (P / 2 uniform panels plus edges at c +- w h 3^k
//     towards each t where two differences cross in their conditional means; h = 16 / P).
//     The innermost axis, once its scale l = L_{D-1,D-1} is >= 2, is integrated in closed form plus a fixed
//     96-node rule instead (E[sigmoid(a + l t)] = Phi(a / l) + R, R a smooth integral over [0, 40];
//     docs/design/multiclass.md): its cost no longer grows with l, and max_nodes counts N^(C-2) * 96.
//   quasi_monte_carlo (C > 4 by default)
//     randomised quasi-Monte Carlo: a Kronecker (R_d, generalised golden ratio) sequence in [0, 1)^{C-1},
//     mapped by the inverse normal CDF (each point t used with its antithetic -t), under 16 independent
//     random shifts (seeded); N points per shift, doubled from 1024 until the standard error of the mean
//     over the shifts is <= qmc_tolerance (1e-4 by default) for every class or N * 16 reaches
//     qmc_max_points. error_estimate = 3 standard errors (an estimate, not a bound). Cost: C = 10 at the
//     default tolerance takes ~0.1-1 s; each halving of the tolerance costs ~4 times more.
//
// Sums are compensated (Neumaier): a plain sum over 10^6 nodes loses 1e-13. C = 2 is the binary
// E[sigmoid(f^0 - f^1)] over one axis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include <Eigen/Core>

#include "gpprobe/common/status.h"

namespace gpprobe {

enum class SoftmaxRule { automatic, gauss_hermite, gauss_legendre, quasi_monte_carlo };

// "automatic", "gauss-hermite", "composite-gauss-legendre", "quasi-monte-carlo".
const char* softmax_rule_name(SoftmaxRule rule);

struct SoftmaxExpectationOptions {
  // automatic: the tensor rules (Gauss-Hermite, then Gauss-Legendre) for C <= 4, quasi-Monte Carlo above.
  // gauss_hermite / gauss_legendre: that tensor rule only (any C; the node count is N^(C-1)).
  SoftmaxRule rule = SoftmaxRule::automatic;
  double tolerance = 1e-13;                           // tensor rules: largest accepted change between successive orders
  double qmc_tolerance = 1e-4;                        // quasi-Monte Carlo: target standard error
  std::size_t max_nodes = 200000000;                  // tensor: N^(C-1) per order
  std::size_t qmc_max_points = std::size_t(1) << 24;  // QMC: points over all shifts
  std::uint64_t seed = 0x5eed;                        // the QMC shifts
  // Checked between blocks of nodes (QMC: every 1024 points; tensor rules: every node of the outer axes); once it
  // returns true the rule stops where it is: `stopped` and not `converged` (a caller's deadline or cancel).
  std::function<bool()> stop = {};
};

struct SoftmaxExpectation {
  std::vector<double> probabilities;              // C, summing to 1
  double error_estimate = 0.0;                    // see above: the tensor rules' last change, or 3 QMC standard errors
  bool converged = true;                          // the stopping test was met within max_nodes
  SoftmaxRule rule = SoftmaxRule::gauss_hermite;  // the rule that produced the values
  std::size_t nodes_per_axis = 0;  // tensor: N (Gauss-Hermite) or 16 P (Gauss-Legendre); QMC: points per shift
  bool semidefinite = false;       // A Sigma A' was not positive definite (a symmetric square root was used)
  bool stopped = false;            // options.stop ended the work early (then not converged)
};

// mean: C values (C >= 2), finite; covariance: C by C, symmetric, finite. invalid_argument for C < 2,
// dimension_mismatch for sizes that disagree, non_finite for NaN / Inf in the inputs, numerical_failure
// when A Sigma A' has an eigenvalue below -1e-9 (1 + max|A Sigma A'|) (not a covariance) or a result is not finite.
Result<SoftmaxExpectation> softmax_expectation(const Eigen::VectorXd& mean, const Eigen::MatrixXd& covariance,
                                               const SoftmaxExpectationOptions& options = {});

// F_c(m, Gamma) = E[softmax_c(g)], g ~ N(m, Gamma) over the D = C - 1 differences to the last class, with its
// gradient and Hessian in m from the same node sweep (Stein's lemma: grad F = L^-T E[t s], hess F = L^-T E[(t t' - I)
// s] L^-1, g = m + L t, L L' = Gamma): the tensor sum carries the weights t_a and t_a t_b along with each node, and
// the step-split innermost axis its closed form's a-derivatives (E[t sigmoid(a + l t)] = l P'(a), E[t^2 sigmoid] = P
// + l^2 P''(a)). One sweep costs about what softmax_expectation's costs, where 2 D (D + 1) + 1 sweeps give the Hessian
// by second differences. The orders are raised (Gauss-Hermite, then composite Gauss-Legendre, as softmax_expectation)
// until two successive changes of every sum are <= tolerance; error_estimate is the last change of any sum, and
// gradient_error / hessian_error that estimate carried through L^-1 (e |L^-T| 1 and 2 e r r', r_a = sum_i |L^-1_ia|)
// plus rounding. Gamma must be positive definite (numerical_failure otherwise); the rule automatic, gauss_hermite or
// gauss_legendre (quasi-Monte Carlo: invalid_argument).
struct SoftmaxMoments {
  std::vector<double> probabilities;   // C
  std::vector<double> gradient;        // C * D: dF_c / dm_a at [c * D + a]
  std::vector<double> hessian;         // C * D * D: d2F_c / dm_a dm_b at [(c * D + a) * D + b]
  std::vector<double> gradient_error;  // as gradient
  std::vector<double> hessian_error;   // as hessian
  double error_estimate = 0.0;         // the last change of any of the sums (values included)
  bool converged = false;
  bool stopped = false;
  SoftmaxRule rule = SoftmaxRule::gauss_hermite;
  std::size_t nodes_per_axis = 0;
};
Result<SoftmaxMoments> softmax_difference_moments(const Eigen::VectorXd& m, const Eigen::MatrixXd& gamma,
                                                  const SoftmaxExpectationOptions& options = {});

// softmax_c over the augmented vector (g_0 .. g_{D-1}, 0) of D = C - 1 differences to the last class,
// computed with the largest entry taken out (never overflows). out: C values.
void softmax_of_differences(const double* g, std::size_t D, double* out);

// The standard normal quantile Phi^-1(p), p in (0, 1): Acklam's rational approximation polished by one
// Halley step on erfc (relative error ~1e-15).
double normal_quantile(double p);

}  // namespace gpprobe
