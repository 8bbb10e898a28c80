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

struct RocValue {
  double rho = 0, points = 0, positives = 0, negatives = 0;
  bool defined = false;
  double auc = 0;
  val falsePositiveRate = val::null(), truePositiveRate = val::null();  // Float64Array
};

RocValue roc_value(const gpprobe::GatedRoc& c) {
  return {c.rho,
          double(c.points),
          double(c.positives),
          double(c.negatives),
          c.defined,
          c.auc,
          copy_out(c.false_positive_rate),
          copy_out(c.true_positive_rate)};
}

std::vector<RocValue> roc_values(const std::vector<gpprobe::GatedRoc>& curves) {
  std::vector<RocValue> out;
  for (const gpprobe::GatedRoc& c : curves) out.push_back(roc_value(c));
  return out;
}

struct RocSweep : BindingStatus {
  val curves = val::null();  // RocValue[]
};

// One ROC curve per rho over the points with knowledge >= rho; knowledge 0 means ungated (rho ignored).
RocSweep roc_sweep(std::uintptr_t scores, std::uintptr_t is_positive, std::uintptr_t knowledge, std::size_t n,
                   std::uintptr_t rhos, std::size_t rho_count) {
  RocSweep r;
  r.curves = array_of(
      roc_values(gpprobe::gated_roc_sweep(doubles(scores), bytes(is_positive), knowledge ? doubles(knowledge) : nullptr,
                                          n, std::vector<double>(doubles(rhos), doubles(rhos) + rho_count))));
  return r;
}

struct ExampleValue : BindingStatus {
  std::string name, title, inputName;
  val x = val::null(), y = val::null(), heldOutX = val::null(), heldOutY = val::null();  // Float64Array
  double lower = 0, upper = 0, noiseSd = 0;
  KernelValue kernel;        // the model the example is meant for ...
  val held = val::null();    // ... the parameters held while fitting (string[]) ...
  double noiseVariance = 0;  // ... and where the noise starts
};

ExampleValue regression_example(const std::string& name, double seed) {
  std::uint64_t s = 0;
  if (Status checked = seed_argument("seed", seed, &s); !checked.ok()) return failed<ExampleValue>(checked);
  Result<gpprobe::RegressionExample> e = gpprobe::regression_example(name, s);
  if (!e.ok()) return failed<ExampleValue>(e.status());
  const gpprobe::RegressionExample& v = e.value();
  ExampleValue r;
  r.name = v.name;
  r.title = v.title;
  r.inputName = v.input_name;
  r.x = copy_out(v.x.data(), std::size_t(v.x.size()));
  r.y = copy_out(v.y);
  r.heldOutX = copy_out(v.held_out_x.data(), std::size_t(v.held_out_x.size()));
  r.heldOutY = copy_out(v.held_out_y);
  r.lower = v.lower;
  r.upper = v.upper;
  r.noiseSd = v.noise_sd;
  r.kernel = kernel_value(v.kernel_name, v.kernel);
  r.held = array_of(v.held);
  r.noiseVariance = v.noise_variance;
  return r;
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
  RocValue ungated;
  val gated = val::null();  // RocValue[], one per rho
  val gridX = val::null();  // Float64Array over the test range
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
  v.ungated = roc_value(e.ungated);
  v.gated = array_of(roc_values(e.gated));
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
  emscripten::value_object<RocValue>("RocValue")
      .field("rho", &RocValue::rho)
      .field("points", &RocValue::points)
      .field("positives", &RocValue::positives)
      .field("negatives", &RocValue::negatives)
      .field("defined", &RocValue::defined)
      .field("auc", &RocValue::auc)
      .field("falsePositiveRate", &RocValue::falsePositiveRate)
      .field("truePositiveRate", &RocValue::truePositiveRate);
  result_object<RocSweep>("RocSweep", [](auto& o) { o.field("curves", &RocSweep::curves); });
  result_object<ExampleValue>("ExampleValue", [](auto& o) {
    o.field("name", &ExampleValue::name)
        .field("title", &ExampleValue::title)
        .field("inputName", &ExampleValue::inputName)
        .field("x", &ExampleValue::x)
        .field("y", &ExampleValue::y)
        .field("heldOutX", &ExampleValue::heldOutX)
        .field("heldOutY", &ExampleValue::heldOutY)
        .field("lower", &ExampleValue::lower)
        .field("upper", &ExampleValue::upper)
        .field("noiseSd", &ExampleValue::noiseSd)
        .field("kernel", &ExampleValue::kernel)
        .field("held", &ExampleValue::held)
        .field("noiseVariance", &ExampleValue::noiseVariance);
  });
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
