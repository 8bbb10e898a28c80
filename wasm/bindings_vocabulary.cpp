// Embind registration of the words and numbers the core owns and the TS side must not restate: the
// status codes, the anomaly status names, the defaults of every option, the named kernels with their
// parameters (the regression lab's fields come from here), the examples, and the build's backend.
// web/src/engine/vocabulary.ts reads them; its few tables that the page needs before any module is
// loaded (ERROR_CODES, ANOMALY_STATUSES, DEFAULTS) are tested against this binding.
#include <string>
#include <vector>

#include <emscripten/bind.h>

#include "gpprobe/baselines/baselines.h"
#include "gpprobe/evaluation/experiment.h"
#include "gpprobe/kernels/named_kernels.h"
#include "gpprobe/linalg/parallel_for.h"
#include "gpprobe/linalg/row_products.h"
#include "gpprobe/probe/probe.h"
#include "gpprobe/regression/anomaly_detection.h"
#include "gpprobe/regression/anomaly_experiment.h"
#include "gpprobe/regression/hyperparameter_fit.h"
#include "gpprobe/regression/regression_examples.h"

#include "binding_support.h"

namespace gpprobe::wasm {
namespace {

// The default of every option a face exposes, under the TS API's names.
struct Defaults {
  double epsilon, strength;
  std::string space;
  double expectedQueries;
  double trials, seed, maxObservations, maxQueries, members, k;
  bool gpc;
  double gpcMaxObservations;
  double restarts, maxIterations, noiseVariance, rho, theta;
  val rhos = val::null();  // number[]: the Fig. 3 experiment's ROC sweep
};

struct NamedKernelValue {
  std::string name, title;
  KernelValue kernel;  // at its starting values
};

struct ExampleEntryValue {
  std::string name, title;
};

struct Vocabulary : BindingStatus {
  std::string backend;
  bool fusedMultiplyAdd = false;      // row_products.h multiply_add_fuses(), measured at load
  int threads = 1;                    // parallel_for.h thread_count()
  val statusCodes = val::null();      // string[]
  val anomalyStatuses = val::null();  // string[], index = PointStatus
  Defaults defaults{};
  val kernels = val::null();   // NamedKernelValue[]
  std::string noiseParameter;  // the noise variance's name among parameter names
  val examples = val::null();  // ExampleEntryValue[]
};

// The threads of later scoring (parallel_for.h): stays 1 in the single-threaded module; 0 restores the
// default (every core, capped).
gpprobe::Status set_threads(int threads) {
  if (threads < 0) {
    return gpprobe::Status(gpprobe::StatusCode::invalid_argument,
                           "threads must be 0 (the default) or more, got " + std::to_string(threads));
  }
  gpprobe::set_thread_count(std::size_t(threads));
  return gpprobe::Status::success();
}

Vocabulary vocabulary() {
  Vocabulary v;
  v.backend = gpprobe::row_products_backend();
  v.fusedMultiplyAdd = gpprobe::multiply_add_fuses();
  v.threads = int(gpprobe::thread_count());
  std::vector<std::string> codes, statuses;
  for (gpprobe::StatusCode c : gpprobe::kStatusCodes) codes.push_back(gpprobe::code_name(c));
  for (gpprobe::PointStatus s :
       {gpprobe::PointStatus::normal, gpprobe::PointStatus::anomaly, gpprobe::PointStatus::unknown})
    statuses.push_back(gpprobe::status_name(s));
  v.statusCodes = array_of(codes);
  v.anomalyStatuses = array_of(statuses);

  const gpprobe::ProbeOptions probe;
  const gpprobe::ExperimentOptions experiment;
  const gpprobe::BaselineOptions baseline;
  const gpprobe::HyperparameterFitOptions fit;
  const gpprobe::AnomalyThresholds thresholds;
  v.defaults = {probe.epsilon,
                probe.strength,
                gpprobe::space_name(probe.space),
                double(probe.expected_queries),
                double(experiment.trials),
                double(experiment.seed),
                double(experiment.max_observations),
                double(experiment.max_queries),
                double(baseline.members),
                double(baseline.k),
                experiment.gpc.enabled,
                double(experiment.gpc.max_observations),
                double(fit.restarts),
                double(fit.max_iterations),
                gpprobe::kDefaultNoiseVariance,
                thresholds.rho,
                thresholds.theta,
                array_of(gpprobe::AnomalyExperimentOptions{}.rhos)};

  std::vector<NamedKernelValue> kernels;
  for (const gpprobe::NamedKernel& k : gpprobe::named_kernels())
    kernels.push_back({k.name, k.title, kernel_value(k.name, k.kernel)});
  v.kernels = array_of(kernels);
  v.noiseParameter = gpprobe::kNoiseVariance;
  std::vector<ExampleEntryValue> examples;
  for (const gpprobe::ExampleEntry& e : gpprobe::regression_examples()) examples.push_back({e.name, e.title});
  v.examples = array_of(examples);
  return v;
}

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_vocabulary) {
  using namespace gpprobe::wasm;
  emscripten::value_object<Defaults>("Defaults")
      .field("epsilon", &Defaults::epsilon)
      .field("strength", &Defaults::strength)
      .field("space", &Defaults::space)
      .field("expectedQueries", &Defaults::expectedQueries)
      .field("trials", &Defaults::trials)
      .field("seed", &Defaults::seed)
      .field("maxObservations", &Defaults::maxObservations)
      .field("maxQueries", &Defaults::maxQueries)
      .field("members", &Defaults::members)
      .field("k", &Defaults::k)
      .field("gpc", &Defaults::gpc)
      .field("gpcMaxObservations", &Defaults::gpcMaxObservations)
      .field("restarts", &Defaults::restarts)
      .field("maxIterations", &Defaults::maxIterations)
      .field("noiseVariance", &Defaults::noiseVariance)
      .field("rho", &Defaults::rho)
      .field("theta", &Defaults::theta)
      .field("rhos", &Defaults::rhos);
  emscripten::value_object<NamedKernelValue>("NamedKernelValue")
      .field("name", &NamedKernelValue::name)
      .field("title", &NamedKernelValue::title)
      .field("kernel", &NamedKernelValue::kernel);
  emscripten::value_object<ExampleEntryValue>("ExampleEntryValue")
      .field("name", &ExampleEntryValue::name)
      .field("title", &ExampleEntryValue::title);
  result_object<Vocabulary>("Vocabulary", [](auto& o) {
    o.field("backend", &Vocabulary::backend)
        .field("fusedMultiplyAdd", &Vocabulary::fusedMultiplyAdd)
        .field("threads", &Vocabulary::threads)
        .field("statusCodes", &Vocabulary::statusCodes)
        .field("anomalyStatuses", &Vocabulary::anomalyStatuses)
        .field("defaults", &Vocabulary::defaults)
        .field("kernels", &Vocabulary::kernels)
        .field("noiseParameter", &Vocabulary::noiseParameter)
        .field("examples", &Vocabulary::examples);
  });
  bind_function<&vocabulary>("vocabulary");
  bind_function<&set_threads>("setThreads");
}
