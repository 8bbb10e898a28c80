// Sound bounds of the probe's judged probability E[sigmoid f] and episteme -H[sigmoid f] over every
// f ~ N(m, s2) whose mean and variance lie in a rectangle [m_L, m_U] x [s2_L, s2_U] (docs/design/
// certify.md, "Bounds over a box" item 6 for the logistic link, and "The probe's certificate" for the
// episteme):
//
//   judged probability  F(m, s2) increases in m; dF/ds2 has the sign of -m, so
//                       F >= F(m_L, m_L >= 0 ? s2_U : s2_L),   F <= F(m_U, m_U >= 0 ? s2_L : s2_U)
//   episteme            -H = E[h(f)] - 1/2 log(2 pi e s2), h(f) = softplus(f) + softplus(-f) even and
//                       convex, so E[h] grows with |m| and with s2:
//                       -H >= E_{N(m_near, s2_L)}[h] - 1/2 log(2 pi e s2_U)   (m_near: nearest 0)
//                       -H <= E_{N(m_far, s2_U)}[h] - 1/2 log(2 pi e s2_L)    (m_far: farthest from 0)
//
// Both properties hold for the exact integrals and, exactly, for the probe's own quadrature too (its
// nodes are symmetric, +-t with equal weights, which is all the proofs use). The bounds are evaluated
// with that quadrature and widened by quadrature_error_envelope(s2_U) plus rounding, so they hold for
// the values the probe reports and for the exact expectations alike.
#pragma once

#include "gpprobe/certify/interval.h"

namespace gpprobe {

struct MeasureBounds {
  Interval judged_probability;
  Interval episteme;  // upper = +inf when s2_L = 0
};

// mean and variance intervals with variance.lower >= 0.
MeasureBounds measure_bounds(Interval mean, Interval variance);

// An upper bound of |quadrature - exact| for the judged probability and the episteme at any mean and a
// variance up to `variance`: max(1e-12, exp(1.2 - 65 / sqrt(variance))). It is the measured error of
// the probe's 128-node Gauss-Hermite rule (5e-14 at 4.7, 1.7e-10 at 9.3, 3.5e-8 at 16.4, 9e-7 at 25.8,
// against 20-digit adaptive quadrature) times 10; tests/core/certify/measure_bounds_test.cpp pins it against
// an independent integration up to variance 28 (epsilon down to ~3e-7).
double quadrature_error_envelope(double variance);

}  // namespace gpprobe
