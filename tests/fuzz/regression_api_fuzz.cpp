// GP regression on small decoded problems: up to 10 training points in up to 3 dimensions, any of the
// named kernels (or a kernel expression from the input), noise, mean, inputs and parameters anywhere
// (edge doubles included); then predictions, samples, prior samples and a short hyperparameter fit.
// Whatever succeeds must be finite and inside the maths; whatever fails must say so with a status.
#include <limits>
#include <vector>

#include "gpprobe/kernels/kernel_expression.h"
#include "gpprobe/kernels/named_kernels.h"
#include "gpprobe/regression/gp_regression.h"
#include "gpprobe/regression/hyperparameter_fit.h"

#include "fuzz_support.h"

using namespace gpprobe;

namespace {

Kernel decoded_kernel(fuzz::Input& in) {
  if (in.byte() < 48) {  // a short expression, straight from the input
    std::string text;
    for (std::size_t k = in.in_range(1, 48); k > 0; --k) text += char(in.byte());
    Result<Kernel> parsed = parse_kernel(text);
    if (parsed.ok()) return parsed.value();
  }
  const std::vector<NamedKernel>& named = named_kernels();
  Kernel k = named[in.byte() % named.size()].kernel;
  std::vector<double> values(k.parameter_count());
  for (double& v : values) v = in.byte() < 8 ? in.raw_double() : in.positive(-4, 4);
  k = k.with_values(values.data());
  const std::uint8_t combine = in.byte();
  if (combine < 40) return k + Kernel::constant(in.positive(-3, 3)) * Kernel::rbf({in.positive(-2, 2)});
  if (combine < 60) return k * Kernel::linear(in.positive(-2, 2));
  return k;
}

void require_finite(const std::vector<double>& values, const char* what) {
  for (double v : values) fuzz::require(std::isfinite(v), what, v);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input in(data, size);
  const std::size_t n = in.in_range(1, 10), d = in.in_range(1, 3), m = in.in_range(1, 6);
  const Kernel kernel = decoded_kernel(in);
  const double noise = in.byte() < 16 ? in.raw_double() : in.positive(-8, 2);
  const double mean = in.flag() ? std::numeric_limits<double>::quiet_NaN() : in.value();
  std::vector<double> x(n * d), y(n), test(m * d);
  for (double& v : x) v = in.value();
  for (double& v : y) v = in.value();
  for (std::size_t i = 0; i < m * d; ++i) test[i] = in.byte() < 64 ? x[i % (n * d)] : in.value();
  const MatrixView train(x.data(), n, d), tests(test.data(), m, d);
  const std::uint64_t seed = in.byte();

  Result<GpRegression> gp = GpRegression::fit(train, y.data(), n, kernel, noise, mean);
  if (gp.ok()) {
    fuzz::require(std::isfinite(gp.value().log_marginal_likelihood()), "log marginal likelihood finite");
    std::vector<double> mu(m), latent(m), observation(m), knowledge(m), lo(m), hi(m), olo(m), ohi(m);
    const PredictionColumns columns{mu.data(), latent.data(), observation.data(), knowledge.data(),
                                    lo.data(), hi.data(),     olo.data(),         ohi.data()};
    const Status predicted = gp.value().predict(tests, columns);
    if (predicted.ok()) {
      for (const auto* v : {&mu, &latent, &observation, &knowledge, &lo, &hi, &olo, &ohi})
        require_finite(*v, "predictions finite");
      for (std::size_t i = 0; i < m; ++i) {
        fuzz::require(latent[i] >= 0.0, "latent variance >= 0", latent[i]);
        fuzz::require(knowledge[i] >= 0.0 && knowledge[i] <= 1.0, "knowledge in [0, 1]", knowledge[i]);
        fuzz::require(lo[i] <= mu[i] && mu[i] <= hi[i] && olo[i] <= lo[i] && hi[i] <= ohi[i], "bands nest");
      }
    } else {
      // Test inputs the fit never saw may be NaN or Inf (non_finite), or overflow the kernel.
      fuzz::require(predicted.code() == StatusCode::numerical_failure || predicted.code() == StatusCode::non_finite,
                    "predictions fail only on their inputs or numerically");
    }
    Result<PosteriorSamples> samples = gp.value().sample(tests, 1 + seed % 3, seed);
    if (samples.ok()) {
      fuzz::require(samples.value().values.allFinite(), "posterior samples finite");
      fuzz::require(std::size_t(samples.value().values.cols()) == m, "one column per test point");
    }
  }
  Result<PosteriorSamples> prior = sample_prior(kernel, std::isnan(mean) ? 0.0 : mean, tests, 2, seed);
  if (prior.ok()) fuzz::require(prior.value().values.allFinite(), "prior samples finite");

  HyperparameterFitOptions options;
  options.max_iterations = 12;
  options.restarts = seed % 2;
  options.mean = mean;
  Result<HyperparameterFit> fit = fit_hyperparameters(train, y.data(), n, kernel, noise, options);
  if (fit.ok()) {
    fuzz::require(std::isfinite(fit.value().log_marginal_likelihood), "fitted likelihood finite");
    fuzz::require(std::isfinite(fit.value().noise_variance) && fit.value().noise_variance > 0.0, "fitted noise > 0");
    for (const KernelParameter& p : fit.value().kernel.parameters())
      fuzz::require(std::isfinite(p.value) && p.value > 0.0, "fitted parameters finite and > 0", p.value);
  }
  return 0;
}
