// Minimisation of a smooth function under box bounds: projected L-BFGS (Bertsekas' projected
// quasi-Newton with the active set of variables held at a bound).
//
//   minimise f(x)  subject to  lower <= x <= upper    (lower == upper fixes a variable)
//
// Each iteration: variables at a bound whose gradient points outward are held; the two-loop recursion
// over the last `memory` pairs (s, y) gives a direction for the rest; a backtracking Armijo search
// runs along the projected path P(x + t d). Pairs with s'y <= 0 are skipped, and a non-descent
// direction resets the memory to steepest descent. It stops when the projected gradient
// |x - P(x - g)|_inf < gradient_tolerance, or the relative decrease of f falls below
// relative_tolerance (scipy's L-BFGS-B tests: pgtol, factr * eps), or after max_iterations.
//
// The objective returns f and writes the gradient; a non-finite f (e.g. a failed Cholesky) makes the
// line search step back. Progress is reported after each iteration; returning false cancels.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

using Objective = std::function<double(const std::vector<double>& x, std::vector<double>* gradient)>;

struct LbfgsOptions {
  std::size_t max_iterations = 200;
  std::size_t memory = 10;
  double gradient_tolerance = 1e-6;
  double relative_tolerance = 1e-12;
};

struct LbfgsResult {
  std::vector<double> x;
  double value = 0.0;
  std::vector<double> gradient;
  std::size_t iterations = 0;
  std::size_t evaluations = 0;
  bool converged = false;  // false: max_iterations reached or the line search found no decrease
};

// x0 is projected into the box first. invalid_argument for bounds of the wrong size or lower > upper;
// numerical_failure when f is not finite at the (projected) start; cancelled when progress said stop.
Result<LbfgsResult> minimize_lbfgs(const Objective& f, std::vector<double> x0, const std::vector<double>& lower,
                                   const std::vector<double>& upper, const LbfgsOptions& options = {},
                                   const ProgressCallback& progress = {});

}  // namespace gpprobe
