// The experiments of the GPP paper (Figs 4-7, appendix C), runnable on any labelled embeddings:
//
//   probing  AUROC on held-out queries of GPP's judged probability, LP's and SVM's decision values
//            and LPE's judged probability (Fig. 4)                          curves gpp, lp, svm, lpe
//            with options.gpc.enabled also GP classification (probit, isotropic RBF on the embeddings,
//            its signal variance and length-scale learned on each step's observations; Laplace and
//            EP, src/gpc_probe_scores.cpp), ranked by p(y = +1)      further curves gpc-laplace, gpc-ep
//            for O <= options.gpc.max_observations (their values are NaN at larger O: not run)
//   fuzzy    each positive observation's label is flipped to 0 with probability 1 - p, p in
//            {0.25, 0.5, 0.75, 1}; Pearson r between p and the judged probability over the originally
//            positive queries, pooled over the four p (Fig. 5 left); and, for trial 0, the clouds of
//            judged probability, episteme and alea of those queries for every (p, O) (Figs 5-6, 13-14)
//                                                                            curves gpp, lpe (pearson)
//   ood      AUROC for telling the held-out queries (positive) from the OOD embeddings (negative) by
//            GPP's -latent variance, MSP, Mahalanobis, kNN and LPE's -variance (Fig. 7)
//                                                                curves gpp, msp, maha, knn, lpe (auroc)
//
// Protocol, per trial t (all randomness from RandomStream(derive_seed(seed, {t})) and children, so a
// trial gives the same numbers whether run alone or with others):
//   1. Query candidates and observation pool: the rows with query_mask = 1 and = 0 when a mask is
//      given (e.g. "the network never trained on these"); otherwise each class is shuffled and its
//      first floor(n_c / 2) rows become query candidates, the rest the pool ("queries are sampled
//      disjointly from the observations", paper §4.2).
//   2. The pool's positives and negatives are shuffled. At most max_queries candidates are kept
//      (a shuffled prefix), and at most max_queries OOD rows. Where that prefix lacks a class the
//      experiment needs (probing: both, fuzzy: the positives) and the candidates hold it, the kept
//      queries are drawn stratified instead: the first candidates of each class in the same shuffled
//      order, round(max_queries * share of positives) positives (at least one of each needed class).
//      No candidate of a needed class, or max_queries < 2 for probing, is an invalid_argument before
//      any trial runs, saying which class is missing and why.
//   3. For each O in the schedule 2, 4, 8, ... (while O <= max_observations and O/2 <= the smaller
//      class of the pool; the same for every trial): the observations are the first O/2 shuffled pool
//      positives and the first O/2 negatives, so the sets grow nested and stay balanced (LP, SVM and
//      LPE need both classes). Every method is fitted on them and scores the same queries.
//   Fuzzy: the flips for (t, O, p) come from derive_seed(seed, {t, O, 2, p index}), each positive
//   label kept when uniform() < p. When no positive label is left (likely for small O and p), GPP is
//   fitted as usual, but an LP has no minimiser (its intercept diverges to -inf) and every member of
//   LPE judges the limit 0: LPE's judged probability is 0 there, and that (p, O) has no LPE cloud.
//   LPE resamples: derive_seed(seed, {t, O, 1}) (fuzzy: {t, O, 3, p index}).
//   kNN uses min(k, O) neighbours. GPP uses `probe` (the paper: epsilon 0.1, strength 5).
//
// Results hold every trial's value (trials by points) and the mean and sample standard deviation over
// trials (0 for one trial). Progress counts pieces of work: one per (trial, O) step, two with the GPC
// probes (GPP and the baselines; the GPC probes). Where the build has threads, a trial's pieces run at the
// same time (the GPC pieces first, each kind from the largest O down): the numbers do not depend on it.
//
//   embeddings  n by d;  labels n values in {0, 1};  ood m by d (m >= 1 for "ood");
//   query_mask  null or n values in {0, 1}
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpprobe/common/enum_names.h"
#include "gpprobe/common/fields.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/probe/probe.h"

namespace gpprobe {

enum class ExperimentKind { probing, fuzzy, ood };
inline constexpr EnumNames<ExperimentKind, 3> kExperimentKindNames = {
    {{ExperimentKind::probing, "probing"}, {ExperimentKind::fuzzy, "fuzzy"}, {ExperimentKind::ood, "ood"}}};

// "probing", "fuzzy", "ood".
inline const char* experiment_name(ExperimentKind kind) { return name_of(kExperimentKindNames, kind); }
// invalid_argument "experiment must be probing, fuzzy or ood, got 'x'".
inline Result<ExperimentKind> parse_experiment(const std::string& name) {
  return parse_name(kExperimentKindNames, name, "experiment");
}

struct ExperimentData {
  MatrixView embeddings;
  const std::uint8_t* labels = nullptr;
  std::size_t label_count = 0;
  MatrixView ood;                            // used by "ood"
  const std::uint8_t* query_mask = nullptr;  // n values, or null
  std::size_t query_mask_count = 0;
};

// GP classification probes of the probing experiment: the largest observation count they run at, and the
// L-BFGS iterations of each hyperparameter fit (Laplace from the data's scale, EP from Laplace's optimum;
// no restarts). Off by default, and up to O = 128 when on: their cost grows as O^3 (each EP evidence is
// 10-20 sweeps of about 4 O^3 flops), about 40 times the other probes' at O = 512 on the demo.
struct ClassifierProbeOptions {
  bool enabled = false;
  std::size_t max_observations = 128;
  std::size_t laplace_iterations = 50;
  std::size_t ep_iterations = 5;
};

struct ExperimentOptions {
  std::size_t first_trial = 0;  // trials first_trial .. first_trial + trials - 1
  std::size_t trials = 10;
  std::uint64_t seed = 0;
  std::size_t max_observations = 512;
  std::size_t max_queries = 1000;
  std::size_t members = 100;   // LPE
  std::size_t k = 1;           // kNN
  ProbeOptions probe;          // GPP
  ClassifierProbeOptions gpc;  // probing only
};

// One metric of one method at each observation count (NaN where the method did not run: GPC above its
// max_observations).
struct ExperimentCurve {
  std::string method;          // "gpp", "lp", "svm", "lpe", "msp", "maha", "knn", "gpc-laplace", "gpc-ep"
  std::string metric;          // "auroc", "pearson"
  std::vector<double> values;  // trials by points, row-major
  std::vector<double> mean, sd;
};
GPPROBE_DESCRIBE(ExperimentCurve, "CurveValue", GPPROBE_FIELD(method), GPPROBE_FIELD(metric), GPPROBE_FIELD(values),
                 GPPROBE_FIELD(mean), GPPROBE_FIELD(sd));

// Per-query measures of one method for one (p, O) of the fuzzy experiment's trial 0.
struct ExperimentCloud {
  std::string method;  // "gpp" or "lpe"
  double label_probability = 1.0;
  std::size_t observations = 0;
  std::vector<std::size_t> rows;                           // the embedding row of each positive query
  std::vector<double> judged_probability, episteme, alea;  // one per originally positive query
};
GPPROBE_DESCRIBE(ExperimentCloud, "CloudValue", GPPROBE_FIELD(method), GPPROBE_FIELD(label_probability),
                 GPPROBE_FIELD(observations), GPPROBE_INDICES(rows), GPPROBE_FIELD(judged_probability),
                 GPPROBE_FIELD(episteme), GPPROBE_FIELD(alea));

struct ExperimentResult {
  ExperimentKind kind = ExperimentKind::probing;
  std::vector<std::size_t> observation_counts;  // the points
  // Why the points stop short of max_observations, for people to read ("stopped at O = 16 (up to 512
  // asked): each trial keeps 10 of the 20 positive examples (label 1) for observations (the other 10
  // are held-out queries), and O = 32 needs 16 of each class"); empty when max_observations ended them.
  std::string schedule_limit;
  std::size_t first_trial = 0, trials = 0;
  std::vector<ExperimentCurve> curves;
  std::vector<ExperimentCloud> clouds;  // fuzzy, and only when trial 0 ran
};
// Shown as "experiment" (its name); first_trial is the accumulating caller's bookkeeping (append_trials).
inline std::string experiment_of(const ExperimentResult& r) { return experiment_name(r.kind); }
GPPROBE_DESCRIBE(ExperimentResult, "ExperimentValue", GPPROBE_COVERED(kind),
                 GPPROBE_COMPUTED("experiment", experiment_of), GPPROBE_FIELD(observation_counts),
                 GPPROBE_FIELD(schedule_limit), GPPROBE_COVERED(first_trial), GPPROBE_FIELD(trials),
                 GPPROBE_FIELD(curves), GPPROBE_FIELD(clouds));

Result<ExperimentResult> run_experiment(ExperimentKind kind, const ExperimentData& data,
                                        const ExperimentOptions& options = {}, const ProgressCallback& progress = {});

// mean and sample sd (n - 1; 0 when trials = 1) of each column of `values` (trials by points).
void summarise_trials(const double* values, std::size_t trials, std::size_t points, double* mean, double* sd);

// Adds the trials of `more` (the next ones: more.first_trial = into.first_trial + into.trials) to `into`
// and recomputes every curve's mean and sd, so a run split into calls of one trial each (the app yields
// between trials) ends with the result of one call. An empty `into` (trials = 0) takes `more` as it is.
// invalid_argument when the two are not parts of one run (experiment, points, curves, trial numbers).
Status append_trials(ExperimentResult* into, ExperimentResult more);

// The label probabilities p of the fuzzy experiment: 0.25, 0.5, 0.75, 1.
const std::vector<double>& fuzzy_label_probabilities();

}  // namespace gpprobe
