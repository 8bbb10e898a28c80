// The one fit sequence of a GP classifier, run the same way by every face (`gpprobe gpc`, the wasm
// handles, Python's GPClassifier): the options checked, the kernel checked against the inputs, the training
// data checked, the hyperparameters fitted when asked (type-II maximum likelihood, or MAP with a prior,
// hyperparameter_prior.h), then the model fitted at the chosen hyperparameters. A face only turns its own
// inputs (flags, JavaScript values, keyword arguments) into these settings and the result into its own.
//
// Binary (gp_classifier.h): Laplace or EP, probit or logistic, one SE-ARD kernel.
// Softmax (multiclass_laplace.h): one kernel per class from 1 or C signal variances and 1 or C
// length-scale lists; fitted at the optimum warm-started from the optimizer's Newton weights (the same
// mode in fewer steps).
//
// Progress and cancel: the hyperparameter fit's (L-BFGS iterations over all runs); false cancels with
// status `cancelled`. Without `optimize` the fit reports no progress.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/hyperparameter_fit.h"
#include "gpprobe/classification/hyperparameter_prior.h"
#include "gpprobe/classification/multiclass_hyperparameter_fit.h"
#include "gpprobe/classification/multiclass_laplace.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

// The two priors from their text ("none", "lognormal:MU,SIGMA", "student-t:MU,SIGMA,NU"), each refused
// by the name the face gives it (`signal_name`, `length_name`: "--signal-variance-prior",
// "signalVariancePrior", "signal_variance_prior"). A prior other than none without `optimize` is
// refused: "<name> only applies <optimize_words>" ("with --optimize", "with optimize=True").
Result<HyperparameterPrior> parse_hyperparameter_prior(const std::string& signal_text, const std::string& signal_name,
                                                       const std::string& length_text, const std::string& length_name,
                                                       bool optimize, const std::string& optimize_words);

// ---- binary ----

struct ClassifierFitSettings {
  ClassifierOptions model;                          // method, likelihood, Newton steps or EP sweeps
  SeArdKernel kernel;                               // the start: s2 and 1 or d length-scales
  bool optimize = false;                            // fit the hyperparameters first
  ClassifierHyperparameterOptions hyperparameters;  // restarts, seed, L-BFGS iterations, shared, bounds, prior
};

struct ClassifierFit {
  GpClassifier classifier;
  std::optional<ClassifierHyperparameterFit> optimum;  // with `optimize`
};

// x: n by d training inputs, labels: n values (0/1 or -1/+1, training_data.h). Errors: check_options',
// the kernel's check against d, the training data's (make_gpc_training_data), the prior's (only with
// `optimize`), then the hyperparameter fit's and the fit's.
Result<ClassifierFit> fit_classifier(const MatrixView& x, const double* labels, std::size_t n,
                                     const ClassifierFitSettings& settings, const ProgressCallback& progress = {});

// ---- softmax ----

struct MulticlassFitSettings {
  std::vector<double> signal_variances;            // 1 (every class) or C values
  std::vector<std::vector<double>> length_scales;  // 1 list (every class) or C lists, each 1 or d values
  std::size_t classes = 0;                         // C; 0: the largest label + 1
  std::size_t newton_iterations = 100;             // of the final fit (MulticlassOptions::max_iterations)
  bool optimize = false;
  MulticlassHyperparameterOptions hyperparameters;  // shared (tied), restarts, seed, iterations, bounds, prior
  // Newton's start of the final fit when not optimising (n by C; empty: cold). With `optimize` the
  // optimizer's weights are used instead.
  RowMatrix start_alpha;
  // The names the face gives the kernel lists in its messages ("signalVariances has 2 values for 3
  // classes: give 1 or 3").
  std::string signal_variances_name = "signalVariances", length_scales_name = "lengthScales";
};

struct MulticlassFit {
  MulticlassLaplace model;
  std::optional<MulticlassHyperparameterFit> optimum;  // with `optimize`
  RowMatrix warm_start;                                // the Newton start of `model` (empty: cold)
  std::vector<std::size_t> class_counts;               // C: training points per class (0 allowed)
};

// x: n by d, labels: n class indices. Errors: "signalVariances has 2 values for 3 classes: give 1 or 3",
// "lengthScales has 2 lists for 3 classes: give 1 (shared) or 3", "kernel of class 1: <the kernel's
// check>", the training data's (make_multiclass_training_data), the prior's, the optimizer's and the fit's;
// numerical_failure "the log marginal likelihood is not finite" / "the gradient of the log marginal
// likelihood is not finite" after the fit.
Result<MulticlassFit> fit_multiclass_classifier(const MatrixView& x, const double* labels, std::size_t n,
                                                const MulticlassFitSettings& settings,
                                                const ProgressCallback& progress = {});

}  // namespace gpprobe
