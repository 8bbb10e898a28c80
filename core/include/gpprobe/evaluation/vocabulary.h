// The words and numbers the core owns and the other faces must not restate: the status codes, the anomaly
// status names, the default of every option a face exposes, the named kernels with their parameters, the
// regression examples, and the build's backend. The wasm module returns it as it stands (vocabulary());
// web/src/engine/vocabulary.ts restates the few tables the page needs before a module is loaded, tested
// against it. It sits in evaluation, the domain above every one it reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpprobe/common/fields.h"
#include "gpprobe/kernels/kernel_parameters.h"
#include "gpprobe/kernels/named_kernels.h"
#include "gpprobe/regression/regression_examples.h"

namespace gpprobe {

// The default of every option a face exposes, under the names the faces use.
struct OptionDefaults {
  double epsilon = 0.0, strength = 0.0;  // ProbeOptions
  std::string space;                     // ProbeOptions::space, by name
  std::size_t expected_queries = 0;      // ProbeOptions
  std::size_t trials = 0;                // ExperimentOptions
  std::uint64_t seed = 0;
  std::size_t max_observations = 0, max_queries = 0;
  std::size_t members = 0, k = 0;  // BaselineOptions
  bool gpc = false;                // ExperimentOptions::gpc.enabled
  std::size_t gpc_max_observations = 0;
  std::size_t restarts = 0, max_iterations = 0;  // HyperparameterFitOptions
  double noise_variance = 0.0;                   // kDefaultNoiseVariance
  double rho = 0.0, theta = 0.0;                 // AnomalyThresholds
  std::vector<double> rhos;                      // AnomalyExperimentOptions: the Fig. 3 experiment's ROC sweep
};
GPPROBE_DESCRIBE(OptionDefaults, "Defaults", GPPROBE_FIELD(epsilon), GPPROBE_FIELD(strength), GPPROBE_FIELD(space),
                 GPPROBE_FIELD(expected_queries), GPPROBE_FIELD(trials), GPPROBE_FIELD(seed),
                 GPPROBE_FIELD(max_observations), GPPROBE_FIELD(max_queries), GPPROBE_FIELD(members), GPPROBE_FIELD(k),
                 GPPROBE_FIELD(gpc), GPPROBE_FIELD(gpc_max_observations), GPPROBE_FIELD(restarts),
                 GPPROBE_FIELD(max_iterations), GPPROBE_FIELD(noise_variance), GPPROBE_FIELD(rho), GPPROBE_FIELD(theta),
                 GPPROBE_LIST(rhos));

// A named kernel (named_kernels.h) is shown with its kernel at its starting values.
GPPROBE_DESCRIBE(NamedKernel, "NamedKernelValue", GPPROBE_FIELD(name), GPPROBE_FIELD(title), GPPROBE_COVERED(kernel),
                 GPPROBE_COMPUTED("kernel", [](const NamedKernel& k) { return kernel_values(k.name, k.kernel); }));
GPPROBE_DESCRIBE(ExampleEntry, "ExampleEntryValue", GPPROBE_FIELD(name), GPPROBE_FIELD(title));

struct Vocabulary {
  std::string backend;                        // row_products.h row_products_backend()
  bool fused_multiply_add = false;            // row_products.h multiply_add_fuses(), measured at call
  std::size_t threads = 1;                    // parallel_for.h thread_count()
  std::vector<std::string> status_codes;      // every StatusCode's name, in kStatusCodes order
  std::vector<std::string> anomaly_statuses;  // index = PointStatus
  OptionDefaults defaults;
  std::vector<NamedKernel> kernels;  // in menu order
  std::string noise_parameter;       // the noise variance's name among parameter names (kNoiseVariance)
  std::vector<ExampleEntry> examples;
};
GPPROBE_DESCRIBE(Vocabulary, "Vocabulary", GPPROBE_FIELD(backend), GPPROBE_FIELD(fused_multiply_add),
                 GPPROBE_FIELD(threads), GPPROBE_FIELD(status_codes), GPPROBE_FIELD(anomaly_statuses),
                 GPPROBE_FIELD(defaults), GPPROBE_FIELD(kernels), GPPROBE_FIELD(noise_parameter),
                 GPPROBE_FIELD(examples));

// The vocabulary of this build, now (threads and backend as set at the call).
Vocabulary vocabulary();

// GP classification's defaults (gp_classifier.h ClassifierOptions, the SE-ARD kernel's starting values,
// hyperparameter_fit.h ClassifierHyperparameterOptions, experiment.h ClassifierProbeOptions).
struct ClassificationDefaults {
  std::string method, likelihood;  // by name
  double signal_variance = 0.0, length_scale = 0.0;
  std::size_t restarts = 0;
  std::uint64_t seed = 0;
  std::size_t max_iterations = 0;
  // The probing experiment's GP classification probes.
  std::size_t probe_laplace_iterations = 0, probe_ep_iterations = 0;
};
GPPROBE_DESCRIBE(ClassificationDefaults, "ClassificationDefaults", GPPROBE_FIELD(method), GPPROBE_FIELD(likelihood),
                 GPPROBE_FIELD(signal_variance), GPPROBE_FIELD(length_scale), GPPROBE_FIELD(restarts),
                 GPPROBE_FIELD(seed), GPPROBE_FIELD(max_iterations), GPPROBE_FIELD(probe_laplace_iterations),
                 GPPROBE_FIELD(probe_ep_iterations));

// The classification lab's words: its methods, likelihoods and examples (classification_examples.h), and
// its defaults.
struct ClassificationVocabulary {
  std::vector<std::string> methods, likelihoods;
  std::vector<ExampleEntry> examples;
  ClassificationDefaults defaults;
};
GPPROBE_DESCRIBE(ClassificationVocabulary, "ClassificationVocabulary", GPPROBE_FIELD(methods),
                 GPPROBE_FIELD(likelihoods), GPPROBE_FIELD(examples), GPPROBE_FIELD(defaults));

ClassificationVocabulary classification_vocabulary();

}  // namespace gpprobe
