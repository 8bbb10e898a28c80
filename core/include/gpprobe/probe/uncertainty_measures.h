// Per-query uncertainty measures of the probe, for g = sigmoid(f) with f ~ N(mean, variance):
//
//   judged probability  E[g]
//   alea                E[H_b(g)],  H_b(g) = g softplus(-f) + (1 - g) softplus(f)   (binary entropy)
//   episteme            -H[g],      H[g]   = 1/2 log(2 pi e variance) - mean - 2 E[softplus(-f)]
//
// Expectations by Gauss-Hermite quadrature. With the probe's rule (the default) the nodes of negligible
// weight are skipped and the rest are summed four at a time with a vector exp and log1p (lanes_math.h):
// no libm call per node, the same numbers to ~1e-15. Every term is written with softplus / logistic forms that
// cannot overflow, so |mean| up to 1e3 and variance down to 1e-12 stay finite.
//
// The same sums serve any discrete distribution of f (the quadrature's nodes here, the members of the
// linear probe ensemble in linear_probe_ensemble.cpp): logistic_expectations takes n values f_i with
// weights w_i summing to 1, and latent_episteme turns E[softplus(-f)] into the episteme.
#pragma once

#include <cmath>
#include <cstddef>

#include "gpprobe/probe/gauss_hermite.h"

namespace gpprobe {

struct UncertaintyMeasures {
  double judged_probability = 0.0;
  double episteme = 0.0;
  double alea = 0.0;
};

// variance > 0 (the posterior never reaches 0: every observation carries noise).
UncertaintyMeasures uncertainty_measures(double mean, double variance, const GaussHermite& rule = probe_quadrature());

// log(1 + e^x) without overflow.
double softplus(double x);

struct LogisticExpectations {
  double judged_probability = 0.0;  // sum w g(f_i)
  double alea = 0.0;                // sum w H_b(g(f_i))
  double softplus_neg = 0.0;        // sum w softplus(-f_i)
};

// The sums above for f_i = f(i), i < n. One exp and one log1p per value: with e = exp(-|f|),
//   softplus(-f) = max(-f, 0) + log1p(e),  softplus(f) = max(f, 0) + log1p(e),
//   sigmoid(f) = 1/(1+e) for f >= 0 and e/(1+e) otherwise; 1 - sigmoid(f) = sigmoid(-f).
template <class F>
LogisticExpectations logistic_expectations(std::size_t n, const double* w, F f) {
  LogisticExpectations sums;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = f(i);
    const double e = std::exp(-std::fabs(x));
    const double log1p_e = std::log1p(e);
    const double sp_neg = std::fmax(-x, 0.0) + log1p_e;
    const double sp_pos = std::fmax(x, 0.0) + log1p_e;
    const double big = 1.0 / (1.0 + e);
    const double small = e / (1.0 + e);
    const double g = x >= 0.0 ? big : small;
    const double one_minus_g = x >= 0.0 ? small : big;
    sums.judged_probability += w[i] * g;
    sums.alea += w[i] * (g * sp_neg + one_minus_g * sp_pos);
    sums.softplus_neg += w[i] * sp_neg;
  }
  return sums;
}

// -H[g] = -(1/2 log(2 pi e variance) - mean - 2 E[softplus(-f)]) for f of this mean and variance.
double latent_episteme(double mean, double variance, double softplus_neg);

}  // namespace gpprobe
