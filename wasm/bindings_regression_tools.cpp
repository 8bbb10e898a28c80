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

// Eight Float64Array columns of predictions (gp_regression.h PredictionColumns).
struct PredictionValue {
  val mean = val::null(), latentVariance = val::null(), observationVariance = val::null(), knowledge = val::null(),
      latentLower = val::null(), latentUpper = val::null(), observationLower = val::null(),
      observationUpper = val::null();
};

struct AnomalyExperimentValue : BindingStatus {
  val trainX = val::null(), trainY = val::null(), trainAnomaly = val::null();
  val testX = val::null(), testY = val::null(), testAnomaly = val::null();
  val mean = val::null(), latentVariance = val::null(), observationVariance = val::null(), knowledge = val::null(),
      score = val::null(), statuses = val::null();
  std::string kernel;  // the learned kernel, for reading (its model's predictions are `grid`)
  double noiseVariance = 0, logMarginalLikelihood = 0;
  val ungated = val::null();  // RocValue (GatedRoc)
  val gated = val::null();    // RocValue[], one per rho
  val gridX = val::null();    // Float64Array over the test range
  PredictionValue grid;
};

AnomalyExperimentValue anomaly_experiment(const AnomalySettings& s, val progress) {
  gpprobe::AnomalyExperimentOptions o;
  if (Status checked = seed_argument("seed", s.seed, &o.seed); !checked.ok())
    return failed<AnomalyExperimentValue>(checked);
  o.status_rho = s.statusRho;
  o.theta = s.theta;
  o.rhos = emscripten::convertJSArrayToNumberVector<double>(s.rhos);
  Result<gpprobe::AnomalyExperiment> run = gpprobe::run_anomaly_experiment(o, progress_from(progress));
  if (!run.ok()) return failed<AnomalyExperimentValue>(run.status());
  const gpprobe::AnomalyExperiment& e = run.value();
  AnomalyExperimentValue v;
  v.trainX = copy_out(e.train_x.data(), std::size_t(e.train_x.size()));
  v.trainY = copy_out(e.train_y);
  v.trainAnomaly = copy_out(e.train_anomaly);
  v.testX = copy_out(e.test_x.data(), std::size_t(e.test_x.size()));
  v.testY = copy_out(e.test_y);
  v.testAnomaly = copy_out(e.test_anomaly);
  v.mean = copy_out(e.mean);
  v.latentVariance = copy_out(e.latent_variance);
  v.observationVariance = copy_out(e.observation_variance);
  v.knowledge = copy_out(e.knowledge);
  v.score = copy_out(e.score);
  v.statuses = copy_out(reinterpret_cast<const std::uint8_t*>(e.status.data()), e.status.size());
  v.kernel = e.kernel.describe();
  v.noiseVariance = e.noise_variance;
  v.logMarginalLikelihood = e.log_marginal_likelihood;
  v.ungated = js_value(e.ungated);
  v.gated = js_value(e.gated);
  v.gridX = copy_out(e.grid_x);
  const gpprobe::Predictions& g = e.grid;
  v.grid = {copy_out(g.mean),
            copy_out(g.latent_variance),
            copy_out(g.observation_variance),
            copy_out(g.knowledge),
            copy_out(g.latent_lower),
            copy_out(g.latent_upper),
            copy_out(g.observation_lower),
            copy_out(g.observation_upper)};
  return v;
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
  emscripten::value_object<PredictionValue>("PredictionValue")
      .field("mean", &PredictionValue::mean)
      .field("latentVariance", &PredictionValue::latentVariance)
      .field("observationVariance", &PredictionValue::observationVariance)
      .field("knowledge", &PredictionValue::knowledge)
      .field("latentLower", &PredictionValue::latentLower)
      .field("latentUpper", &PredictionValue::latentUpper)
      .field("observationLower", &PredictionValue::observationLower)
      .field("observationUpper", &PredictionValue::observationUpper);
  result_object<AnomalyExperimentValue>("AnomalyExperimentValue", [](auto& o) {
    o.field("trainX", &AnomalyExperimentValue::trainX)
        .field("trainY", &AnomalyExperimentValue::trainY)
        .field("trainAnomaly", &AnomalyExperimentValue::trainAnomaly)
        .field("testX", &AnomalyExperimentValue::testX)
        .field("testY", &AnomalyExperimentValue::testY)
        .field("testAnomaly", &AnomalyExperimentValue::testAnomaly)
        .field("mean", &AnomalyExperimentValue::mean)
        .field("latentVariance", &AnomalyExperimentValue::latentVariance)
        .field("observationVariance", &AnomalyExperimentValue::observationVariance)
        .field("knowledge", &AnomalyExperimentValue::knowledge)
        .field("score", &AnomalyExperimentValue::score)
        .field("statuses", &AnomalyExperimentValue::statuses)
        .field("kernel", &AnomalyExperimentValue::kernel)
        .field("noiseVariance", &AnomalyExperimentValue::noiseVariance)
        .field("logMarginalLikelihood", &AnomalyExperimentValue::logMarginalLikelihood)
        .field("ungated", &AnomalyExperimentValue::ungated)
        .field("gated", &AnomalyExperimentValue::gated)
        .field("gridX", &AnomalyExperimentValue::gridX)
        .field("grid", &AnomalyExperimentValue::grid);
  });

  bind_function<&sample_prior>("samplePrior");
  bind_function<&classify_points>("classifyPoints");
  bind_function<&roc_sweep>("rocSweep");
  bind_function<&regression_example>("regressionExample");
  bind_function<&example_truth>("exampleTruth");
  bind_function<&anomaly_experiment>("anomalyExperiment");
}
