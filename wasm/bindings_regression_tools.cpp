// Embind registration of the regression lab's free functions: prior samples, anomaly statuses, the
// knowledge-gated ROC sweep, the bundled examples, the paper's Fig. 3 experiment, and kernel text.
// Variable-length results come back as one JS object of typed arrays copied out of the heap.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "binding_support.h"
#include "gpprobe/anomaly_detection.h"
#include "gpprobe/anomaly_experiment.h"
#include "gpprobe/gp_regression.h"
#include "gpprobe/hyperparameter_fit.h"
#include "gpprobe/kernel_expression.h"
#include "gpprobe/regression_examples.h"
#include "regression_binding_support.h"

namespace {

using emscripten::val;
using gpprobe::Kernel;
using gpprobe::MatrixView;
using gpprobe::Result;
using gpprobe::Status;
using gpprobe::wasm::BindingStatus;
using gpprobe::wasm::copy_out;
using gpprobe::wasm::guarded;
using gpprobe::wasm::roc_object;
using gpprobe::wasm::status_object;

BindingStatus sample_prior(const std::string& kernel, double mean, std::uintptr_t test, std::size_t rows,
                           std::size_t cols, double count, double seed, std::uintptr_t out) {
  return guarded([&]() -> Status {
    Result<Kernel> k = gpprobe::parse_kernel(kernel);
    if (!k.ok()) return k.status();
    Result<gpprobe::PosteriorSamples> s = gpprobe::sample_prior(
        k.value(), mean, MatrixView(reinterpret_cast<const double*>(test), rows, cols), std::size_t(count),
        std::uint64_t(seed));
    if (!s.ok()) return s.status();
    std::copy(s.value().values.data(), s.value().values.data() + s.value().values.size(),
              reinterpret_cast<double*>(out));
    return Status::success();
  });
}

// n statuses (0 normal, 1 anomaly, 2 unknown) at `out` and n anomaly scores at `scores`.
BindingStatus classify_points(std::uintptr_t y, std::uintptr_t mean, std::uintptr_t observation_variance,
                              std::uintptr_t knowledge, std::size_t n, double rho, double theta, std::uintptr_t out,
                              std::uintptr_t scores) {
  return guarded([&]() -> Status {
    const auto* Y = reinterpret_cast<const double*>(y);
    const auto* M = reinterpret_cast<const double*>(mean);
    const auto* V = reinterpret_cast<const double*>(observation_variance);
    GPPROBE_RETURN_IF_ERROR(gpprobe::classify_points(Y, M, V, reinterpret_cast<const double*>(knowledge), n,
                                                     {rho, theta}, reinterpret_cast<gpprobe::PointStatus*>(out)));
    gpprobe::anomaly_scores(Y, M, V, n, reinterpret_cast<double*>(scores));
    return Status::success();
  });
}

// [{rho, points, positives, negatives, defined, auc, falsePositiveRate, truePositiveRate}, ...];
// knowledge 0 means ungated (one curve, rho ignored).
val roc_sweep(std::uintptr_t scores, std::uintptr_t is_positive, std::uintptr_t knowledge, std::size_t n,
              std::uintptr_t rhos, std::size_t rho_count) {
  const auto* r = reinterpret_cast<const double*>(rhos);
  const std::vector<gpprobe::GatedRoc> curves = gpprobe::gated_roc_sweep(
      reinterpret_cast<const double*>(scores), reinterpret_cast<const std::uint8_t*>(is_positive),
      knowledge ? reinterpret_cast<const double*>(knowledge) : nullptr, n, std::vector<double>(r, r + rho_count));
  val out = val::array();
  for (const gpprobe::GatedRoc& c : curves) out.call<void>("push", roc_object(c));
  return out;
}

// {status, name, x, y, heldOutX, heldOutY, lower, upper, noiseSd}
val regression_example(const std::string& name, double seed) {
  val out = val::object();
  Result<gpprobe::RegressionExample> e = gpprobe::regression_example(name, std::uint64_t(seed));
  out.set("status", status_object(e.status()));
  if (!e.ok()) return out;
  const gpprobe::RegressionExample& v = e.value();
  out.set("name", v.name);
  out.set("x", copy_out(v.x.data(), std::size_t(v.x.size())));
  out.set("y", copy_out(v.y.data(), v.y.size()));
  out.set("heldOutX", copy_out(v.held_out_x.data(), std::size_t(v.held_out_x.size())));
  out.set("heldOutY", copy_out(v.held_out_y.data(), v.held_out_y.size()));
  out.set("lower", v.lower);
  out.set("upper", v.upper);
  out.set("noiseSd", v.noise_sd);
  return out;
}

// {status, trainX, trainY, trainAnomaly, testX, testY, testAnomaly, mean, latentVariance,
//  observationVariance, knowledge, score, status codes, kernel, noiseVariance, logMarginalLikelihood,
//  ungated, gated}
val anomaly_experiment(double seed, double status_rho, double theta, std::uintptr_t rhos, std::size_t rho_count,
                       val progress) {
  val out = val::object();
  gpprobe::AnomalyExperimentOptions o;
  o.seed = std::uint64_t(seed);
  o.status_rho = status_rho;
  o.theta = theta;
  const auto* r = reinterpret_cast<const double*>(rhos);
  o.rhos.assign(r, r + rho_count);
  Result<gpprobe::AnomalyExperiment> run(Status{});
  const BindingStatus guard = guarded([&]() -> Status {
    run = gpprobe::run_anomaly_experiment(o, gpprobe::wasm::progress_from(progress));
    return run.status();
  });
  val status = val::object();
  status.set("code", guard.code);
  status.set("message", guard.message);
  out.set("status", status);
  if (guard.code != "ok") return out;
  const gpprobe::AnomalyExperiment& e = run.value();
  out.set("trainX", copy_out(e.train_x.data(), std::size_t(e.train_x.size())));
  out.set("trainY", copy_out(e.train_y.data(), e.train_y.size()));
  out.set("trainAnomaly", copy_out(e.train_anomaly.data(), e.train_anomaly.size()));
  out.set("testX", copy_out(e.test_x.data(), std::size_t(e.test_x.size())));
  out.set("testY", copy_out(e.test_y.data(), e.test_y.size()));
  out.set("testAnomaly", copy_out(e.test_anomaly.data(), e.test_anomaly.size()));
  out.set("mean", copy_out(e.mean.data(), e.mean.size()));
  out.set("latentVariance", copy_out(e.latent_variance.data(), e.latent_variance.size()));
  out.set("observationVariance", copy_out(e.observation_variance.data(), e.observation_variance.size()));
  out.set("knowledge", copy_out(e.knowledge.data(), e.knowledge.size()));
  out.set("score", copy_out(e.score.data(), e.score.size()));
  out.set("statuses", copy_out(reinterpret_cast<const std::uint8_t*>(e.status.data()), e.status.size()));
  out.set("kernel", e.kernel.describe());
  out.set("noiseVariance", e.noise_variance);
  out.set("logMarginalLikelihood", e.log_marginal_likelihood);
  out.set("ungated", roc_object(e.ungated));
  val gated = val::array();
  for (const gpprobe::GatedRoc& c : e.gated) gated.call<void>("push", roc_object(c));
  out.set("gated", gated);
  return out;
}

// The noise-free function of example `name` at n points.
BindingStatus example_truth(const std::string& name, std::uintptr_t x, std::size_t n, std::uintptr_t out) {
  return guarded([&]() {
    return gpprobe::example_truth(name, reinterpret_cast<const double*>(x), n, reinterpret_cast<double*>(out));
  });
}

// The kernel text of a named choice ("rbf", ...: variance * base), or a status; for the UI's menu.
val kernel_text(const std::string& name, double variance, double length_scale, double period, double decay,
                double offset) {
  val out = val::object();
  Result<Kernel> k = gpprobe::make_kernel({name, variance, length_scale, period, decay, offset});
  out.set("status", status_object(k.status()));
  if (k.ok()) out.set("kernel", k.value().describe());
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(gpprobe_regression_tools) {
  emscripten::function("samplePrior", &sample_prior);
  emscripten::function("classifyPoints", &classify_points);
  emscripten::function("rocSweep", &roc_sweep);
  emscripten::function("regressionExample", &regression_example);
  emscripten::function("exampleTruth", &example_truth);
  emscripten::function("anomalyExperiment", &anomaly_experiment);
  emscripten::function("kernelText", &kernel_text);
}
