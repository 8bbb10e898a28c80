// The baselines of the GPP paper behind one call, for the CLI, the wasm face and the experiments.
// Each is fitted on labelled observations and scores queries; `score` is what the method ranks by:
//
//   method  score                                   other columns
//   lp      decision w'q + b (log-odds)             probability sigmoid(w'q + b)        linear_probe.h
//   svm     decision w'q + b                        -                                   linear_svm.h
//   lpe     ood_score = -variance of the members'   probability (ensemble mean),        linear_probe_ensemble.h
//           probabilities                           episteme, alea
//   msp     max(p, 1 - p) of the LP                 probability p                        (Hendrycks & Gimpel 2016)
//   maha    -min_c squared Mahalanobis distance     -                                   mahalanobis.h
//   knn     -distance to the k-th nearest           -                                   nearest_neighbours.h
//           normalised observation
//
//   observations  O by d;  labels O values in {0, 1};  queries n by d  ->  columns of n values
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpprobe/common/enum_names.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

enum class BaselineMethod { lp, svm, lpe, msp, maha, knn };
inline constexpr EnumNames<BaselineMethod, 6> kBaselineMethodNames = {{{BaselineMethod::lp, "lp"},
                                                                       {BaselineMethod::svm, "svm"},
                                                                       {BaselineMethod::lpe, "lpe"},
                                                                       {BaselineMethod::msp, "msp"},
                                                                       {BaselineMethod::maha, "maha"},
                                                                       {BaselineMethod::knn, "knn"}}};

// "lp", "svm", ...
inline const char* baseline_name(BaselineMethod method) { return name_of(kBaselineMethodNames, method); }
// invalid_argument "method must be lp, svm, lpe, msp, maha or knn, got 'x'".
inline Result<BaselineMethod> parse_baseline(const std::string& name) {
  return parse_name(kBaselineMethodNames, name, "method");
}
// The columns run_baseline fills, in order: "score" first, then "probability", "episteme", "alea".
std::vector<std::string> baseline_columns(BaselineMethod method);

struct BaselineOptions {
  double C = 1.0;             // lp, svm, lpe, msp
  std::size_t members = 100;  // lpe
  std::uint64_t seed = 0;     // lpe resamples
  std::size_t k = 1;          // knn
};

// Columns the method does not have are left empty.
struct BaselineScores {
  std::vector<double> score, probability, episteme, alea;
};

// Progress: lpe reports after each member; the others are one unit of work.
Result<BaselineScores> run_baseline(BaselineMethod method, const MatrixView& observations, const std::uint8_t* labels,
                                    std::size_t count, const MatrixView& queries, const BaselineOptions& options = {},
                                    const ProgressCallback& progress = {});

}  // namespace gpprobe
