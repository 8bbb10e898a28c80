// The flags that choose and fit a multi-class (softmax) GP classifier, shared by `gpprobe gpc
// --likelihood softmax` and `gpprobe robustness --likelihood softmax`:
//
//   --train FILE --likelihood softmax [--method laplace] [--signal-variance S | S0,...,S(C-1)]
//   [--length-scales L1,...,Ld | --length-scales-per-class "L...;L...;..."]
//   [--optimize [--restarts R] [--seed N]]
//
// The training file holds the feature columns, then one label column of class indices 0..C-1; C is the
// largest label + 1 (a class below it without an example is allowed: its latent GP stays near its prior,
// so its probability is small everywhere). One value of --signal-variance or one length-scale list is
// shared by every class; C values (or C lists separated by ';') give each class its own. With
// --optimize the hyperparameters are tied (one kernel for all classes) when both are given once and
// learned per class otherwise. Defaults: S = 1, L = 1 for every column, shared.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpprobe/classification/classifier_fit.h"
#include "gpprobe/classification/multiclass_hyperparameter_fit.h"
#include "gpprobe/classification/multiclass_laplace.h"
#include "gpprobe/common/matrix_view.h"

#include "arguments.h"

namespace gpprobe::cli {

// True when the raw flags hold `--likelihood softmax` (the commands then take the multi-class path).
bool wants_softmax(const std::vector<std::string>& raw);

// The names to declare to Arguments::parse, valued and switches.
const std::set<std::string>& multiclass_model_flags();
const std::set<std::string>& multiclass_model_switches();

struct MulticlassModelFlags {
  std::string train_path;
  std::vector<double> signal_variances;            // 1 or C values
  std::vector<std::vector<double>> length_scales;  // 1 list (--length-scales) or C lists (per class)
  bool per_class_length_scales = false;
  bool optimize = false;
  MulticlassHyperparameterOptions fit_options;
};

// The flags' values (nothing is read yet).
gpprobe::Result<MulticlassModelFlags> parse_multiclass_model_flags(const Arguments& args);

struct MulticlassModel {
  gpprobe::MulticlassLaplace model;
  std::optional<gpprobe::MulticlassHyperparameterFit> fit;  // when --optimize chose the hyperparameters
  std::vector<std::size_t> class_counts;                    // C: training points per class (0 allowed)
};

// Reads the labels (C = largest + 1), checks the per-class flags against C and d, optimises with
// --optimize and fits. Core errors get the files they concern in front (`files`: prefix and path pairs;
// the training file is added).
gpprobe::Result<MulticlassModel> fit_multiclass_model(const MulticlassModelFlags& flags,
                                                      const gpprobe::MatrixView& train,
                                                      std::vector<std::pair<std::string, std::string>> files = {});

// The model as JSON fields without braces: "method":"laplace","likelihood":"softmax","classes":C,
// "shared_kernel":..,"signal_variances":[C],"length_scales":[[d] x C],"log_marginal_likelihood":..,
// "log_marginal_likelihood_gradient":[[1+d] x C],"iterations":..,"converged":..,"training_points":..,
// "class_counts":[C],"optimized":.. (with --optimize also "restarts","seed","optimizer_iterations",
// "optimizer_converged","start_log_marginal_likelihood").
std::string multiclass_model_fields(const MulticlassModel& model, const MulticlassModelFlags& flags);

}  // namespace gpprobe::cli
