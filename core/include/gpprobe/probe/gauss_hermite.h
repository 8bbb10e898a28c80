// Gauss-Hermite quadrature for expectations under a normal distribution:
//
//   E[h(f)], f ~ N(m, s2)   ~=   sum_i weight_i * h(m + sqrt(s2) * node_i),
//
// with nodes and weights already scaled for the standard normal (sum of weights = 1). With n nodes
// the rule is exact for polynomials of degree 2n - 1; the probe's integrands are smooth and bounded,
// and 128 nodes reach ~1e-13 against adaptive quadrature even at the prior's variance.
//
// Nodes come from the Golub-Welsch eigenvalue problem, are polished by Newton steps on the
// orthonormal Hermite recurrence, and weights are 1 / sum_k p_k(x)^2 (accurate also in the tails).
#pragma once

#include <vector>

namespace gpprobe {

struct GaussHermite {
  std::vector<double> nodes;    // standard-normal nodes, ascending
  std::vector<double> weights;  // standard-normal weights, summing to 1

  // n in [1, 256].
  static GaussHermite make(int n);
};

// The rule the probe uses (128 nodes), built once.
const GaussHermite& probe_quadrature();

}  // namespace gpprobe
