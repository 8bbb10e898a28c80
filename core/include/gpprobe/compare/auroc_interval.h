// A 99 % interval for an AUROC that stays honest at the edges and at small samples.
//
// DeLong's standard error (delong.h) is 0 when the classes do not overlap, so the normal interval
// A -/+ z se collapses to "1.000–1.000" at AUROC 1 however few the rows (8 + 8 observations). The score-type
// interval of Newcombe ("Confidence intervals for an effect size measure based on the Mann–Whitney statistic.
// Part 2: asymptotic methods and evaluation", Statistics in Medicine 25:559, 2006; his method 5) inverts the
// test instead of plugging in the estimate, as Wilson's interval does for a proportion: it is the set of theta
// in [0, 1] with
//   (A - theta)^2 <= z^2 V(theta),
//   V(theta) = theta (1 - theta) / (m n) * [1 + (N/2 - 1) ((1 - theta) / (2 - theta) + theta / (1 + theta))],
// Hanley and McNeil's variance of the Mann–Whitney estimate at theta with both group sizes replaced by N / 2
// (N = m + n, m positives, n negatives). V vanishes only at 0 and 1, so the interval of a perfect ranking
// reaches below 1 by an amount that shrinks as the rows grow (8 + 8: 0.63–1 at 99 %).
//
// honest_auroc_interval takes the hull of that interval and DeLong's normal interval clipped to [0, 1]: the
// score interval leans on Hanley and McNeil's model of the placements' spread, DeLong's on none, so where they
// differ the wider end is kept (never narrower than either).
#pragma once

#include <cstddef>

#include "gpprobe/common/fields.h"

namespace gpprobe {

struct AurocInterval {
  double lower = 0.0, upper = 1.0;
};
GPPROBE_DESCRIBE(AurocInterval, "AurocIntervalValue", GPPROBE_FIELD(lower), GPPROBE_FIELD(upper));

// Newcombe's score-type interval at z standard normal quantiles (kIntervalZ for 99 %); NaN bounds when
// auroc is not finite or a class is empty.
AurocInterval auroc_score_interval(double auroc, std::size_t positives, std::size_t negatives, double z);

// The hull of auroc_score_interval and [auroc - z se, auroc + z se] clipped to [0, 1]; the normal part is left
// out when se is NaN (fewer than 2 of a class), NaN bounds when auroc is.
AurocInterval honest_auroc_interval(double auroc, double standard_error, std::size_t positives, std::size_t negatives,
                                    double z);

}  // namespace gpprobe
