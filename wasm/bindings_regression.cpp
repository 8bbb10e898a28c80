// Embind registration of GP regression (gp_regression.h, hyperparameter_fit.h): the RegressionHandle
// that JavaScript fits or optimises and then queries. Conventions of binding_support.h. The kernel
// arrives as a KernelValue (names and doubles, never text) and the fitted state reports it the same
// way, so a value typed in the app reaches the core and a learned one comes back bit for bit. Every
// call returns its own report (the optimiser's runs, clamped variances, a sample's jitter): nothing is
// left in the handle for a later call to read. The lab's free functions are in
// bindings_regression_tools.cpp.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <emscripten/bind.h>

#include "gpprobe/regression/gp_regression.h"
#include "gpprobe/regression/hyperparameter_fit.h"
#include "gpprobe/regression/regression_state.h"

#include "binding_support.h"
#include "described_values.h"

namespace gpprobe::wasm {
namespace {

// The optimiser's options under the TS API's names; mean NaN = the average of y.
struct OptimizeSettings {
  double restarts = 0, seed = 0, maxIterations = 0, mean = 0;
  val fixed = val::array();  // string[]: parameter names held at their values (may include the noise's)
};

struct OptimizeReport : BindingStatus {
  val runValues = val::null();  // Float64Array: the best log marginal likelihood of each run
  double iterations = 0;
};

struct PredictReport : BindingStatus {
  double clampedVariances = 0;  // rounding-negative variances set to 0 (gp_regression.h)
};

struct SampleReport : BindingStatus {
  double jitter = 0;  // added to the covariance diagonal so that it factorised
};

Status not_fitted() { return Status(StatusCode::invalid_argument, "the regression is not fitted"); }

MatrixView training_view(std::uintptr_t x, std::size_t rows, std::size_t cols) {
  return MatrixView(doubles(x), rows, cols);
}

// One fitted regression. JavaScript owns it and must call delete() (GpRegression.dispose does).
class RegressionHandle {
 public:
  // x: rows by cols float64, y: rows float64; mean NaN = the average of y.
  Status fit(std::uintptr_t x, std::size_t rows, std::size_t cols, std::uintptr_t y, const KernelValue& kernel,
             double noise_variance, double mean) {
    Result<Kernel> k = kernel_of(kernel);
    if (!k.ok()) return k.status();
    return refit(training_view(x, rows, cols), doubles(y), kernel.name, k.value(), noise_variance, mean);
  }

  // Maximises the marginal likelihood from (kernel, noise), then fits with the optimum.
  OptimizeReport optimize(std::uintptr_t x, std::size_t rows, std::size_t cols, std::uintptr_t y,
                          const KernelValue& kernel, double noise_variance, const OptimizeSettings& s, val progress) {
    Result<Kernel> k = kernel_of(kernel);
    if (!k.ok()) return failed<OptimizeReport>(k.status());
    gpprobe::HyperparameterFitOptions options;
    for (const Status& checked :
         {count_argument("restarts", s.restarts, &options.restarts), seed_argument("seed", s.seed, &options.seed),
          count_argument("maxIterations", s.maxIterations, &options.max_iterations)}) {
      if (!checked.ok()) return failed<OptimizeReport>(checked);
    }
    if (options.max_iterations < 1) {
      return failed<OptimizeReport>(Status(StatusCode::invalid_argument, "maxIterations must be at least 1, got 0"));
    }
    options.mean = s.mean;
    options.fixed = strings_of(s.fixed);
    const MatrixView view = training_view(x, rows, cols);
    Result<gpprobe::HyperparameterFit> fit = gpprobe::fit_hyperparameters(
        view, doubles(y), rows, k.value(), noise_variance, options, progress_from(progress));
    if (!fit.ok()) return failed<OptimizeReport>(fit.status());
    const Status refitted =
        refit(view, doubles(y), kernel.name, fit.value().kernel, fit.value().noise_variance, s.mean);
    if (!refitted.ok()) return failed<OptimizeReport>(refitted);
    OptimizeReport report;
    report.runValues = copy_out(fit.value().run_values);
    report.iterations = double(fit.value().iterations);
    return report;
  }

  // Writes 8 columns of `rows` doubles at `out`: mean, latent_variance, observation_variance,
  // knowledge, latent_lower, latent_upper, observation_lower, observation_upper.
  PredictReport predict(std::uintptr_t test, std::size_t rows, std::size_t cols, std::uintptr_t out,
                        val progress) const {
    if (!gp_) return failed<PredictReport>(not_fitted());
    double* b = doubles_out(out);
    const gpprobe::PredictionColumns columns{
        b, b + rows, b + 2 * rows, b + 3 * rows, b + 4 * rows, b + 5 * rows, b + 6 * rows, b + 7 * rows};
    gpprobe::PredictionReport report;
    const Status s = gp_->predict(MatrixView(doubles(test), rows, cols), columns, progress_from(progress), &report);
    if (!s.ok()) return failed<PredictReport>(s);
    PredictReport r;
    r.clampedVariances = double(report.clamped_variances);
    return r;
  }

  // count by rows joint posterior samples of f at `out`.
  SampleReport sample(std::uintptr_t test, std::size_t rows, std::size_t cols, double count, double seed,
                      std::uintptr_t out) const {
    if (!gp_) return failed<SampleReport>(not_fitted());
    std::size_t n = 0;
    std::uint64_t draw = 0;
    for (const Status& checked : {count_argument("count", count, &n), seed_argument("seed", seed, &draw)}) {
      if (!checked.ok()) return failed<SampleReport>(checked);
    }
    Result<gpprobe::PosteriorSamples> s = gp_->sample(MatrixView(doubles(test), rows, cols), n, draw);
    if (!s.ok()) return failed<SampleReport>(s.status());
    std::copy(s.value().values.data(), s.value().values.data() + s.value().values.size(), doubles_out(out));
    SampleReport r;
    r.jitter = s.value().jitter;
    return r;
  }

  Reply<RegressionState> state() const {
    if (!gp_) return failed<Reply<RegressionState>>(not_fitted());
    return reply(gpprobe::regression_state(*gp_, kernel_name_));
  }

 private:
  Status refit(const MatrixView& x, const double* y, const std::string& name, const Kernel& kernel, double noise,
               double mean) {
    Result<gpprobe::GpRegression> gp = gpprobe::GpRegression::fit(x, y, x.rows(), kernel, noise, mean);
    if (!gp.ok()) return gp.status();
    gp_ = std::make_unique<gpprobe::GpRegression>(std::move(gp).value());
    kernel_name_ = name;
    return Status::success();
  }

  std::unique_ptr<gpprobe::GpRegression> gp_;
  std::string kernel_name_;  // the form the kernel was given in (a named kernel or an expression)
};

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_regression) {
  using namespace gpprobe::wasm;
  emscripten::value_object<OptimizeSettings>("OptimizeSettings")
      .field("restarts", &OptimizeSettings::restarts)
      .field("seed", &OptimizeSettings::seed)
      .field("maxIterations", &OptimizeSettings::maxIterations)
      .field("mean", &OptimizeSettings::mean)
      .field("fixed", &OptimizeSettings::fixed);
  result_object<OptimizeReport>("OptimizeReport", [](auto& o) {
    o.field("runValues", &OptimizeReport::runValues).field("iterations", &OptimizeReport::iterations);
  });
  result_object<PredictReport>("PredictReport",
                               [](auto& o) { o.field("clampedVariances", &PredictReport::clampedVariances); });
  result_object<SampleReport>("SampleReport", [](auto& o) { o.field("jitter", &SampleReport::jitter); });
  reply_object<gpprobe::RegressionState>();

  emscripten::class_<RegressionHandle> handle("RegressionHandle");
  handle.constructor<>();
  bind_method<&RegressionHandle::fit>(handle, "RegressionHandle", "fit");
  bind_method<&RegressionHandle::optimize>(handle, "RegressionHandle", "optimize");
  bind_method<&RegressionHandle::predict>(handle, "RegressionHandle", "predict");
  bind_method<&RegressionHandle::sample>(handle, "RegressionHandle", "sample");
  bind_method<&RegressionHandle::state>(handle, "RegressionHandle", "state");
}
