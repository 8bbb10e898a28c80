// The flags that choose and fit a binary GP classifier, shared by `gpprobe gpc` and `gpprobe robustness`:
//
//   --train FILE [--method laplace|ep] [--likelihood probit|logistic] [--signal-variance S]
//   [--length-scales L1,...] [--optimize [--restarts R] [--seed N] [--shared-length-scale]
//    [--signal-variance-prior P] [--length-scale-prior P]]
//
// A prior P (hyperparameter_prior.h: none, lognormal:MU,SIGMA or student-t:MU,SIGMA,NU, on the log of the
// parameter) makes the fit MAP (`gpprobe help gpc` explains them).
//
// The training file holds the feature columns, then one label column (0/1 or -1/+1). Defaults:
// laplace, probit, S = 1, L = 1 for every column. Bad values are usage errors naming the flag.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpprobe/classification/classifier_fit.h"
#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/hyperparameter_fit.h"
#include "gpprobe/common/matrix_view.h"

#include "arguments.h"

namespace gpprobe::cli {

// --signal-variance-prior and --length-scale-prior (default none); invalid_argument naming the flag, and
// "--length-scale-prior only applies with --optimize" when `optimize` is false.
gpprobe::Result<gpprobe::HyperparameterPrior> parse_prior_flags(const Arguments& args, bool optimize);

// The fit's prior as JSON fields without braces: "signal_variance_prior":"lognormal:0,1",
// "length_scale_prior":"none","log_prior":.. (log_prior at the fitted hyperparameters).
std::string prior_fields(const gpprobe::HyperparameterPrior& prior, double log_prior);

// The names to declare to Arguments::parse, valued and switches.
const std::set<std::string>& gpc_model_flags();
const std::set<std::string>& gpc_model_switches();

struct ClassifierModelFlags {
  std::string train_path;
  ClassifierOptions options;
  SeArdKernel kernel;  // as given: 1 or d length-scales
  bool optimize = false;
  ClassifierHyperparameterOptions fit_options;
};

// The flags' values (nothing is read yet).
gpprobe::Result<ClassifierModelFlags> parse_gpc_model_flags(const Arguments& args);

// The number of feature columns of the training matrix: dimension_mismatch "<train>: has 1 column;
// expected feature columns then one label column".
gpprobe::Result<std::size_t> feature_columns(const ClassifierModelFlags& flags, const gpprobe::MatrixView& train);

struct ClassifierModel {
  gpprobe::GpClassifier gpc;
  std::optional<gpprobe::ClassifierHyperparameterFit> fit;  // when --optimize chose the hyperparameters
};

// Fits the classifier to the training matrix (optimising the hyperparameters first with --optimize).
// Core errors get the file they concern in front (`files`: message prefix and path pairs; the training
// file is added).
gpprobe::Result<ClassifierModel> fit_gpc_model(const ClassifierModelFlags& flags, const gpprobe::MatrixView& train,
                                               std::vector<std::pair<std::string, std::string>> files = {});

// The model as JSON fields without braces: "method":"laplace","likelihood":"probit","signal_variance":..,
// "length_scales":[..],"log_marginal_likelihood":..,"log_marginal_likelihood_gradient":[..],
// "iterations":..,"converged":..,"training_points":..,"optimized":.. (and with --optimize "restarts",
// "seed","optimizer_iterations","optimizer_converged","start_log_marginal_likelihood").
std::string gpc_model_fields(const ClassifierModel& model, const ClassifierModelFlags& flags);

// "[1,2.5]" with 17 significant digits.
std::string json_array(const std::vector<double>& values);

}  // namespace gpprobe::cli
