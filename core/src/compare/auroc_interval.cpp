#include "gpprobe/compare/auroc_interval.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpprobe {

namespace {

// Newcombe's V(theta) (auroc_interval.h).
double score_variance(double theta, double m, double n) {
  const double half = 0.5 * (m + n) - 1.0;
  return theta * (1.0 - theta) / (m * n) * (1.0 + half * ((1.0 - theta) / (2.0 - theta) + theta / (1.0 + theta)));
}

// The point between `inside` (where (A - theta)^2 <= z^2 V) and `outside` where the inequality turns, by
// bisection to the last bit.
double boundary(double auroc, double inside, double outside, double m, double n, double z) {
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (inside + outside);
    if (mid == inside || mid == outside) break;
    const double gap = auroc - mid;
    (gap * gap <= z * z * score_variance(mid, m, n) ? inside : outside) = mid;
  }
  return inside;
}

}  // namespace

AurocInterval auroc_score_interval(double auroc, std::size_t positives, std::size_t negatives, double z) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (!std::isfinite(auroc) || positives == 0 || negatives == 0) return {kNaN, kNaN};
  const double a = std::clamp(auroc, 0.0, 1.0), m = double(positives), n = double(negatives);
  // theta = a is always inside (V >= 0); 0 and 1 are outside unless a sits on them.
  AurocInterval r;
  r.lower = a <= 0.0 ? 0.0 : boundary(a, a, 0.0, m, n, z);
  r.upper = a >= 1.0 ? 1.0 : boundary(a, a, 1.0, m, n, z);
  return r;
}

AurocInterval honest_auroc_interval(double auroc, double standard_error, std::size_t positives, std::size_t negatives,
                                    double z) {
  AurocInterval r = auroc_score_interval(auroc, positives, negatives, z);
  if (std::isfinite(r.lower) && std::isfinite(standard_error)) {
    r.lower = std::min(r.lower, std::max(0.0, auroc - z * standard_error));
    r.upper = std::max(r.upper, std::min(1.0, auroc + z * standard_error));
  }
  return r;
}

}  // namespace gpprobe
