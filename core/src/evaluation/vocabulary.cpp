#include "gpprobe/evaluation/vocabulary.h"

#include "gpprobe/baselines/baselines.h"
#include "gpprobe/classification/classification_examples.h"
#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/hyperparameter_fit.h"
#include "gpprobe/common/enum_names.h"
#include "gpprobe/evaluation/experiment.h"
#include "gpprobe/linalg/parallel_for.h"
#include "gpprobe/linalg/row_products.h"
#include "gpprobe/probe/probe.h"
#include "gpprobe/regression/anomaly_detection.h"
#include "gpprobe/regression/anomaly_experiment.h"
#include "gpprobe/regression/hyperparameter_fit.h"

namespace gpprobe {

Vocabulary vocabulary() {
  Vocabulary v;
  v.backend = row_products_backend();
  v.fused_multiply_add = multiply_add_fuses();
  v.threads = thread_count();
  for (StatusCode c : kStatusCodes) v.status_codes.push_back(code_name(c));
  for (PointStatus s : {PointStatus::normal, PointStatus::anomaly, PointStatus::unknown})
    v.anomaly_statuses.push_back(status_name(s));

  const ProbeOptions probe;
  const ExperimentOptions experiment;
  const BaselineOptions baseline;
  const HyperparameterFitOptions fit;
  const AnomalyThresholds thresholds;
  OptionDefaults& d = v.defaults;
  d.epsilon = probe.epsilon;
  d.strength = probe.strength;
  d.space = space_name(probe.space);
  d.expected_queries = probe.expected_queries;
  d.trials = experiment.trials;
  d.seed = experiment.seed;
  d.max_observations = experiment.max_observations;
  d.max_queries = experiment.max_queries;
  d.members = baseline.members;
  d.k = baseline.k;
  d.gpc = experiment.gpc.enabled;
  d.gpc_max_observations = experiment.gpc.max_observations;
  d.restarts = fit.restarts;
  d.max_iterations = fit.max_iterations;
  d.noise_variance = kDefaultNoiseVariance;
  d.rho = thresholds.rho;
  d.theta = thresholds.theta;
  d.rhos = AnomalyExperimentOptions{}.rhos;

  v.kernels = named_kernels();
  v.noise_parameter = kNoiseVariance;
  v.examples = regression_examples();
  return v;
}

ClassificationVocabulary classification_vocabulary() {
  ClassificationVocabulary v;
  v.methods = {method_name(ClassifierMethod::laplace), method_name(ClassifierMethod::ep)};
  v.likelihoods = {likelihood_name(ClassifierLikelihood::probit), likelihood_name(ClassifierLikelihood::logistic)};
  v.examples = classification_examples();
  const ClassifierOptions model;
  const SeArdKernel kernel;  // s2 = 1; every length-scale 1 (the CLI's defaults)
  const ClassifierHyperparameterOptions fit;
  const ClassifierProbeOptions probe;
  v.defaults = {
      method_name(model.method), likelihood_name(model.likelihood), kernel.signal_variance, 1.0, fit.restarts, fit.seed,
      fit.max_iterations,        probe.laplace_iterations,          probe.ep_iterations};
  return v;
}

}  // namespace gpprobe
