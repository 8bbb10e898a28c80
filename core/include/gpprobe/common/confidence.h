#pragma once

// The one confidence level of every interval and paired test gpprobe reports (the leave-one-out verdict,
// the Compare lab's AUROC intervals and DeLong tests): 99 %, two-sided, by the normal approximation.
// 99 % rather than 95 % because the intervals are rough at the small observation counts probes are fitted
// on (docs/design/probe.md, the leave-one-out verdict).

namespace gpprobe {

inline constexpr double kIntervalConfidence = 0.99;
// The standard normal's (1 + kIntervalConfidence) / 2 = 99.5 % quantile: intervals are value -/+ this many
// standard errors.
inline constexpr double kIntervalZ = 2.5758293035489004;
// The significance level of the paired tests, 1 - kIntervalConfidence.
inline constexpr double kPairedTestAlpha = 0.01;

}  // namespace gpprobe
