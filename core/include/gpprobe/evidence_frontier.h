// The boundary of the "irrational" region of the judged-probability-vs-episteme plot (paper Fig. 2,
// after Fox & Ulkumen): the most extreme judged probability that unanimous evidence *at the query
// itself* produces at each level of episteme. A query beyond it is more certain than even n agreeing
// observations at that very point would justify at its episteme.
//
// n observations with label 1 at the query (n >= 0, continuous), kernel value k(a, a) = v:
//   f_alpha: residual delta, noise n+:  mean - mu0 = n v delta / (n v + n+),  variance = v n+ / (n v + n+)
//   f_beta:  residual 0, noise v:       mean - mu0 = 0,                      variance = v / (n + 1)
//   f = f_alpha - f_beta: m(n) = n v delta / (n v + n+),  s2(n) = v n+ / (n v + n+) + v / (n + 1),
// mapped to (episteme, judged probability) by uncertainty_measures. Label 0 mirrors it: 1 - judged.
// At n = 0 it starts at the prior (episteme of N(0, 2v), judged 1/2).
#pragma once

#include <cstddef>
#include <vector>

#include "gpprobe/status.h"

namespace gpprobe {

struct FrontierPoint {
  double evidence = 0.0;            // n
  double episteme = 0.0;
  double judged_probability = 0.0;  // >= 1/2 (the label-1 side)
};

// `points` >= 2 values of n spaced evenly in log(1 + n) from 0 to max_evidence > 0.
Result<std::vector<FrontierPoint>> evidence_frontier(double epsilon, double strength, double max_evidence,
                                                     std::size_t points);

}  // namespace gpprobe
