// Embind registration of the regression lab's free functions: prior samples, anomaly statuses, the
// knowledge-gated ROC sweep, the bundled examples (with the model each is meant for) and the paper's
// Fig. 3 experiment (with its model's predictions on a grid). Conventions of binding_support.h.
#include <cstdint>
#include <string>
#include <vector>

#include <emscripten/bind.h>

#include "gpprobe/regression/anomaly_detection.h"
#include "gpprobe/regression/anomaly_experiment.h"
#include "gpprobe/regression/gated_roc.h"
#include "gpprobe/regression/gp_regression.h"
#include "gpprobe/regression/regression_examples.h"

#include "binding_support.h"
#include "described_values.h"

namespace gpprobe::wasm {
namespace {

Status sample_prior(const KernelValue& kernel, double mean, std::uintptr_t test, std::size_t rows, std::size_t cols,
                    double count, double seed, std::uintptr_t out) {
  Result<Kernel> k = kernel_of(kernel);
  if (!k.ok()) return k.status();
  std::size_t n = 0;
  std::uint64_t draw = 0;
  GPPROBE_RETURN_IF_ERROR(count_argument("count", count, &n));
  GPPROBE_RETURN_IF_ERROR(seed_argument("seed", seed, &draw));
  Result<gpprobe::PosteriorSamples> s =
      gpprobe::sample_prior(k.value(), mean, MatrixView(doubles(test), rows, cols), n, draw);
  if (!s.ok()) return s.status();
  std::copy(s.value().values.data(), s.value().values.data() + s.value().values.size(), doubles_out(out));
  return Status::success();
}

// n statuses (index into the vocabulary's anomalyStatuses) at `out` and n anomaly scores at `scores`.
Status classify_points(std::uintptr_t y, std::uintptr_t mean, std::uintptr_t observation_variance,
                       std::uintptr_t knowledge, std::size_t n, double rho, double theta, std::uintptr_t out,
                       std::uintptr_t scores) {
  GPPROBE_RETURN_IF_ERROR(gpprobe::classify_points(doubles(y), doubles(mean), doubles(observation_variance),
                                                   doubles(knowledge), n, {rho, theta},
                                                   reinterpret_cast<gpprobe::PointStatus*>(out)));
  gpprobe::anomaly_scores(doubles(y), doubles(mean), doubles(observation_variance), n, doubles_out(scores));
  return Status::success();
}

// One ROC curve per rho over the points with knowledge >= rho; knowledge 0 means ungated (rho ignored).
Reply<GatedRocSweep> roc_sweep(std::uintptr_t scores, std::uintptr_t is_positive, std::uintptr_t knowledge,
                               std::size_t n, std::uintptr_t rhos, std::size_t rho_count) {
  return reply(GatedRocSweep{gpprobe::gated_roc_sweep(doubles(scores), bytes(is_positive),
                                                      knowledge ? doubles(knowledge) : nullptr, n,
                                                      std::vector<double>(doubles(rhos), doubles(rhos) + rho_count))});
}

Reply<RegressionExample> regression_example(const std::string& name, double seed) {
  using Value = Reply<RegressionExample>;
  std::uint64_t s = 0;
  if (Status checked = seed_argument("seed", seed, &s); !checked.ok()) return failed<Value>(checked);
  Result<gpprobe::RegressionExample> e = gpprobe::regression_example(name, s);
  if (!e.ok()) return failed<Value>(e.status());
  return reply(std::move(e).value());
}

// The noise-free function of example `name` at n points.
Status example_truth(const std::string& name, std::uintptr_t x, std::size_t n, std::uintptr_t out) {
  return gpprobe::example_truth(name, doubles(x), n, doubles_out(out));
}

struct AnomalySettings {
  double seed = 0, statusRho = 0, theta = 0;
  val rhos = val::array();  // Float64Array or number[]: the ROC sweep
};

Reply<AnomalyExperiment> anomaly_experiment(const AnomalySettings& s, val progress) {
  using Value = Reply<AnomalyExperiment>;
  gpprobe::AnomalyExperimentOptions o;
  if (Status checked = seed_argument("seed", s.seed, &o.seed); !checked.ok()) return failed<Value>(checked);
  o.status_rho = s.statusRho;
  o.theta = s.theta;
  o.rhos = emscripten::convertJSArrayToNumberVector<double>(s.rhos);
  Result<gpprobe::AnomalyExperiment> run = gpprobe::run_anomaly_experiment(o, progress_from(progress));
  if (!run.ok()) return failed<Value>(run.status());
  return reply(std::move(run).value());
}

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_regression_tools) {
  using namespace gpprobe::wasm;
  reply_object<gpprobe::GatedRocSweep>();
  reply_object<gpprobe::RegressionExample>();
  emscripten::value_object<AnomalySettings>("AnomalySettings")
      .field("seed", &AnomalySettings::seed)
      .field("statusRho", &AnomalySettings::statusRho)
      .field("theta", &AnomalySettings::theta)
      .field("rhos", &AnomalySettings::rhos);
  reply_object<gpprobe::AnomalyExperiment>();

  bind_function<&sample_prior>("samplePrior");
  bind_function<&classify_points>("classifyPoints");
  bind_function<&roc_sweep>("rocSweep");
  bind_function<&regression_example>("regressionExample");
  bind_function<&example_truth>("exampleTruth");
  bind_function<&anomaly_experiment>("anomalyExperiment");
}
