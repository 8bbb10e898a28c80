// Sound bounds of a GP classifier's class probability pi = F(mu, Sigma) = E[p(y = +1 | f)],
// f ~ N(mu, Sigma), over every latent mean in [mu_L, mu_U] and variance in [Sigma_L, Sigma_U] (docs/design/
// certify.md, "Bounds over a box" item 6):
//
//   F increases in mu, and dF/dSigma has the sign of -mu, so over the rectangle
//     F >= F(mu_L, mu_L >= 0 ? Sigma_U : Sigma_L),     F <= F(mu_U, mu_U >= 0 ? Sigma_L : Sigma_U)
//
//   probit    F = Phi(mu / sqrt(1 + Sigma)): Lemma 3 of Blaas et al. (App. C), exact.
//   logistic  F = E[sigmoid f]: the same rule (certify.md: sigmoid'' is odd and <= 0 on [0, inf)), evaluated
//             with the model's own quadrature (logistic_expectation), which keeps both monotonicities
//             exactly (its nodes come in pairs +-t with equal weights, which is all the proof uses).
//
// Each end is widened by the error of its evaluation, so it holds for the exact F and for the values
// the model reports alike: probit 16 u (1 + z^2) Phi(z) + 4 u (u = 2^-53; Phi's own accuracy is a few
// ulp times 1 + z^2, likelihood.h), logistic logistic_quadrature_margin(Sigma) at the corner used.
// The result is clipped to [0, 1].
#pragma once

#include "gpprobe/certify/interval.h"
#include "gpprobe/classification/likelihood.h"

namespace gpprobe {

// mean: finite; variance: 0 <= lower <= upper.
Interval probability_bounds(ClassifierLikelihood likelihood, Interval mean, Interval variance);

// An upper bound of |logistic_expectation(mu, Sigma) - E[sigmoid f]| for every mu at this variance,
// rounding included: 3e-13 + exp(-1.5 - 680 / sqrt(Sigma)) (3e-13: the rounding of a sum of 1,152
// positive terms, at most 1,151 u). The composite Gauss-Legendre rule is exact to 2e-16 up to
// Sigma = 400 and then degrades (the sigmoid steepens between its nodes): measured 3.8e-12 at 1,000,
// 1.2e-8 at 3,000, 2.5e-6 at 10^4, 7e-5 at 3 10^4, 2.1e-3 at 10^6, against an independent integration
// in the logistic variable (where the integrand stays smooth); tests/core/certify/probability_bounds_test.cpp
// checks the envelope, 16 to 80 times above these, from 1 to 10^6.
double logistic_quadrature_margin(double variance);

}  // namespace gpprobe
