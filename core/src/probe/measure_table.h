// The probe's three uncertainty measures (uncertainty_measures.h) read from a table instead of summed by
// quadrature for each query: scoring 200,000 queries spends most of its time in the 60 quadrature nodes per
// query, while the measures are smooth functions of (mean, sd) that piecewise polynomials reproduce to
// ~1e-13.
//
// One table per prior variance 2v (every probe with the same epsilon shares it). Its cells tile
//   |mean| in [0, 24)  in cells of width 1 (the measures are symmetric in the mean: measure_table.cpp),
//   sd     in [max(sd_max / 4, 0.5), sd_max], sd_max = sqrt(2v), in cells of width <= 0.25,
// and hold, for each measure, the tensor Chebyshev interpolant of degree 11 in the mean and 8 in the sd
// through the quadrature's values at the cell's Chebyshev points. A cell is built on its first use (105
// quadrature sums, ~0.2 ms) and checked there against the quadrature at three further points of either
// sign: a cell that misses by more than 2e-12 (relative to max(1, |measure|)) is never used. Outside the
// cells (|mean| >= 24, sds below the table) and in cells that failed their check, the quadrature answers.
//
// The prior (mean 0) gives a judged probability of exactly 1/2, and opposite means give judged
// probabilities summing to 1 (to the last bit but one). The value for given (mean, variance, 2v) never
// depends on which query, batch or thread asked first: the table's content is a pure function of 2v.
// Thread-safe. Private to core/src.
#pragma once

#include "gpprobe/probe/uncertainty_measures.h"

namespace gpprobe {

// uncertainty_measures(mean, variance) within the table's accuracy; 0 < variance <= prior_variance.
UncertaintyMeasures tabulated_uncertainty_measures(double mean, double variance, double prior_variance);

}  // namespace gpprobe
