#include "gpprobe/compare/draw_comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "gpprobe/common/confidence.h"
#include "gpprobe/common/random_stream.h"
#include "gpprobe/compare/auroc_interval.h"
#include "gpprobe/compare/comparison_sentence.h"
#include "gpprobe/probe/observation_draw.h"

namespace gpprobe {

namespace {

constexpr double kDrawNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kMaxDraws = 10000;

// The continued fraction of the regularized incomplete beta function I_x(a, b) (modified Lentz), valid for
// x < (a + 1) / (a + b + 2).
double beta_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 10000; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1.0) < 1e-16) break;
  }
  return h;
}

double incomplete_beta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_fraction(a, b, x) / a;
  return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

double mean_of(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()); }

// Sample variance, denominator size - 1.
double variance_of(const std::vector<double>& v, double mean) {
  double s = 0.0;
  for (double x : v) s += (x - mean) * (x - mean);
  return s / double(v.size() - 1);
}

// The seed of draw r.
std::uint64_t draw_seed(std::uint64_t seed, std::size_t r) { return r == 0 ? seed : derive_seed(seed, {r}); }

// `per_class` rows of each class among the labelled rows (draw_observations over those rows).
Result<std::vector<std::size_t>> redrawn(const ComparedConcept& c, std::size_t per_class, std::uint64_t seed) {
  std::vector<std::size_t> labelled;
  std::vector<std::uint8_t> compact;
  for (std::size_t i = 0; i < c.label_count; ++i) {
    if (c.labels[i] == kUnlabelled) continue;
    labelled.push_back(i);
    compact.push_back(c.labels[i]);
  }
  Result<std::vector<std::size_t>> drawn = draw_observations(compact.data(), compact.size(), per_class, seed);
  if (!drawn.ok()) return Status(drawn.status().code(), "concept '" + c.name + "': " + drawn.status().message());
  std::vector<std::size_t> rows;
  for (std::size_t k : drawn.value()) rows.push_back(labelled[k]);
  return rows;
}

// The given observations resampled with replacement within each class (class 1, then 0; one stream).
std::vector<std::size_t> resampled(const ComparedConcept& c, std::uint64_t seed) {
  RandomStream stream(seed);
  std::vector<std::size_t> rows;
  for (int label : {1, 0}) {
    std::vector<std::size_t> pool;
    for (std::size_t row : c.observations)
      if (c.labels[row] == label) pool.push_back(row);
    for (std::size_t i = 0; i < pool.size(); ++i) rows.push_back(pool[stream.index(pool.size())]);
  }
  return rows;
}

// What summarize_draws needs from one draw's comparison of one concept.
DrawRecord record_of(const ConceptComparison& c) {
  const std::size_t K = c.probes.size();
  DrawRecord r;
  r.claimed = K;
  for (const RepresentationProbe& p : c.probes) {
    const double se = c.basis == ComparisonBasis::heldout ? p.heldout_auroc_standard_error : p.loo_auroc_standard_error;
    r.auroc.push_back(c.basis == ComparisonBasis::none ? kDrawNaN : p.basis_auroc);
    r.variance.push_back(c.basis == ComparisonBasis::none ? kDrawNaN : se * se);
  }
  r.difference_variance.resize(K * K);
  for (std::size_t i = 0; i < K * K; ++i) r.difference_variance[i] = c.standard_error[i] * c.standard_error[i];
  if (c.basis != ComparisonBasis::none && K > 1) {
    std::size_t ties = 0;
    for (const RepresentationProbe& p : c.probes) ties += p.indistinguishable_from_best;
    if (ties == 1) r.claimed = c.best;
  }
  return r;
}

}  // namespace

double student_t_two_sided_p(double t, double df) {
  if (std::isnan(t) || !(df > 0.0)) return kDrawNaN;
  if (std::isinf(t)) return 0.0;
  return std::clamp(incomplete_beta(0.5 * df, 0.5, df / (df + t * t)), 0.0, 1.0);
}

double student_t_critical(double alpha, double df) {
  double low = 0.0, high = 1.0;
  while (student_t_two_sided_p(high, df) > alpha && high < 1e12) high *= 2.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (low + high);
    if (mid == low || mid == high) break;
    (student_t_two_sided_p(mid, df) > alpha ? low : high) = mid;
  }
  return high;
}

std::vector<double> holm_adjusted(const std::vector<double>& p) {
  const std::size_t m = p.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&p](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  std::vector<double> adjusted(m);
  double running = 0.0;
  for (std::size_t j = 0; j < m; ++j) {
    running = std::max(running, std::min(1.0, double(m - j) * p[order[j]]));
    adjusted[order[j]] = running;
  }
  return adjusted;
}

DrawnComparison summarize_draws(const std::vector<DrawRecord>& draws, std::size_t basis_positives,
                                std::size_t basis_negatives) {
  DrawnComparison s;
  const std::size_t R = draws.size(), K = R ? draws.front().auroc.size() : 0;
  s.draws = R;
  s.probes.resize(K);
  s.comparisons = K ? K - 1 : 0;
  if (R < 2 || K == 0) return s;
  bool defined = true;
  for (const DrawRecord& d : draws)
    for (std::size_t k = 0; k < K; ++k) defined = defined && std::isfinite(d.auroc[k]) && std::isfinite(d.variance[k]);
  const double df = double(R - 1), t_critical = student_t_critical(kPairedTestAlpha, df);
  for (std::size_t k = 0; k < K; ++k) {
    DrawnProbe& p = s.probes[k];
    for (const DrawRecord& d : draws) p.auroc.push_back(d.auroc[k]);
    if (!defined) {
      p.mean = p.standard_deviation = p.minimum = p.maximum = p.lower = p.upper = kDrawNaN;
      p.difference_from_best = p.p_value_against_best = p.holm_p_value = kDrawNaN;
      continue;
    }
    p.mean = mean_of(p.auroc);
    const double var = variance_of(p.auroc, p.mean);
    p.standard_deviation = std::sqrt(var);
    p.minimum = *std::min_element(p.auroc.begin(), p.auroc.end());
    p.maximum = *std::max_element(p.auroc.begin(), p.auroc.end());
    double measuring = 0.0;
    for (const DrawRecord& d : draws) measuring += d.variance[k];
    const double se = std::sqrt(var / double(R) + measuring / double(R));
    const AurocInterval score = auroc_score_interval(p.mean, basis_positives, basis_negatives, kIntervalZ);
    p.lower = std::max(0.0, p.mean - t_critical * se);
    p.upper = std::min(1.0, p.mean + t_critical * se);
    if (std::isfinite(score.lower)) {
      p.lower = std::min(p.lower, score.lower);
      p.upper = std::max(p.upper, score.upper);
    }
    p.separates = p.lower > 0.5;
    p.below_half = p.upper < 0.5;
    for (const DrawRecord& d : draws) {
      std::size_t highest = 0;
      for (std::size_t j = 1; j < K; ++j)
        if (d.auroc[j] > d.auroc[highest]) highest = j;
      p.highest_in_draws += highest == k;
      p.claimed_in_draws += d.claimed == k;
    }
  }
  if (!defined) return s;
  s.best = 0;
  for (std::size_t k = 1; k < K; ++k)
    if (s.probes[k].mean > s.probes[s.best].mean) s.best = k;
  std::vector<double> raw;
  for (std::size_t k = 0; k < K; ++k) {
    DrawnProbe& p = s.probes[k];
    std::vector<double> difference;
    double measuring = 0.0;
    for (const DrawRecord& d : draws) {
      difference.push_back(d.auroc[k] - d.auroc[s.best]);
      measuring += d.difference_variance[k * K + s.best];
    }
    p.difference_from_best = mean_of(difference);
    const double se = std::sqrt(variance_of(difference, p.difference_from_best) / double(R) + measuring / double(R));
    if (k == s.best) {
      p.p_value_against_best = 1.0;
    } else if (se == 0.0) {
      p.p_value_against_best = p.difference_from_best == 0.0 ? 1.0 : 0.0;
    } else {
      p.p_value_against_best = student_t_two_sided_p(p.difference_from_best / se, df);
    }
    if (k != s.best) raw.push_back(p.p_value_against_best);
  }
  const std::vector<double> adjusted = holm_adjusted(raw);
  for (std::size_t k = 0, i = 0; k < K; ++k) {
    DrawnProbe& p = s.probes[k];
    p.holm_p_value = k == s.best ? 1.0 : adjusted[i++];
    p.indistinguishable_from_best = k == s.best || p.holm_p_value >= kPairedTestAlpha;
  }
  return s;
}

namespace {

// The options, and for a bootstrap that every concept has rows to measure the resamples on.
Status check_draws(const DrawOptions& draws, const std::vector<ComparedConcept>& concepts, std::size_t n) {
  if (draws.draws < 2 || draws.draws > kMaxDraws) {
    return Status(StatusCode::invalid_argument, "draws must be between 2 and " + std::to_string(kMaxDraws) + ", got " +
                                                    std::to_string(draws.draws) +
                                                    " (one set of observations: compare_representations)");
  }
  if (draws.mode == DrawMode::none) {
    return Status(StatusCode::invalid_argument, "draws: the mode must be redraw or bootstrap");
  }
  if (draws.mode == DrawMode::redraw && draws.per_class == 0) {
    return Status(StatusCode::invalid_argument, "draws: per_class must be at least 1");
  }
  if (draws.mode != DrawMode::bootstrap) return Status::success();
  for (const ComparedConcept& c : concepts) {
    if (c.label_count != n || c.labels == nullptr) continue;  // the comparison names the mismatch
    std::vector<char> given(n, 0);
    for (std::size_t row : c.observations)
      if (row < n) given[row] = 1;
    std::size_t others[2] = {0, 0};
    for (std::size_t i = 0; i < n; ++i)
      if (!given[i] && c.labels[i] <= 1) ++others[c.labels[i]];
    if (others[0] < 2 || others[1] < 2) {
      return Status(StatusCode::invalid_argument,
                    "concept '" + c.name + "': resampling the given observations needs at least 2 other labelled " +
                        "rows of each class to measure each draw on (there are " + std::to_string(others[1]) +
                        " of class 1 and " + std::to_string(others[0]) +
                        " of class 0); a repeated row's leave-one-out probability would see its twin. Label more " +
                        "rows, or compare the one set of observations alone");
    }
  }
  return Status::success();
}

// The concepts of draw r: their observations redrawn, resampled (r > 0) or as given (bootstrap, r = 0).
Result<std::vector<ComparedConcept>> drawn_concepts(const std::vector<ComparedConcept>& concepts, std::size_t n,
                                                    const DrawOptions& draws, std::size_t r) {
  std::vector<ComparedConcept> drawn = concepts;
  const std::uint64_t seed = draw_seed(draws.seed, r);
  for (ComparedConcept& c : drawn) {
    if (draws.mode == DrawMode::redraw) {
      if (c.label_count != n || c.labels == nullptr) continue;  // the comparison names the mismatch
      Result<std::vector<std::size_t>> rows = redrawn(c, draws.per_class, seed);
      if (!rows.ok()) return rows.status();
      c.observations = std::move(rows.value());
    } else if (r > 0) {
      c.observations = resampled(c, seed);
    }
  }
  return drawn;
}

// The rows drawn from (redraw: the labelled rows) or resampled (bootstrap: the given ones), per concept.
std::vector<std::size_t> labelled_counts(const std::vector<ComparedConcept>& concepts, DrawMode mode) {
  std::vector<std::size_t> counts;
  for (const ComparedConcept& c : concepts) {
    std::size_t labelled = 0;
    if (mode == DrawMode::redraw) {
      for (std::size_t i = 0; i < c.label_count; ++i) labelled += c.labels[i] != kUnlabelled;
    } else {
      labelled = c.observations.size();
    }
    counts.push_back(labelled);
  }
  return counts;
}

// The first draw's comparison with each concept's summary over the draws and its sentence.
ComparisonResult with_draws(ComparisonResult first, const std::vector<std::vector<DrawRecord>>& records,
                            const std::vector<std::size_t>& labelled, DrawMode mode) {
  for (std::size_t ci = 0; ci < first.concepts.size(); ++ci) {
    ConceptComparison& c = first.concepts[ci];
    std::size_t positives = 0, negatives = 0;
    if (c.basis != ComparisonBasis::none) {
      const RepresentationProbe& p = c.probes.front();
      const bool heldout = c.basis == ComparisonBasis::heldout;
      positives = heldout ? p.heldout_positives : p.positives;
      negatives = heldout ? p.heldout_rows - p.heldout_positives : p.negatives;
    }
    DrawnComparison d = summarize_draws(records[ci], positives, negatives);
    d.mode = mode;
    d.observations = c.probes.front().observations;
    d.basis_rows = c.basis_rows;
    d.labelled_rows = labelled[ci];
    c.draws = std::move(d);
    c.sentence = comparison_sentence(c, first.layers);
  }
  return first;
}

Status in_draw(const Status& status, std::size_t r) {
  if (status.ok() || r == 0 || status.code() == StatusCode::cancelled) return status;
  return Status(status.code(), "draw " + std::to_string(r) + ": " + status.message());
}

}  // namespace

Result<ComparisonResult> compare_over_draws(const std::vector<Representation>& representations,
                                            const std::vector<ComparedConcept>& concepts,
                                            const ComparisonOptions& options, const DrawOptions& draws,
                                            const ProgressCallback& progress) {
  if (representations.empty()) return Status(StatusCode::invalid_argument, "compare needs at least one embedding");
  const std::size_t n = representations.front().embeddings.rows();
  GPPROBE_RETURN_IF_ERROR(check_draws(draws, concepts, n));
  std::size_t per_draw = 0;
  for (const Representation& r : representations) per_draw += (n + r.ood.rows()) * concepts.size();
  const std::size_t total = per_draw * draws.draws;

  ComparisonResult first;
  std::vector<std::vector<DrawRecord>> records(concepts.size());
  for (std::size_t r = 0; r < draws.draws; ++r) {
    Result<std::vector<ComparedConcept>> drawn = drawn_concepts(concepts, n, draws, r);
    if (!drawn.ok()) return drawn.status();
    const ProgressCallback draw_progress = [&](std::size_t done, std::size_t) {
      return report_progress(progress, r * per_draw + done, total);
    };
    Result<ComparisonResult> result =
        r > 0 && draws.mode == DrawMode::bootstrap
            ? compare_resampled(representations, drawn.value(), options, draw_progress)
            : compare_representations(representations, drawn.value(), options, draw_progress);
    if (!result.ok()) return in_draw(result.status(), r);
    for (std::size_t c = 0; c < concepts.size(); ++c) records[c].push_back(record_of(result.value().concepts[c]));
    if (r == 0) first = std::move(result.value());
  }
  return with_draws(std::move(first), records, labelled_counts(concepts, draws.mode), draws.mode);
}

Result<DrawnComparisonRun> DrawnComparisonRun::start(std::vector<std::string> names, std::size_t rows,
                                                     const std::vector<ComparedConcept>& concepts,
                                                     const ComparisonOptions& options, const DrawOptions& draws) {
  GPPROBE_RETURN_IF_ERROR(check_draws(draws, concepts, rows));
  DrawnComparisonRun run;
  run.draws_ = draws;
  run.labelled_ = labelled_counts(concepts, draws.mode);
  for (std::size_t r = 0; r < draws.draws; ++r) {
    Result<std::vector<ComparedConcept>> drawn = drawn_concepts(concepts, rows, draws, r);
    if (!drawn.ok()) return drawn.status();
    Result<ComparisonRun> one = r > 0 && draws.mode == DrawMode::bootstrap
                                    ? ComparisonRun::start_resampled(names, rows, drawn.value(), options)
                                    : ComparisonRun::start(names, rows, drawn.value(), options);
    if (!one.ok()) return in_draw(one.status(), r);
    std::vector<std::vector<std::size_t>> observations;
    for (const ComparedConcept& c : drawn.value()) observations.push_back(c.observations);
    run.observations_.push_back(std::move(observations));
    run.runs_.push_back(std::move(one.value()));
  }
  return run;
}

Status DrawnComparisonRun::probe(std::size_t k, const MatrixView& embeddings, const MatrixView& ood,
                                 const ProgressCallback& progress) {
  const std::size_t C = runs_.front().concepts(), per_cell = embeddings.rows() + ood.rows();
  const std::size_t total = runs_.size() * C * per_cell;
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    for (std::size_t c = 0; c < C; ++c) {
      const std::size_t before = (r * C + c) * per_cell;
      GPPROBE_RETURN_IF_ERROR(in_draw(runs_[r].probe(c, k, embeddings, ood,
                                                     [&](std::size_t done, std::size_t) {
                                                       return report_progress(progress, before + done, total);
                                                     }),
                                      r));
    }
  }
  return Status::success();
}

bool DrawnComparisonRun::complete() const {
  return std::all_of(runs_.begin(), runs_.end(), [](const ComparisonRun& run) { return run.complete(); });
}

Result<ComparisonResult> DrawnComparisonRun::finish() const {
  ComparisonResult first;
  std::vector<std::vector<DrawRecord>> records(runs_.front().concepts());
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    Result<ComparisonResult> result = runs_[r].finish();
    if (!result.ok()) return in_draw(result.status(), r);
    for (std::size_t c = 0; c < records.size(); ++c) records[c].push_back(record_of(result.value().concepts[c]));
    if (r == 0) first = std::move(result.value());
  }
  return with_draws(std::move(first), records, labelled_, draws_.mode);
}

}  // namespace gpprobe
