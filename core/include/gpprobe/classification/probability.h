// The predictive class probability of binary GP classification, p(y = +1 | x) = E[p(+1 | f)] with the
// latent f ~ N(mean, variance) at x (docs/design/classification.md, "Predictive probability"):
//
//   probit     Phi(mean / sqrt(1 + variance))                                 exact
//   logistic   E[sigmoid(f)] = int sigmoid(mean + sqrt(variance) t) phi(t) dt
//              by composite Gauss-Legendre in t: 72 panels of 16 nodes on [-9, 9] (the normal mass
//              outside is 2e-19). Absolute error below 2e-15 for variance <= 400 (tested against 50-digit
//              quadrature); Gauss-Hermite is not used: it converges slowly once variance > ~4, because
//              the sigmoid has poles at f = +-i pi.
//   MacKay     sigmoid(mean / sqrt(1 + pi variance / 8))                      an APPROXIMATION of the
//              logistic one (Toussaint's lecture), max error 1.6e-2; offered for comparison only.
#pragma once

#include <cstddef>

#include "gpprobe/classification/likelihood.h"

namespace gpprobe {

// p(y = +1) for f ~ N(mean, variance), variance >= 0.
double predictive_probability(ClassifierLikelihood likelihood, double mean, double variance);

// E[sigmoid(f)], f ~ N(mean, variance), by the composite Gauss-Legendre rule above.
double logistic_expectation(double mean, double variance);

// MacKay's approximation sigmoid(mean / sqrt(1 + pi variance / 8)) of logistic_expectation.
double mackay_approximation(double mean, double variance);

// The rule itself, on [-1, 1]: 16 Gauss-Legendre nodes (ascending) and weights (summing to 2),
// computed once by Newton's method on the Legendre recurrence.
struct GaussLegendre16 {
  double nodes[16];
  double weights[16];
};
const GaussLegendre16& gauss_legendre16();

}  // namespace gpprobe
