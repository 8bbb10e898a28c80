// Compare over draws of the observations: does the conclusion hold when other observations are drawn?
//
// A comparison of representations (representation_comparison.h) ranks them on one set of observations, and
// DeLong's paired test is conditional on it: on the digits layers, 16 observations per class drawn with
// seeds 0..9 each called a different layer "best at 99 %". compare_over_draws repeats the whole comparison R
// times with other observations and judges the representations by the spread over draws:
//
//   redraw     (observations drawn from the labelled rows) draw r takes per_class labelled rows of each class
//              as draw_observations does (observation_draw.h), with seed S for r = 0 and derive_seed(S, {r})
//              after, so the first draw is the comparison `--per-class N --seed S` gives alone; each draw is
//              measured on the labelled rows it did not draw (or on its leave-one-out probabilities when
//              those lack a class, as ComparisonRun does)
//   bootstrap  (observations given) draw 0 is the given rows; draw r > 0 resamples them with replacement
//              within each class (class 1 first, then 0; one RandomStream(derive_seed(S, {r})); the class
//              counts kept), and is measured on the labelled rows it did not draw: the other labelled rows
//              and the given rows the resample left out. It needs at least 2 labelled rows of each class
//              besides the given ones (a duplicated row's leave-one-out probability would see its twin)
//
// Per representation k over the R draws (A_rk the draw's AUROC on its basis, v_rk DeLong's variance of it):
//   mean, standard deviation (denominator R - 1), minimum, maximum of A_rk
//   interval   mean -/+ t se, se^2 = sd^2 / R + mean_r v_rk, t Student's 99.5 % quantile at R - 1 degrees of
//              freedom, clipped to [0, 1]; widened to hold Newcombe's score interval at the mean with the
//              first draw's basis counts (auroc_interval.h), so that R perfect draws do not give 1.000–1.000
// The best representation has the highest mean. Each other one is tested against it on the paired
// differences D_r = A_rk - A_r,best:
//   t = mean(D) / se,  se^2 = var(D) / R + mean_r w_r,  w_r DeLong's variance of draw r's difference,
//   two-sided p from Student's t at R - 1 degrees of freedom,
// and the K - 1 p-values get Holm's step-down correction (Holm 1979, "A simple sequentially rejective
// multiple test procedure", Scandinavian Journal of Statistics 6:65): indistinguishable from the best when
// the adjusted p-value is at least 0.01.
//
// What the test assumes. The draws are independent given the labelled rows (each is a fresh seeded draw),
// so the D_r are independent and identically distributed given those rows, and var(D) / R is the variance
// of their mean over draws of observations from *these* rows. The draws share rows (the rows each is
// measured on overlap almost entirely), so the error of having this one sample of rows to measure on does
// not average away over draws; the mean DeLong variance w adds it back once. That sum counts part of the
// measuring rows' error twice (var(D) holds some of it), so the test errs towards "indistinguishable".
// What it cannot see: rows that are not in the file. Its conclusions are about observations drawn from
// these labelled rows (the sentence says so), not about another data set.
//
// Progress counts rows scored over all draws (R times compare_representations' total); false cancels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/compare/representation_comparison.h"

namespace gpprobe {

struct DrawOptions {
  std::size_t draws = 20;            // R >= 2
  DrawMode mode = DrawMode::redraw;  // redraw from the labelled rows, or bootstrap the given observations
  std::size_t per_class = 8;         // redraw: observations of each class per draw
  std::uint64_t seed = 0;
};

// Draw 0's comparison (every number as compare_representations gives it for the first draw's observations),
// each concept's `draws` filled and its sentence saying what the draws support. redraw ignores the
// concepts' observations. invalid_argument for R < 2 or above 10,000, per_class 0, mode none, a concept
// whose redraw lacks a class, or a bootstrap without 2 other labelled rows of each class.
Result<ComparisonResult> compare_over_draws(const std::vector<Representation>& representations,
                                            const std::vector<ComparedConcept>& concepts,
                                            const ComparisonOptions& options, const DrawOptions& draws,
                                            const ProgressCallback& progress = {});

// The same in steps, for callers that hold one embedding at a time (as ComparisonRun): start with the names,
// the row count, the concepts and the draws (every draw's observations are drawn here), probe each
// representation k once — every concept in every draw, so its rows are copied in once — then finish. The
// result is compare_over_draws' to the bit. Memory: the judged probabilities of the rows each cell measures
// on, R x C x K x (held-out rows) doubles, are kept until finish (the paired tests need every
// representation's); 20 draws x 4 concepts x 4 layers x 1,765 held-out rows of the digits layers are 4.5 MB.
class DrawnComparisonRun {
 public:
  static Result<DrawnComparisonRun> start(std::vector<std::string> names, std::size_t rows,
                                          const std::vector<ComparedConcept>& concepts,
                                          const ComparisonOptions& options, const DrawOptions& draws);
  // Progress counts the rows scored in this call, of R x C x (n + ood rows); false cancels.
  Status probe(std::size_t k, const MatrixView& embeddings, const MatrixView& ood = {},
               const ProgressCallback& progress = {});
  bool complete() const;
  Result<ComparisonResult> finish() const;

  std::size_t draws() const { return runs_.size(); }
  // The observation rows of `concept` in draw r (a bootstrap's may repeat).
  const std::vector<std::size_t>& observations(std::size_t r, std::size_t concept) const {
    return observations_[r][concept];
  }

 private:
  DrawnComparisonRun() = default;
  DrawOptions draws_;
  std::vector<std::size_t> labelled_;                                // per concept
  std::vector<ComparisonRun> runs_;                                  // one per draw
  std::vector<std::vector<std::vector<std::size_t>>> observations_;  // [draw][concept]
};

// One draw of one concept: what summarize_draws needs.
struct DrawRecord {
  std::vector<double> auroc;                // K: the basis AUROC
  std::vector<double> variance;             // K: DeLong's variance of it
  std::vector<double> difference_variance;  // K by K row-major: DeLong's variance of A_a - A_b
  std::size_t claimed = 0;                  // the one its own DeLong tests put above every other; K for none
};

// The over-draws numbers (above) from R >= 2 records; basis counts for the score interval.
DrawnComparison summarize_draws(const std::vector<DrawRecord>& draws, std::size_t basis_positives,
                                std::size_t basis_negatives);

// Student's t: the two-sided p-value of |t| at df degrees of freedom, and the t whose two-sided p is alpha.
double student_t_two_sided_p(double t, double df);
double student_t_critical(double alpha, double df);

// Holm's step-down adjusted p-values, in the order given: sorted ascending p_(1..m), the adjusted p_(i) is
// max over j <= i of min(1, (m - j + 1) p_(j)).
std::vector<double> holm_adjusted(const std::vector<double>& p);

// compare_representations with observation rows allowed to repeat (a bootstrap resample).
Result<ComparisonResult> compare_resampled(const std::vector<Representation>& representations,
                                           const std::vector<ComparedConcept>& concepts,
                                           const ComparisonOptions& options = {},
                                           const ProgressCallback& progress = {});

}  // namespace gpprobe
