// Per-query uncertainty measures of the probe, for g = sigmoid(f) with f ~ N(mean, variance):
//
//   judged probability  E[g]
//   alea                E[H_b(g)],  H_b(g) = g softplus(-f) + (1 - g) softplus(f)   (binary entropy)
//   episteme            -H[g],      H[g]   = 1/2 log(2 pi e variance) - mean - 2 E[softplus(-f)]
//
// Expectations by Gauss-Hermite quadrature. Every term is written with softplus / logistic forms that
// cannot overflow, so |mean| up to 1e3 and variance down to 1e-12 stay finite.
#pragma once

#include "gpprobe/gauss_hermite.h"

namespace gpprobe {

struct UncertaintyMeasures {
  double judged_probability = 0.0;
  double episteme = 0.0;
  double alea = 0.0;
};

// variance > 0 (the posterior never reaches 0: every observation carries noise).
UncertaintyMeasures uncertainty_measures(double mean, double variance,
                                         const GaussHermite& rule = probe_quadrature());

// log(1 + e^x) without overflow.
double softplus(double x);

}  // namespace gpprobe
