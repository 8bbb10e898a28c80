// A Gauss-Hermite rule laid out for four lanes (lanes.h), and the probe's measures over it four nodes at
// a time with the vector exp and log1p of lanes_math.h (the wasm build has no vector libm; its scalar
// exp and log1p cost ~20 ns each). Nodes whose weight is below 1e-20 are dropped (beyond them every
// integrand is at most |mean| + 30, so together they move no measure by 1e-15) and the rest padded with
// zero weights to whole lanes. uncertainty_measures uses it for the probe's rule, belief_envelope for
// its own. Private to core/src.
#pragma once

#include <vector>

#include "gpprobe/probe/gauss_hermite.h"
#include "gpprobe/probe/uncertainty_measures.h"

namespace gpprobe {

struct LaneRule {
  std::vector<double> nodes, weights;
};

LaneRule lane_rule(const GaussHermite& rule);

// logistic_expectations (uncertainty_measures.h) of f = mean + sd * node over the rule.
LogisticExpectations lane_expectations(double mean, double sd, const LaneRule& rule);

// uncertainty_measures(mean, variance) over the rule.
UncertaintyMeasures lane_measures(double mean, double variance, const LaneRule& rule);

// E[g] and E[g (1 - g)] (its derivative in the mean) for g = sigmoid(f), f = mean + sd * node.
struct JudgedAndSlope {
  double judged, slope;
};
JudgedAndSlope lane_judged_and_slope(double mean, double sd, const LaneRule& rule);

}  // namespace gpprobe
