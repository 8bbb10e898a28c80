#include "gpprobe/compare/representation_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "gpprobe/common/confidence.h"
#include "gpprobe/compare/auroc_interval.h"
#include "gpprobe/compare/comparison_sentence.h"
#include "gpprobe/compare/delong.h"
#include "gpprobe/compare/draw_comparison.h"
#include "gpprobe/evaluation/metrics.h"

#include "common/input_checks.h"

namespace gpprobe {

namespace {

constexpr double kCompareNaN = std::numeric_limits<double>::quiet_NaN();

std::string in_quotes(const std::string& name) { return "'" + name + "'"; }

// The n rows of representation `name` and its OOD set: shapes and finite values.
Status check_representation(const std::string& name, const std::string& first_name, std::size_t rows,
                            const MatrixView& embeddings, const MatrixView& ood) {
  const std::string what = "embedding " + in_quotes(name);
  if (embeddings.rows() != rows) {
    return Status(StatusCode::dimension_mismatch, what + " has " + count_of(embeddings.rows(), "row") + ", embedding " +
                                                      in_quotes(first_name) + " has " + count_of(rows, "row") +
                                                      "; every embedding must hold the same rows");
  }
  if (embeddings.cols() == 0) return Status(StatusCode::invalid_argument, what + " has 0 columns");
  GPPROBE_RETURN_IF_ERROR(check_finite(embeddings, what));
  if (!ood.empty()) {
    if (ood.cols() != embeddings.cols()) {
      return Status(StatusCode::dimension_mismatch, "the OOD set of " + what + " has " +
                                                        count_of(ood.cols(), "column") + ", the embedding has " +
                                                        count_of(embeddings.cols(), "column"));
    }
    GPPROBE_RETURN_IF_ERROR(check_finite(ood, "the OOD set of " + what));
  }
  return Status::success();
}

Status check_concept(const ComparedConcept& c, std::size_t n, bool repeats_allowed) {
  const std::string name = "concept " + in_quotes(c.name);
  if (c.label_count != n) {
    return Status(StatusCode::dimension_mismatch,
                  name + " has " + count_of(c.label_count, "label") + " for " + count_of(n, "row"));
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (c.labels[i] > 1 && c.labels[i] != kUnlabelled) {
      return Status(StatusCode::invalid_argument, name + ": the label of row " + std::to_string(i) + " is " +
                                                      std::to_string(int(c.labels[i])) +
                                                      "; labels must be 0, 1 or 255 (unlabelled)");
    }
  }
  std::vector<char> seen(n, 0);
  std::size_t positives = 0;
  for (std::size_t row : c.observations) {
    if (row >= n) {
      return Status(StatusCode::invalid_argument, name + ": observation row " + std::to_string(row) +
                                                      " is out of range (" + count_of(n, "row") + ")");
    }
    if (seen[row] && !repeats_allowed) {
      return Status(StatusCode::invalid_argument,
                    name + ": observation row " + std::to_string(row) + " is listed twice");
    }
    seen[row] = 1;
    if (c.labels[row] == kUnlabelled) {
      return Status(StatusCode::invalid_argument, name + ": observation row " + std::to_string(row) + " has no label");
    }
    positives += c.labels[row];
  }
  if (positives == 0 || positives == c.observations.size()) {
    return Status(StatusCode::invalid_argument,
                  name + ": the observations need both classes; " +
                      (c.observations.empty()
                           ? std::string("there are none")
                           : "all " + std::to_string(c.observations.size()) + " are " + (positives ? "1" : "0")));
  }
  return Status::success();
}

// The rows `rows` of x, in that order, in x's precision (float32 stays float32; the fit widens them).
struct SelectedRows {
  std::vector<float> float32;
  std::vector<double> float64;
  MatrixView view;
};

SelectedRows select_rows(const MatrixView& x, const std::vector<std::size_t>& rows) {
  SelectedRows s;
  const std::size_t d = x.cols();
  if (x.type() == ScalarType::float32) {
    s.float32.resize(rows.size() * d);
    const float* data = static_cast<const float*>(x.data());
    for (std::size_t i = 0; i < rows.size(); ++i) std::memcpy(&s.float32[i * d], data + rows[i] * d, d * sizeof(float));
    s.view = MatrixView(s.float32.data(), rows.size(), d);
  } else {
    s.float64.resize(rows.size() * d);
    const double* data = static_cast<const double*>(x.data());
    for (std::size_t i = 0; i < rows.size(); ++i)
      std::memcpy(&s.float64[i * d], data + rows[i] * d, d * sizeof(double));
    s.view = MatrixView(s.float64.data(), rows.size(), d);
  }
  return s;
}

// The 99% interval of an AUROC from `positives` and `negatives` rows (honest_auroc_interval, auroc_interval.h);
// NaN where the standard error is (fewer than 2 of a class).
void interval_99(double value, double standard_error, std::size_t positives, std::size_t negatives, double* lower,
                 double* upper) {
  const AurocInterval i = honest_auroc_interval(value, standard_error, positives, negatives, kIntervalZ);
  *lower = std::isfinite(standard_error) ? i.lower : kCompareNaN;
  *upper = std::isfinite(standard_error) ? i.upper : kCompareNaN;
}

Status prefixed(const Status& status, const std::string& prefix) {
  if (status.ok() || status.code() == StatusCode::cancelled) return status;
  return Status(status.code(), prefix + status.message());
}

// The probe of one concept in one representation: its numbers, and the judged probabilities of the
// held-out rows and the observations' leave-one-out ones (for the paired tests).
Status probe_one(const std::string& name, const MatrixView& embeddings, const MatrixView& ood,
                 const std::vector<std::uint8_t>& labels, const std::vector<std::size_t>& observations,
                 const std::vector<std::size_t>& heldout, const ComparisonOptions& options, double episteme_threshold,
                 const ProgressCallback& progress, RepresentationProbe* out, std::vector<double>* heldout_scores,
                 std::vector<double>* loo_scores) {
  const std::string prefix = in_quotes(name) + ": ";
  const std::size_t n = embeddings.rows(), O = observations.size();
  *out = RepresentationProbe();
  out->name = name;
  out->width = embeddings.cols();

  const SelectedRows observed = select_rows(embeddings, observations);
  std::vector<std::uint8_t> y(O);
  for (std::size_t i = 0; i < O; ++i) y[i] = labels[observations[i]];
  ProbeOptions probe_options = options.probe;
  probe_options.expected_queries = n;
  Result<Probe> probe = Probe::fit(observed.view, y.data(), O, probe_options);
  if (!probe.ok()) return prefixed(probe.status(), prefix);
  out->space = probe.value().space();

  Result<LeaveOneOut> loo = leave_one_out(probe.value());
  if (!loo.ok()) return prefixed(loo.status(), prefix);
  const LeaveOneOut& l = loo.value();
  out->observations = O;
  out->positives = l.positives;
  out->negatives = l.negatives;
  out->loo_auroc = l.auroc;
  out->loo_auroc_standard_error = l.auroc_standard_error;
  interval_99(l.auroc, l.auroc_standard_error, l.positives, l.negatives, &out->loo_auroc_lower, &out->loo_auroc_upper);
  out->loo_log_loss = l.log_loss;
  out->loo_verdict = l.verdict;
  *loo_scores = l.judged_probability;

  std::vector<double> judged(n), episteme(n), alea(n), ood_score(n);
  ProbeScoreColumns columns;
  columns.judged_probability = judged.data();
  columns.episteme = episteme.data();
  columns.alea = alea.data();
  columns.ood_score = ood_score.data();
  const std::size_t total = n + ood.rows();
  const ProgressCallback rows_progress = [&](std::size_t done, std::size_t) {
    return report_progress(progress, done, total);
  };
  GPPROBE_RETURN_IF_ERROR(prefixed(probe.value().score(embeddings, columns, rows_progress), prefix));

  std::vector<char> is_observation(n, 0);
  for (std::size_t row : observations) is_observation[row] = 1;
  double sum_judged = 0, sum_episteme = 0, sum_alea = 0;
  std::size_t decided = 0;
  std::vector<double> query_ood;
  for (std::size_t i = 0; i < n; ++i) {
    if (is_observation[i]) continue;
    sum_judged += judged[i];
    sum_episteme += episteme[i];
    sum_alea += alea[i];
    const bool extreme = judged[i] < options.decided || judged[i] > 1.0 - options.decided;
    decided += extreme && episteme[i] >= episteme_threshold;
    query_ood.push_back(ood_score[i]);
  }
  const std::size_t queries = n - O;
  out->queries = queries;
  out->mean_judged_probability = queries ? sum_judged / double(queries) : kCompareNaN;
  out->mean_episteme = queries ? sum_episteme / double(queries) : kCompareNaN;
  out->mean_alea = queries ? sum_alea / double(queries) : kCompareNaN;
  out->decided_fraction = queries ? double(decided) / double(queries) : kCompareNaN;

  std::vector<std::uint8_t> heldout_labels(heldout.size());
  heldout_scores->resize(heldout.size());
  for (std::size_t j = 0; j < heldout.size(); ++j) {
    heldout_labels[j] = labels[heldout[j]];
    (*heldout_scores)[j] = judged[heldout[j]];
  }
  out->heldout_rows = heldout.size();
  out->heldout_positives = std::size_t(std::count(heldout_labels.begin(), heldout_labels.end(), std::uint8_t(1)));
  const std::size_t heldout_negatives = heldout.size() - out->heldout_positives;
  out->heldout_auroc = out->heldout_auroc_standard_error = kCompareNaN;
  if (out->heldout_positives > 0 && heldout_negatives > 0) {
    out->heldout_auroc = auroc(heldout_labels.data(), heldout_scores->data(), heldout.size()).value();
  }
  if (out->heldout_positives > 1 && heldout_negatives > 1) {
    // DeLong's standard error from mid-rank placements, O(n log n): the pairwise definition
    // (auroc_standard_error, O(positives x negatives)) took most of a cell's time on 10,000 held-out rows,
    // on one thread. The same placements, so the same value to rounding (delong.h).
    Result<AurocCovariance> covariance =
        delong_covariance(heldout_labels.data(), heldout.size(), {heldout_scores->data()});
    if (!covariance.ok()) return prefixed(covariance.status(), prefix);
    out->heldout_auroc_standard_error = covariance.value().standard_error(0);
  }
  interval_99(out->heldout_auroc, out->heldout_auroc_standard_error, out->heldout_positives, heldout_negatives,
              &out->heldout_auroc_lower, &out->heldout_auroc_upper);

  out->ood_rows = ood.rows();
  out->ood_auroc = kCompareNaN;
  if (!ood.empty()) {
    std::vector<double> ood_rows(ood.rows());
    ProbeScoreColumns ood_columns;
    ood_columns.ood_score = ood_rows.data();
    const ProgressCallback ood_progress = [&](std::size_t done, std::size_t) {
      return report_progress(progress, n + done, total);
    };
    GPPROBE_RETURN_IF_ERROR(prefixed(probe.value().score(ood, ood_columns, ood_progress), prefix + "the OOD set: "));
    if (!query_ood.empty()) {
      // In-distribution queries are the positives: a higher OOD score means more in-distribution.
      std::vector<std::uint8_t> in_distribution(query_ood.size(), 1);
      in_distribution.resize(query_ood.size() + ood_rows.size(), 0);
      query_ood.insert(query_ood.end(), ood_rows.begin(), ood_rows.end());
      out->ood_auroc = auroc(in_distribution.data(), query_ood.data(), query_ood.size()).value();
    }
  }
  return Status::success();
}

// The paired tests of every pair of probes on the basis rows, the best probe and who is like it.
Status judge(const std::vector<std::uint8_t>& basis_labels, const std::vector<std::vector<double>>& basis_scores,
             ConceptComparison* c) {
  const std::size_t K = c->probes.size();
  c->basis_rows = basis_labels.size();
  c->difference.assign(K * K, kCompareNaN);
  c->standard_error.assign(K * K, kCompareNaN);
  c->p_value.assign(K * K, kCompareNaN);
  for (RepresentationProbe& p : c->probes) {
    const bool heldout = c->basis == ComparisonBasis::heldout;
    p.basis_auroc = heldout ? p.heldout_auroc : p.loo_auroc;
    p.basis_auroc_lower = heldout ? p.heldout_auroc_lower : p.loo_auroc_lower;
    p.basis_auroc_upper = heldout ? p.heldout_auroc_upper : p.loo_auroc_upper;
    p.difference_from_best = p.p_value_against_best = kCompareNaN;
    p.separates = false;
    p.below_half = false;
    p.indistinguishable_from_best = false;
  }
  if (c->basis == ComparisonBasis::none) {
    for (RepresentationProbe& p : c->probes) p.basis_auroc = p.basis_auroc_lower = p.basis_auroc_upper = kCompareNaN;
    return Status::success();
  }
  std::vector<const double*> scores;
  for (const std::vector<double>& s : basis_scores) scores.push_back(s.data());
  Result<AurocCovariance> covariance = delong_covariance(basis_labels.data(), basis_labels.size(), scores);
  if (!covariance.ok()) return covariance.status();
  for (std::size_t a = 0; a < K; ++a) {
    for (std::size_t b = 0; b < K; ++b) {
      const PairedAurocTest t = paired_auroc_test(covariance.value(), a, b);
      c->difference[a * K + b] = t.difference;
      c->standard_error[a * K + b] = t.standard_error;
      c->p_value[a * K + b] = t.p_value;
    }
  }
  c->best = 0;
  for (std::size_t k = 1; k < K; ++k) {
    if (c->probes[k].basis_auroc > c->probes[c->best].basis_auroc) c->best = k;
  }
  for (std::size_t k = 0; k < K; ++k) {
    RepresentationProbe& p = c->probes[k];
    p.difference_from_best = c->difference[k * K + c->best];
    p.p_value_against_best = c->p_value[k * K + c->best];
    p.indistinguishable_from_best = k == c->best || p.p_value_against_best >= kPairedTestAlpha;
    p.separates = p.basis_auroc_lower > 0.5;
    p.below_half = p.basis_auroc_upper < 0.5;
  }
  return Status::success();
}

}  // namespace

Result<double> one_observation_episteme(const ProbeOptions& options) {
  const double a = 1.0;
  const std::uint8_t y = 1;
  ProbeOptions o = options;
  o.space = PosteriorSpace::automatic;
  o.float32_products = false;
  Result<Probe> probe = Probe::fit(MatrixView(&a, 1, 1), &y, 1, o);
  if (!probe.ok()) return probe.status();
  double episteme = 0;
  ProbeScoreColumns out;
  out.episteme = &episteme;
  GPPROBE_RETURN_IF_ERROR(probe.value().score(MatrixView(&a, 1, 1), out));
  return episteme;
}

Result<ComparisonRun> ComparisonRun::start(std::vector<std::string> names, std::size_t rows,
                                           const std::vector<ComparedConcept>& concepts,
                                           const ComparisonOptions& options) {
  return start_impl(std::move(names), rows, concepts, options, false);
}

Result<ComparisonRun> ComparisonRun::start_resampled(std::vector<std::string> names, std::size_t rows,
                                                     const std::vector<ComparedConcept>& concepts,
                                                     const ComparisonOptions& options) {
  return start_impl(std::move(names), rows, concepts, options, true);
}

Result<ComparisonRun> ComparisonRun::start_impl(std::vector<std::string> names, std::size_t rows,
                                                const std::vector<ComparedConcept>& concepts,
                                                const ComparisonOptions& options, bool repeats_allowed) {
  if (names.empty()) return Status(StatusCode::invalid_argument, "compare needs at least one embedding");
  if (rows == 0)
    return Status(StatusCode::invalid_argument, "embedding " + in_quotes(names.front()) + " is empty (0 rows)");
  if (concepts.empty()) return Status(StatusCode::invalid_argument, "compare needs at least one concept");
  for (const ComparedConcept& c : concepts) GPPROBE_RETURN_IF_ERROR(check_concept(c, rows, repeats_allowed));
  if (!(options.decided > 0.0 && options.decided < 0.5)) {
    return Status(StatusCode::invalid_argument,
                  "decided must be a number in (0, 0.5), got " + number_text(options.decided));
  }
  if (std::isinf(options.episteme_threshold)) {
    return Status(StatusCode::invalid_argument, "episteme_threshold must be finite (NaN: one observation's episteme)");
  }
  ComparisonRun run;
  run.episteme_threshold_ = options.episteme_threshold;
  if (std::isnan(run.episteme_threshold_)) {
    Result<double> threshold = one_observation_episteme(options.probe);
    if (!threshold.ok()) return threshold.status();
    run.episteme_threshold_ = threshold.value();
  }
  run.names_ = std::move(names);
  run.rows_ = rows;
  run.options_ = options;
  for (const ComparedConcept& c : concepts) {
    Concept concept {c.name, std::vector<std::uint8_t>(c.labels, c.labels + rows), c.observations, {}};
    std::vector<char> is_observation(rows, 0);
    for (std::size_t row : c.observations) is_observation[row] = 1;
    for (std::size_t i = 0; i < rows; ++i) {
      if (!is_observation[i] && concept.labels[i] != kUnlabelled) concept.heldout.push_back(i);
    }
    run.concepts_.push_back(std::move(concept));
  }
  run.widths_.assign(run.names_.size(), 0);
  run.cells_.resize(run.concepts_.size() * run.names_.size());
  return run;
}

Status ComparisonRun::probe(std::size_t concept, std::size_t k, const MatrixView& embeddings, const MatrixView& ood,
                            const ProgressCallback& progress) {
  if (concept >= concepts_.size() || k >= names_.size()) {
    return Status(StatusCode::invalid_argument, "compare: no cell (concept " + std::to_string(concept) +
                                                    ", embedding " + std::to_string(k) + ") in a comparison of " +
                                                    count_of(concepts_.size(), "concept") + " and " +
                                                    count_of(names_.size(), "embedding"));
  }
  if (widths_[k] != embeddings.cols() || widths_[k] == 0) {
    GPPROBE_RETURN_IF_ERROR(check_representation(names_[k], names_.front(), rows_, embeddings, ood));
    widths_[k] = embeddings.cols();
  } else if (embeddings.rows() != rows_) {
    GPPROBE_RETURN_IF_ERROR(check_representation(names_[k], names_.front(), rows_, embeddings, ood));
  }
  const Concept& c = concepts_[concept];
  Cell& cell = cells_[concept * names_.size() + k];
  cell.done = false;
  GPPROBE_RETURN_IF_ERROR(
      prefixed(probe_one(names_[k], embeddings, ood, c.labels, c.observations, c.heldout, options_, episteme_threshold_,
                         progress, &cell.probe, &cell.heldout_scores, &cell.loo_scores),
               "concept " + in_quotes(c.name) + ", embedding "));
  cell.done = true;
  return Status::success();
}

bool ComparisonRun::complete() const {
  return std::all_of(cells_.begin(), cells_.end(), [](const Cell& cell) { return cell.done; });
}

Result<ComparisonResult> ComparisonRun::finish() const {
  const std::size_t K = names_.size();
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    if (!cells_[i].done) {
      return Status(StatusCode::invalid_argument, "compare: concept " + in_quotes(concepts_[i / K].name) +
                                                      " has not been probed in embedding " + in_quotes(names_[i % K]));
    }
  }
  ComparisonResult result;
  result.decided = options_.decided;
  result.episteme_threshold = episteme_threshold_;
  result.layers = layer_names(names_);
  const LayerNames& layers = result.layers;
  for (std::size_t ci = 0; ci < concepts_.size(); ++ci) {
    const Concept& concept = concepts_[ci];
    ConceptComparison c;
    c.concept = concept.name;
    std::vector<std::vector<double>> heldout_scores, loo_scores;
    for (std::size_t k = 0; k < K; ++k) {
      const Cell& cell = cells_[ci * K + k];
      c.probes.push_back(cell.probe);
      heldout_scores.push_back(cell.heldout_scores);
      loo_scores.push_back(cell.loo_scores);
    }
    const RepresentationProbe& first = c.probes.front();
    const std::size_t heldout_negatives = first.heldout_rows - first.heldout_positives;
    std::vector<std::uint8_t> basis_labels;
    if (first.heldout_positives >= 2 && heldout_negatives >= 2) {
      c.basis = ComparisonBasis::heldout;
      for (std::size_t row : concept.heldout) basis_labels.push_back(concept.labels[row]);
      GPPROBE_RETURN_IF_ERROR(judge(basis_labels, heldout_scores, &c));
    } else if (first.positives >= 2 && first.negatives >= 2) {
      c.basis = ComparisonBasis::leave_one_out;
      for (std::size_t row : concept.observations) basis_labels.push_back(concept.labels[row]);
      GPPROBE_RETURN_IF_ERROR(judge(basis_labels, loo_scores, &c));
    } else {
      c.basis = ComparisonBasis::none;
      GPPROBE_RETURN_IF_ERROR(judge(basis_labels, {}, &c));
    }
    c.sentence = comparison_sentence(c, layers);
    result.concepts.push_back(std::move(c));
  }
  return result;
}

namespace {

Result<ComparisonResult> compare_all(const std::vector<Representation>& representations,
                                     const std::vector<ComparedConcept>& concepts, const ComparisonOptions& options,
                                     const ProgressCallback& progress, bool repeats_allowed) {
  if (representations.empty()) return Status(StatusCode::invalid_argument, "compare needs at least one embedding");
  std::vector<std::string> names;
  std::size_t total = 0;
  for (const Representation& r : representations) {
    names.push_back(r.name);
    total += (representations.front().embeddings.rows() + r.ood.rows()) * concepts.size();
  }
  // Every representation's shape and values first, so that a bad one is refused before any fit.
  for (const Representation& r : representations) {
    GPPROBE_RETURN_IF_ERROR(
        check_representation(r.name, names.front(), representations.front().embeddings.rows(), r.embeddings, r.ood));
  }
  const std::size_t rows = representations.front().embeddings.rows();
  Result<ComparisonRun> run = repeats_allowed
                                  ? ComparisonRun::start_resampled(std::move(names), rows, concepts, options)
                                  : ComparisonRun::start(std::move(names), rows, concepts, options);
  if (!run.ok()) return run.status();
  std::size_t done = 0;
  for (std::size_t k = 0; k < representations.size(); ++k) {
    const Representation& r = representations[k];
    for (std::size_t c = 0; c < concepts.size(); ++c) {
      GPPROBE_RETURN_IF_ERROR(run.value().probe(c, k, r.embeddings, r.ood, [&](std::size_t scored, std::size_t) {
        return report_progress(progress, done + scored, total);
      }));
      done += r.embeddings.rows() + r.ood.rows();
    }
  }
  return run.value().finish();
}

}  // namespace

Result<ComparisonResult> compare_representations(const std::vector<Representation>& representations,
                                                 const std::vector<ComparedConcept>& concepts,
                                                 const ComparisonOptions& options, const ProgressCallback& progress) {
  return compare_all(representations, concepts, options, progress, false);
}

Result<ComparisonResult> compare_resampled(const std::vector<Representation>& representations,
                                           const std::vector<ComparedConcept>& concepts,
                                           const ComparisonOptions& options, const ProgressCallback& progress) {
  return compare_all(representations, concepts, options, progress, true);
}

}  // namespace gpprobe
