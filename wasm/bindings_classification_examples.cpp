// Embind registration of what the classification lab offers besides the classifier itself
// (bindings_classification.cpp): the bundled examples (classification_examples.h), the benchmark's seeded
// synthetic data (synthetic_classification.h) and the lab's vocabulary — methods, likelihoods, examples
// and the defaults of the model, the hyperparameter fit and the probing experiment's probes.
// Conventions of binding_support.h; no mathematics.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <emscripten/bind.h>

#include "gpprobe/classification/classification_examples.h"
#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/hyperparameter_fit.h"
#include "gpprobe/classification/synthetic_classification.h"
#include "gpprobe/evaluation/experiment.h"

#include "binding_support.h"

namespace gpprobe::wasm {
namespace {

struct ClassificationExampleValue : BindingStatus {
  std::string name, title;
  val inputNames = val::null();  // string[]
  val x = val::null();           // Float64Array, n by d row-major
  val labels = val::null();      // Float64Array, 0/1
  double rows = 0, cols = 0;
};

ClassificationExampleValue classification_example_value(const std::string& name, double seed) {
  std::uint64_t s = 0;
  if (Status checked = seed_argument("seed", seed, &s); !checked.ok())
    return failed<ClassificationExampleValue>(checked);
  Result<ClassificationExample> e = classification_example(name, s);
  if (!e.ok()) return failed<ClassificationExampleValue>(e.status());
  const ClassificationExample& v = e.value();
  ClassificationExampleValue r;
  r.name = v.name;
  r.title = v.title;
  r.inputNames = array_of(v.input_names);
  r.x = copy_out(v.x.data(), std::size_t(v.x.size()));
  r.labels = copy_out(v.labels);
  r.rows = double(v.x.rows());
  r.cols = double(v.x.cols());
  return r;
}

// Seeded synthetic classification data (synthetic_classification.h, the benchmark's workload): x as
// float64 rows * dimension at `x`, labels 0/1 as float64 at `labels`.
Status synthetic_classification_data(double rows, double dimension, double seed, std::uintptr_t x,
                                     std::uintptr_t labels) {
  std::size_t n = 0, d = 0;
  std::uint64_t s = 0;
  GPPROBE_RETURN_IF_ERROR(count_argument("rows", rows, &n));
  GPPROBE_RETURN_IF_ERROR(count_argument("dimension", dimension, &d));
  GPPROBE_RETURN_IF_ERROR(seed_argument("seed", seed, &s));
  if (n < 1 || d < 1) {
    return Status(StatusCode::invalid_argument, "synthetic classification data need rows >= 1 and dimension >= 1");
  }
  const SyntheticClassification data = synthetic_classification(n, d, s);
  std::copy(data.x.data(), data.x.data() + data.x.size(), doubles_out(x));
  std::copy(data.labels.begin(), data.labels.end(), doubles_out(labels));
  return Status::success();
}

struct ClassificationDefaults {
  std::string method, likelihood;
  double signalVariance = 0, lengthScale = 0, restarts = 0, seed = 0, maxIterations = 0;
  // The probing experiment's GP classification probes (experiment.h ClassifierProbeOptions).
  double probeLaplaceIterations = 0, probeEpIterations = 0;
};

struct ClassificationVocabulary : BindingStatus {
  val methods = val::null(), likelihoods = val::null();  // string[]
  val examples = val::null();                            // ExampleEntryValue[] (bindings_vocabulary.cpp)
  ClassificationDefaults defaults;
};

ClassificationVocabulary classification_vocabulary() {
  ClassificationVocabulary v;
  v.methods =
      array_of(std::vector<std::string>{method_name(ClassifierMethod::laplace), method_name(ClassifierMethod::ep)});
  v.likelihoods = array_of(std::vector<std::string>{likelihood_name(ClassifierLikelihood::probit),
                                                    likelihood_name(ClassifierLikelihood::logistic)});
  val examples = val::array();
  for (const ExampleEntry& e : classification_examples()) {
    val entry = val::object();
    entry.set("name", e.name);
    entry.set("title", e.title);
    examples.call<void>("push", entry);
  }
  v.examples = examples;
  const ClassifierOptions model;
  const SeArdKernel kernel;  // s2 = 1; every length-scale 1 (the CLI's defaults)
  const ClassifierHyperparameterOptions fit;
  const ClassifierProbeOptions probe;
  v.defaults = {method_name(model.method),  likelihood_name(model.likelihood),
                kernel.signal_variance,     1.0,
                double(fit.restarts),       double(fit.seed),
                double(fit.max_iterations), double(probe.laplace_iterations),
                double(probe.ep_iterations)};
  return v;
}

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_classification_examples) {
  using namespace gpprobe::wasm;
  result_object<ClassificationExampleValue>("ClassificationExampleValue", [](auto& o) {
    o.field("name", &ClassificationExampleValue::name)
        .field("title", &ClassificationExampleValue::title)
        .field("inputNames", &ClassificationExampleValue::inputNames)
        .field("x", &ClassificationExampleValue::x)
        .field("labels", &ClassificationExampleValue::labels)
        .field("rows", &ClassificationExampleValue::rows)
        .field("cols", &ClassificationExampleValue::cols);
  });
  emscripten::value_object<ClassificationDefaults>("ClassificationDefaults")
      .field("method", &ClassificationDefaults::method)
      .field("likelihood", &ClassificationDefaults::likelihood)
      .field("signalVariance", &ClassificationDefaults::signalVariance)
      .field("lengthScale", &ClassificationDefaults::lengthScale)
      .field("restarts", &ClassificationDefaults::restarts)
      .field("seed", &ClassificationDefaults::seed)
      .field("maxIterations", &ClassificationDefaults::maxIterations)
      .field("probeLaplaceIterations", &ClassificationDefaults::probeLaplaceIterations)
      .field("probeEpIterations", &ClassificationDefaults::probeEpIterations);
  result_object<ClassificationVocabulary>("ClassificationVocabulary", [](auto& o) {
    o.field("methods", &ClassificationVocabulary::methods)
        .field("likelihoods", &ClassificationVocabulary::likelihoods)
        .field("examples", &ClassificationVocabulary::examples)
        .field("defaults", &ClassificationVocabulary::defaults);
  });

  bind_function<&classification_example_value>("classificationExample");
  bind_function<&synthetic_classification_data>("syntheticClassification");
  bind_function<&classification_vocabulary>("classificationVocabulary");
}
