#include "evaluation/experiment_protocol.h"

#include <algorithm>

#include "gpprobe/baselines/linear_probe.h"
#include "gpprobe/common/random_stream.h"
#include "gpprobe/evaluation/metrics.h"
#include "gpprobe/linalg/parallel_for.h"

#include "common/input_checks.h"

namespace gpprobe {

namespace {

Status check_data(ExperimentKind kind, const ExperimentData& data, const ExperimentOptions& options) {
  const MatrixView& x = data.embeddings;
  if (x.rows() == 0) return Status(StatusCode::invalid_argument, "embeddings are empty (0 rows)");
  if (x.cols() == 0) return Status(StatusCode::invalid_argument, "embeddings have 0 columns");
  if (data.label_count != x.rows()) {
    return Status(StatusCode::dimension_mismatch, "labels have " + count_of(data.label_count, "entry", "entries") +
                                                      ", embeddings have " + count_of(x.rows(), "row"));
  }
  for (std::size_t i = 0; i < data.label_count; ++i) {
    if (data.labels[i] > 1) {
      return Status(StatusCode::invalid_argument, "label " + std::to_string(i) + " is " +
                                                      std::to_string(int(data.labels[i])) + "; labels must be 0 or 1");
    }
  }
  if (data.query_mask) {
    if (data.query_mask_count != x.rows()) {
      return Status(StatusCode::dimension_mismatch, "the query mask has " +
                                                        count_of(data.query_mask_count, "entry", "entries") +
                                                        ", embeddings have " + count_of(x.rows(), "row"));
    }
    for (std::size_t i = 0; i < x.rows(); ++i) {
      if (data.query_mask[i] > 1) {
        return Status(StatusCode::invalid_argument, "query mask entry " + std::to_string(i) + " is " +
                                                        std::to_string(int(data.query_mask[i])) +
                                                        "; entries must be 0 or 1");
      }
    }
  }
  GPPROBE_RETURN_IF_ERROR(check_finite(x, "embeddings"));
  if (kind == ExperimentKind::ood) {
    if (data.ood.rows() == 0) {
      return Status(StatusCode::invalid_argument, "the ood experiment needs ood embeddings (0 rows given)");
    }
    if (data.ood.cols() != x.cols()) {
      return Status(StatusCode::dimension_mismatch, "ood embeddings have " + count_of(data.ood.cols(), "column") +
                                                        ", embeddings have " + count_of(x.cols(), "column"));
    }
    GPPROBE_RETURN_IF_ERROR(check_finite(data.ood, "ood embeddings"));
  }
  if (options.trials == 0) return Status(StatusCode::invalid_argument, "trials must be at least 1, got 0");
  if (options.max_observations < 2) {
    return Status(StatusCode::invalid_argument,
                  "max_observations must be at least 2, got " + std::to_string(options.max_observations));
  }
  if (options.max_queries == 0) return Status(StatusCode::invalid_argument, "max_queries must be at least 1, got 0");
  if (options.members == 0) return Status(StatusCode::invalid_argument, "lpe needs at least 1 member, got 0");
  if (options.k == 0) return Status(StatusCode::invalid_argument, "knn: k must be at least 1, got 0");
  return Status::success();
}

// Sizes of the query candidates and of the pool, per class: what the schedule and the checks need.
struct SplitSizes {
  std::size_t query[2] = {0, 0}, pool[2] = {0, 0};
};

SplitSizes split_sizes(const ExperimentData& data) {
  SplitSizes s;
  std::size_t total[2] = {0, 0};
  for (std::size_t i = 0; i < data.label_count; ++i) {
    const int y = data.labels[i];
    ++total[y];
    if (data.query_mask) ++(data.query_mask[i] ? s.query[y] : s.pool[y]);
  }
  if (!data.query_mask) {
    for (int y : {0, 1}) {
      s.query[y] = total[y] / 2;
      s.pool[y] = total[y] - s.query[y];
    }
  }
  return s;
}

const char* class_name(int y) { return y ? "positive example (label 1)" : "negative example (label 0)"; }

// Why the schedule ends at `reached` below `asked`: the smaller class of the observation pool (empty
// when max_observations ended it).
std::string schedule_limit(std::size_t reached, std::size_t asked, const SplitSizes& sizes, bool masked) {
  if (2 * reached > asked) return "";
  const int y = sizes.pool[1] <= sizes.pool[0] ? 1 : 0;
  const std::string examples = y ? "positive examples (label 1)" : "negative examples (label 0)";
  const std::string pool = masked ? "the observation pool (the rows outside the query subset) holds " +
                                        std::to_string(sizes.pool[y]) + " " + examples
                                  : "each trial keeps " + std::to_string(sizes.pool[y]) + " of the " +
                                        std::to_string(sizes.pool[y] + sizes.query[y]) + " " + examples +
                                        " for observations (the other " + std::to_string(sizes.query[y]) +
                                        " are held-out queries)";
  return "stopped at O = " + std::to_string(reached) + " (up to " + std::to_string(asked) + " asked): " + pool +
         ", and O = " + std::to_string(2 * reached) + " needs " + std::to_string(reached) + " of each class";
}

// Why no held-out query can be of class y, and what needs one.
std::string no_query_of(ExperimentKind kind, int y, const SplitSizes& sizes, bool masked) {
  const std::string need = kind == ExperimentKind::probing ? "probing's AUROC needs held-out queries of both classes"
                                                           : std::string("the ") + experiment_name(kind) +
                                                                 " experiment scores the positive queries";
  if (masked) return std::string("the query subset holds no ") + class_name(y) + ": " + need;
  const std::size_t total = sizes.query[y] + sizes.pool[y];
  const char* examples = y ? "positive example (label 1)" : "negative example (label 0)";
  return "the data hold " +
         count_of(total, examples, y ? "positive examples (label 1)" : "negative examples (label 0)") +
         "; each trial holds out half of each class (rounded down: 0 of " + std::to_string(total) +
         ") as queries, so no query is a " + examples + ": " + need;
}

// Which classes the experiment's held-out queries must include (probing ranks both, fuzzy scores the
// positives, OOD tells all of them from the OOD rows).
bool needs_queries_of(ExperimentKind kind, int y) {
  return kind == ExperimentKind::probing || (kind == ExperimentKind::fuzzy && y == 1);
}

// The held-out queries: the first `count` of the shuffled candidates, unless that prefix lacks a class the
// experiment needs while the candidates hold it; then a stratified draw instead, the first candidates of each
// class in the same shuffled order, in proportion to the classes (rounded, at least one of each needed class).
std::vector<std::size_t> held_out(std::vector<std::size_t> shuffled, std::size_t count, const std::uint8_t* labels,
                                  ExperimentKind kind) {
  std::vector<std::size_t> by_class[2];
  for (std::size_t i : shuffled) by_class[labels[i]].push_back(i);
  bool prefix_lacks = false;
  for (int y : {0, 1}) {
    const bool in_prefix = std::any_of(shuffled.begin(), shuffled.begin() + std::ptrdiff_t(count),
                                       [&](std::size_t i) { return labels[i] == y; });
    prefix_lacks = prefix_lacks || (needs_queries_of(kind, y) && !in_prefix && !by_class[y].empty());
  }
  if (!prefix_lacks) {
    shuffled.resize(count);
    return shuffled;
  }
  const std::size_t positives = by_class[1].size(), total = shuffled.size();
  std::size_t take1 = std::size_t(std::llround(double(count) * double(positives) / double(total)));
  take1 =
      std::clamp<std::size_t>(take1, needs_queries_of(kind, 1) ? 1 : 0, needs_queries_of(kind, 0) ? count - 1 : count);
  take1 = std::max(std::min(take1, positives), count - std::min(count, by_class[0].size()));
  std::vector<std::size_t> queries(by_class[1].begin(), by_class[1].begin() + std::ptrdiff_t(take1));
  queries.insert(queries.end(), by_class[0].begin(), by_class[0].begin() + std::ptrdiff_t(count - take1));
  return queries;
}

}  // namespace

Result<Protocol> Protocol::make(ExperimentKind kind, const ExperimentData& data, const ExperimentOptions& options) {
  GPPROBE_RETURN_IF_ERROR(check_data(kind, data, options));
  const SplitSizes sizes = split_sizes(data);
  for (int y : {1, 0}) {
    if (sizes.pool[y] == 0)
      return Status(StatusCode::invalid_argument, std::string("the observation pool holds no ") + class_name(y));
  }
  for (int y : {1, 0}) {
    if (sizes.query[y] == 0 && needs_queries_of(kind, y)) {
      return Status(StatusCode::invalid_argument, no_query_of(kind, y, sizes, data.query_mask != nullptr));
    }
  }
  if (kind == ExperimentKind::ood && sizes.query[0] + sizes.query[1] == 0) {
    return Status(StatusCode::invalid_argument,
                  data.query_mask ? "the query subset is empty: the ood experiment needs held-out queries"
                                  : "each trial holds out half of each class (rounded down) as queries, "
                                    "none here: the ood experiment needs held-out queries");
  }
  if (kind == ExperimentKind::probing && options.max_queries < 2) {
    return Status(StatusCode::invalid_argument,
                  "max_queries is 1, but probing's AUROC needs a held-out query of each "
                  "class: at least 2");
  }
  Protocol p;
  p.kind_ = kind;
  p.data_ = data;
  p.options_ = options;
  const std::size_t per_class = std::min(sizes.pool[0], sizes.pool[1]);
  for (std::size_t O = 2; O <= options.max_observations && O / 2 <= per_class; O *= 2) p.counts_.push_back(O);
  p.limit_ = schedule_limit(p.counts_.back(), options.max_observations, sizes, data.query_mask != nullptr);
  return p;
}

TrialDraw Protocol::draw(std::size_t trial) const {
  RandomStream random(derive_seed(options_.seed, {trial}));
  TrialDraw d;
  d.trial = trial;
  std::vector<std::size_t> candidates;
  std::vector<std::size_t> by_class[2];
  for (std::size_t i = 0; i < data_.label_count; ++i) {
    if (data_.query_mask) (data_.query_mask[i] ? candidates : by_class[data_.labels[i]]).push_back(i);
    else by_class[data_.labels[i]].push_back(i);
  }
  if (!data_.query_mask) {
    for (int y : {1, 0}) {
      std::vector<std::size_t>& rows = by_class[y];
      random.shuffle(rows);
      const std::size_t half = rows.size() / 2;
      candidates.insert(candidates.end(), rows.begin(), rows.begin() + std::ptrdiff_t(half));
      rows.erase(rows.begin(), rows.begin() + std::ptrdiff_t(half));
    }
  }
  random.shuffle(by_class[1]);
  random.shuffle(by_class[0]);
  d.pool_positive = std::move(by_class[1]);
  d.pool_negative = std::move(by_class[0]);
  if (candidates.size() > options_.max_queries) {
    random.shuffle(candidates);
    candidates = held_out(std::move(candidates), options_.max_queries, data_.labels, kind_);
  }
  d.queries = std::move(candidates);
  for (std::size_t i : d.queries) d.query_labels.push_back(data_.labels[i]);
  d.query_matrix = gather_rows(data_.embeddings, d.queries);
  for (std::size_t i = 0; i < data_.ood.rows(); ++i) d.ood.push_back(i);
  if (d.ood.size() > options_.max_queries) {
    random.shuffle(d.ood);
    d.ood.resize(options_.max_queries);
  }
  d.ood_matrix = gather_rows(data_.ood, d.ood);
  return d;
}

StepObservations Protocol::observations(const TrialDraw& draw, std::size_t O) const {
  std::vector<std::size_t> rows(draw.pool_positive.begin(), draw.pool_positive.begin() + std::ptrdiff_t(O / 2));
  rows.insert(rows.end(), draw.pool_negative.begin(), draw.pool_negative.begin() + std::ptrdiff_t(O / 2));
  StepObservations s;
  s.x = gather_rows(data_.embeddings, rows);
  s.labels.assign(O / 2, 1);
  s.labels.resize(O, 0);
  return s;
}

RowMatrix gather_rows(const MatrixView& m, const std::vector<std::size_t>& rows) {
  RowMatrix out(Eigen::Index(rows.size()), Eigen::Index(m.cols()));
  for (std::size_t k = 0; k < rows.size(); ++k) m.copy_rows(rows[k], 1, out.row(Eigen::Index(k)).data());
  return out;
}

Status gpp_scores(const StepObservations& obs, const RowMatrix& queries, const ProbeOptions& options,
                  const ProbeScoreColumns& out) {
  ProbeOptions o = options;
  o.expected_queries = std::size_t(queries.rows());
  Result<Probe> probe = Probe::fit(MatrixView(obs.x), obs.labels.data(), obs.labels.size(), o);
  if (!probe.ok()) return probe.status();
  return probe.value().score(MatrixView(queries), out);
}

Status lp_scores(const StepObservations& obs, const MatrixView& queries, double* decision, double* probability) {
  Result<LinearProbe> lp = LinearProbe::fit(MatrixView(obs.x), obs.labels.data(), obs.labels.size());
  if (!lp.ok()) return lp.status();
  if (decision) GPPROBE_RETURN_IF_ERROR(lp.value().decision(queries, decision));
  if (probability) GPPROBE_RETURN_IF_ERROR(lp.value().probability(queries, probability));
  return Status::success();
}

Status lpe_scores(const StepObservations& obs, const MatrixView& queries, const ExperimentOptions& options,
                  std::uint64_t seed, const EnsembleScoreColumns& out) {
  Result<LinearProbeEnsemble> lpe =
      LinearProbeEnsemble::fit(MatrixView(obs.x), obs.labels.data(), obs.labels.size(), {options.members, seed, 1.0});
  if (!lpe.ok()) return lpe.status();
  return lpe.value().score(queries, out);
}

Status auroc_each(const std::vector<std::uint8_t>& labels, const std::vector<double>* scores, std::size_t methods,
                  double* values) {
  for (std::size_t m = 0; m < methods; ++m) {
    Result<double> area = auroc(labels.data(), scores[m].data(), labels.size());
    if (!area.ok()) return area.status();
    values[m] = area.value();
  }
  return Status::success();
}

Result<ExperimentResult> run_steps(ExperimentKind kind, const Protocol& protocol, const ExperimentOptions& options,
                                   const std::vector<std::string>& curves, const std::string& metric,
                                   const ExperimentStep& step, const ProgressCallback& progress, std::size_t parts) {
  ExperimentResult result;
  result.kind = kind;
  result.observation_counts = protocol.counts();
  result.schedule_limit = protocol.limit();
  result.first_trial = options.first_trial;
  result.trials = options.trials;
  const std::size_t points = result.observation_counts.size(), pieces = points * parts;
  const std::size_t total = options.trials * pieces;
  for (const std::string& method : curves) {
    result.curves.push_back({method, metric, std::vector<double>(options.trials * points), {}, {}});
  }
  // Pieces are independent (each fits its own models on its own observations): where the build has
  // threads they run at the same time, the trials in groups of as many as there are threads (each group's
  // draws held at once), the last part first, each part from the largest O down and the group's trials side
  // by side, so that the long pieces start first and pair up. Each writes its own values: the curves are the
  // same for any thread count.
  const std::size_t methods = curves.size(), group = std::max<std::size_t>(1, thread_count());
  for (std::size_t first = 0; first < options.trials; first += group) {
    const std::size_t count = std::min(group, options.trials - first);
    std::vector<TrialDraw> draws;
    for (std::size_t t = first; t < first + count; ++t) draws.push_back(protocol.draw(options.first_trial + t));
    std::vector<double> values(count * points * methods);
    GPPROBE_RETURN_IF_ERROR(parallel_tasks(
        count * pieces,
        [&](std::size_t task) {
          const std::size_t t = task % count, rank = task / count;  // rank: order within one trial
          const std::size_t part = parts - 1 - rank / points, j = points - 1 - rank % points;
          return step(draws[t], j, result.observation_counts[j], part, &values[(t * points + j) * methods]);
        },
        [&](std::size_t finished) -> Status {
          const std::size_t done = first * pieces + finished;
          if (report_progress(progress, done, total)) return Status::success();
          return Status(StatusCode::cancelled, std::string(experiment_name(kind)) + " experiment cancelled after " +
                                                   count_of(done, "step") + " of " + std::to_string(total));
        }));
    for (std::size_t t = 0; t < count; ++t)
      for (std::size_t j = 0; j < points; ++j)
        for (std::size_t c = 0; c < methods; ++c)
          result.curves[c].values[(first + t) * points + j] = values[(t * points + j) * methods + c];
  }
  for (ExperimentCurve& curve : result.curves) {
    curve.mean.resize(points);
    curve.sd.resize(points);
    summarise_trials(curve.values.data(), options.trials, points, curve.mean.data(), curve.sd.data());
  }
  return result;
}

}  // namespace gpprobe
