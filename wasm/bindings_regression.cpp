// Embind registration of GP regression (core/include/gpprobe/gp_regression.h and friends): the
// RegressionHandle that JavaScript fits, optimises, queries and samples. Same conventions as
// bindings.cpp: heap pointers and shapes in, a BindingStatus out, no exception or abort reaches
// JavaScript, progress through an optional JS function that returns false to cancel. Kernels travel as
// text (kernel_expression.h). The free functions of the regression lab are in bindings_regression_tools.cpp.
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
using gpprobe::StatusCode;
using gpprobe::wasm::BindingStatus;
using gpprobe::wasm::copy_out;
using gpprobe::wasm::guarded;
using gpprobe::wasm::invalid;
using gpprobe::wasm::split_names;

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

}  // namespace

EMSCRIPTEN_BINDINGS(gpprobe_regression) {
  emscripten::class_<RegressionHandle>("RegressionHandle")
      .constructor<>()
      .function("fit", &RegressionHandle::fit)
      .function("optimize", &RegressionHandle::optimize)
      .function("predict", &RegressionHandle::predict)
      .function("sample", &RegressionHandle::sample)
      .function("state", &RegressionHandle::state);
}
