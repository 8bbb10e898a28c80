// Embind registration of GP regression (core/include/gpprobe/gp_regression.h and friends). Same
// conventions as bindings.cpp: heap pointers and shapes in, a BindingStatus out, no exception or abort
// reaches JavaScript, progress through an optional JS function that returns false to cancel.
// Variable-length results (examples, the Fig. 3 experiment, ROC curves) come back as one JS object of
// typed arrays copied out of the heap. Kernels travel as text (kernel_expression.h).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "binding_support.h"
#include "gpprobe/anomaly_detection.h"
#include "gpprobe/anomaly_experiment.h"
#include "gpprobe/gp_regression.h"
#include "gpprobe/hyperparameter_fit.h"
#include "gpprobe/kernel_expression.h"
#include "gpprobe/regression_examples.h"
#include "gpprobe/gated_roc.h"

namespace {

using emscripten::val;
using gpprobe::Kernel;
using gpprobe::MatrixView;
using gpprobe::Result;
using gpprobe::Status;
using gpprobe::StatusCode;
using gpprobe::wasm::BindingStatus;
using gpprobe::wasm::guarded;
using gpprobe::wasm::invalid;

// A JS Float64Array / Uint8Array copy of n values.
template <class T>
val copy_out(const T* data, std::size_t n) {
  return val(emscripten::typed_memory_view(n, data)).call<val>("slice");
}

val status_object(const Status& s) {
  val out = val::object();
  out.set("code", std::string(gpprobe::code_name(s.code())));
  out.set("message", s.message());
  return out;
}

std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty()) names.push_back(name);
  return names;
}

// The kernel of `text` with the comma-separated `fixed` parameters held at their values.
Result<Kernel> kernel_of(const std::string& text, const std::string& fixed) {
  Result<Kernel> k = gpprobe::parse_kernel(text);
  if (!k.ok()) return k;
  return gpprobe::fix_parameters(k.value(), split_names(fixed));
}

val roc_object(const gpprobe::GatedRoc& c) {
  val out = val::object();
  out.set("rho", c.rho);
  out.set("points", double(c.points));
  out.set("positives", double(c.positives));
  out.set("negatives", double(c.negatives));
  out.set("defined", c.defined);
  out.set("auc", c.auc);
  out.set("falsePositiveRate", copy_out(c.false_positive_rate.data(), c.false_positive_rate.size()));
  out.set("truePositiveRate", copy_out(c.true_positive_rate.data(), c.true_positive_rate.size()));
  return out;
}

// One fitted regression. JavaScript owns it and must call delete() (GpRegression.dispose does).
class RegressionHandle {
 public:
  // x: rows by cols float64, y: rows float64; mean NaN = the average of y.
  BindingStatus fit(std::uintptr_t x, std::size_t rows, std::size_t cols, std::uintptr_t y, const std::string& kernel,
                    double noise_variance, double mean) {
    return guarded([&]() -> Status {
      Result<Kernel> k = gpprobe::parse_kernel(kernel);
      if (!k.ok()) return k.status();
      return refit(MatrixView(reinterpret_cast<const double*>(x), rows, cols), reinterpret_cast<const double*>(y),
                   k.value(), noise_variance, mean);
    });
  }

  // Maximises the marginal likelihood from (kernel, noise), then fits with the optimum. `fixed` lists
  // parameter names held at their start values ("noise_variance" holds the noise).
  BindingStatus optimize(std::uintptr_t x, std::size_t rows, std::size_t cols, std::uintptr_t y,
                         const std::string& kernel, double noise_variance, double mean, const std::string& fixed,
                         double restarts, double seed, double max_iterations, val progress) {
    return guarded([&]() -> Status {
      std::vector<std::string> names = split_names(fixed);
      gpprobe::HyperparameterFitOptions options;
      for (auto it = names.begin(); it != names.end();) {
        if (*it == "noise_variance") {
          options.noise_lower = options.noise_upper = noise_variance;
          it = names.erase(it);
        } else {
          ++it;
        }
      }
      Result<Kernel> k = gpprobe::parse_kernel(kernel);
      if (!k.ok()) return k.status();
      Result<Kernel> held = gpprobe::fix_parameters(k.value(), names);
      if (!held.ok()) return held.status();
      if (!(restarts >= 0 && seed >= 0 && max_iterations >= 1)) {
        return Status(StatusCode::invalid_argument, "restarts and seed must be >= 0 and maxIterations >= 1");
      }
      options.restarts = std::size_t(restarts);
      options.seed = std::uint64_t(seed);
      options.max_iterations = std::size_t(max_iterations);
      options.mean = mean;
      const MatrixView view(reinterpret_cast<const double*>(x), rows, cols);
      const double* targets = reinterpret_cast<const double*>(y);
      Result<gpprobe::HyperparameterFit> fit = gpprobe::fit_hyperparameters(
          view, targets, rows, held.value(), noise_variance, options, gpprobe::wasm::progress_from(progress));
      if (!fit.ok()) return fit.status();
      run_values_ = fit.value().run_values;
      iterations_ = fit.value().iterations;
      return refit(view, targets, fit.value().kernel, fit.value().noise_variance, mean);
    });
  }

  // Writes 8 columns of `rows` doubles at `out`: mean, latent_variance, observation_variance,
  // knowledge, latent_lower, latent_upper, observation_lower, observation_upper.
  BindingStatus predict(std::uintptr_t test, std::size_t rows, std::size_t cols, std::uintptr_t out, val progress) {
    if (!gp_) return invalid("the regression is not fitted");
    return guarded([&]() -> Status {
      double* b = reinterpret_cast<double*>(out);
      const gpprobe::PredictionColumns columns{b, b + rows, b + 2 * rows, b + 3 * rows,
                                               b + 4 * rows, b + 5 * rows, b + 6 * rows, b + 7 * rows};
      gpprobe::PredictionReport report;
      GPPROBE_RETURN_IF_ERROR(gp_->predict(MatrixView(reinterpret_cast<const double*>(test), rows, cols), columns,
                                           gpprobe::wasm::progress_from(progress), &report));
      clamped_ = report.clamped_variances;
      return Status::success();
    });
  }

  // count by rows joint posterior samples of f at `out`.
  BindingStatus sample(std::uintptr_t test, std::size_t rows, std::size_t cols, double count, double seed,
                       std::uintptr_t out) {
    if (!gp_) return invalid("the regression is not fitted");
    return guarded([&]() -> Status {
      Result<gpprobe::PosteriorSamples> s = gp_->sample(MatrixView(reinterpret_cast<const double*>(test), rows, cols),
                                                        std::size_t(count), std::uint64_t(seed));
      if (!s.ok()) return s.status();
      std::copy(s.value().values.data(), s.value().values.data() + s.value().values.size(),
                reinterpret_cast<double*>(out));
      jitter_ = s.value().jitter;
      return Status::success();
    });
  }

  // {kernel, names, values, noiseVariance, mean, logMarginalLikelihood, size, dimension, runValues,
  //  iterations, clampedVariances, jitter}
  val state() const {
    if (!gp_) return val::null();
    val out = val::object();
    std::vector<double> values;
    val names = val::array();
    for (const gpprobe::KernelParameter& p : gp_->kernel().parameters()) {
      names.call<void>("push", p.name);
      values.push_back(p.value);
    }
    out.set("kernel", gp_->kernel().describe());
    out.set("names", names);
    out.set("values", copy_out(values.data(), values.size()));
    out.set("noiseVariance", gp_->noise_variance());
    out.set("mean", gp_->mean());
    out.set("logMarginalLikelihood", gp_->log_marginal_likelihood());
    out.set("size", double(gp_->size()));
    out.set("dimension", double(gp_->dimension()));
    out.set("runValues", copy_out(run_values_.data(), run_values_.size()));
    out.set("iterations", double(iterations_));
    out.set("clampedVariances", double(clamped_));
    out.set("jitter", jitter_);
    return out;
  }

 private:
  Status refit(const MatrixView& x, const double* y, const Kernel& kernel, double noise, double mean) {
    Result<gpprobe::GpRegression> gp = gpprobe::GpRegression::fit(x, y, x.rows(), kernel, noise, mean);
    if (!gp.ok()) return gp.status();
    gp_ = std::make_unique<gpprobe::GpRegression>(std::move(gp).value());
    return Status::success();
  }

  std::unique_ptr<gpprobe::GpRegression> gp_;
  std::vector<double> run_values_;
  std::size_t iterations_ = 0, clamped_ = 0;
  double jitter_ = 0.0;
};

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

EMSCRIPTEN_BINDINGS(gpprobe_regression) {
  emscripten::class_<RegressionHandle>("RegressionHandle")
      .constructor<>()
      .function("fit", &RegressionHandle::fit)
      .function("optimize", &RegressionHandle::optimize)
      .function("predict", &RegressionHandle::predict)
      .function("sample", &RegressionHandle::sample)
      .function("state", &RegressionHandle::state);

  emscripten::function("samplePrior", &sample_prior);
  emscripten::function("classifyPoints", &classify_points);
  emscripten::function("rocSweep", &roc_sweep);
  emscripten::function("regressionExample", &regression_example);
  emscripten::function("exampleTruth", &example_truth);
  emscripten::function("anomalyExperiment", &anomaly_experiment);
  emscripten::function("kernelText", &kernel_text);
}
