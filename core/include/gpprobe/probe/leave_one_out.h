// Leave-one-out judged probabilities of the probe's observations in closed form (no refits), and the
// verdict they give: do these observations separate the concept in this embedding at all?
//
// Each latent GP g of the probe (f_alpha, f_beta) is heteroscedastic GP regression with
// K_g = K + diag(n_g) and residuals r_g against mu0 (docs/design/probe.md, "Knowledge"). Leaving observation i out (the standard
// identities, e.g. Rasmussen & Williams §5.4.2, with the noise of each observation inside K_g), f_g at a_i
// given the others is Gaussian with
//   mean      mu0 + r_g,i - [K_g^-1 r_g]_i / [K_g^-1]_ii
//   variance  1 / [K_g^-1]_ii - n_g,i            (the latent variance: i's own noise taken off)
// so f = f_alpha - f_beta at a_i has mean m_alpha - m_beta and variance v_alpha + v_beta, and the judged
// probability E[sigmoid f] comes from the probe's quadrature (uncertainty_measures.h). Equal to fitting the
// probe without observation i and scoring a_i (tested to 1e-9). Cost: one fit (O^2 D + O^3 in function
// space, O D^2 + D^3 in weight space, whichever is cheaper), none per observation.
//
// The verdict over the O observations (labels y_i, LOO judged probabilities p_i):
//   AUROC      of p against y (metrics.h), with DeLong's standard error (auroc_standard_error)
//   log loss   -(1/O) sum [y log p + (1 - y) log(1 - p)], with standard error sd(losses) / sqrt(O)
//   99% intervals: the log loss's value -/+ 2.576 standard errors (a normal approximation, rough at O this
//              small, so 99% rather than 95%: with 95%, 1 of 20 seeds of unrelated labels in the tests passed
//              as separating, AUROC 0.81 +/- 0.25). The AUROC's interval is the one that stays honest at the
//              edges and at few observations (honest_auroc_interval, compare/auroc_interval.h: Newcombe's score
//              interval joined with DeLong's normal interval, clipped to [0, 1]); DeLong's alone is kept
//              beside it (auroc_normal_interval), whose standard error is 0 at AUROC 1 however few the
//              observations. The result carries them and their level (confidence), so callers show them
//              without restating z
//   too_few    fewer than 2 observations of a class (no standard error); or DeLong's interval lies above 1/2
//              but the honest one reaches it: the ranking looks good but is too few observations to tell
//              from chance (3 + 5 ranked perfectly: DeLong 1–1, honest 0.43–1)
//   chance     DeLong's interval reaches 1/2 (or lies below it), or the log loss's interval lies
//              above log 2, the loss of the prior's judged probability 1/2 (confidently wrong): these
//              observations do not separate the concept in this embedding. A log loss whose interval
//              merely reaches log 2 is not enough to warn: with 16 observations its standard error is
//              ~0.1 nats, so a well-ranked concept (the demo's ge5: AUROC 0.84 ± 0.28) would be called
//              chance for its calibration alone
//   separates  otherwise: the honest AUROC interval lies above 1/2 (8 + 8 ranked perfectly: 0.63–1)
#pragma once

#include <cstddef>
#include <vector>

#include "gpprobe/certify/interval.h"
#include "gpprobe/common/enum_names.h"
#include "gpprobe/common/fields.h"
#include "gpprobe/common/status.h"
#include "gpprobe/probe/probe.h"

namespace gpprobe {

enum class LooVerdict { too_few, chance, separates };
inline constexpr EnumNames<LooVerdict, 3> kLooVerdictNames = {
    {{LooVerdict::too_few, "too_few"}, {LooVerdict::chance, "chance"}, {LooVerdict::separates, "separates"}}};

// "too_few", "chance", "separates".
inline const char* verdict_name(LooVerdict verdict) { return name_of(kLooVerdictNames, verdict); }

struct LeaveOneOut {
  // One per observation, in the probe's order: f at a_i and E[sigmoid f] given every other observation.
  std::vector<double> latent_mean, latent_variance, judged_probability;
  std::size_t positives = 0, negatives = 0;
  double auroc = 0.0, auroc_standard_error = 0.0;        // NaN when undefined (a class missing / < 2)
  double log_loss = 0.0, log_loss_standard_error = 0.0;  // NaN when undefined (O = 0 / O < 2)
  // The intervals the verdict judges at `confidence`, z the standard normal's (1 + confidence) / 2 quantile;
  // NaN bounds where the standard error is NaN (fewer than 2 of a class for the AUROC's).
  //   auroc_interval         honest_auroc_interval (within [0, 1]); separates only when it lies above 1/2
  //   auroc_normal_interval  DeLong's alone, auroc -/+ z se (not clipped); chance when it reaches 1/2
  //   log_loss_interval      log_loss -/+ z se (not clipped)
  double confidence = 0.99;
  Interval auroc_interval, auroc_normal_interval, log_loss_interval;
  LooVerdict verdict = LooVerdict::too_few;
};
// The intervals shown flat, named as in `gpprobe loo`'s JSON: auroc_lower/upper the honest one,
// auroc_delong_lower/upper DeLong's alone, log_loss_lower/upper.
GPPROBE_DESCRIBE(LeaveOneOut, "LeaveOneOutValue", GPPROBE_FIELD(judged_probability), GPPROBE_FIELD(latent_mean),
                 GPPROBE_FIELD(latent_variance), GPPROBE_FIELD(positives), GPPROBE_FIELD(negatives),
                 GPPROBE_FIELD(auroc), GPPROBE_FIELD(auroc_standard_error), GPPROBE_FIELD(log_loss),
                 GPPROBE_FIELD(log_loss_standard_error), GPPROBE_FIELD(confidence), GPPROBE_COVERED(auroc_interval),
                 GPPROBE_COVERED(auroc_normal_interval), GPPROBE_COVERED(log_loss_interval),
                 GPPROBE_COMPUTED("auroc_lower", [](const LeaveOneOut& r) { return r.auroc_interval.lower; }),
                 GPPROBE_COMPUTED("auroc_upper", [](const LeaveOneOut& r) { return r.auroc_interval.upper; }),
                 GPPROBE_COMPUTED("auroc_delong_lower",
                                  [](const LeaveOneOut& r) { return r.auroc_normal_interval.lower; }),
                 GPPROBE_COMPUTED("auroc_delong_upper",
                                  [](const LeaveOneOut& r) { return r.auroc_normal_interval.upper; }),
                 GPPROBE_COMPUTED("log_loss_lower", [](const LeaveOneOut& r) { return r.log_loss_interval.lower; }),
                 GPPROBE_COMPUTED("log_loss_upper", [](const LeaveOneOut& r) { return r.log_loss_interval.upper; }),
                 GPPROBE_NAMED(verdict, kLooVerdictNames));

// `space` automatic: the cheaper of the two forms for the probe's O and d (the numbers agree to rounding).
Result<LeaveOneOut> leave_one_out(const Probe& probe, PosteriorSpace space = PosteriorSpace::automatic);

}  // namespace gpprobe
