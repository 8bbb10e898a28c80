// Embind registration of certified bounds (certify_values.h): the settings and certificates of a
// GP classifier's robustness and of the probe's verdict, their conversion from and to the core's
// structs, and the defaults of both (certifyDefaults, which web/src/engine/vocabulary.ts restates once,
// tested). Conventions of binding_support.h; no mathematics.
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <emscripten/bind.h>

#include "gpprobe/certify/certify_defaults.h"
#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/certify/multiclass_robustness.h"
#include "gpprobe/certify/probe_certificate.h"

#include "certify_values.h"

namespace gpprobe::wasm {
namespace {

std::string text_of(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// Whole numbers >= 0 of a JS array, each a count the core can hold (binding_support.h count_argument:
// "dims must be whole numbers from 0 to ..., got 1.5").
Result<std::vector<std::size_t>> indices_of(const val& list, const char* what) {
  std::vector<std::size_t> out;
  for (double v : emscripten::convertJSArrayToNumberVector<double>(list)) {
    std::size_t i = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument(what, v, &i));
    out.push_back(i);
  }
  return out;
}

Result<std::size_t> iteration_count(double v) {
  std::size_t n = 0;
  GPPROBE_RETURN_IF_ERROR(count_argument("maxIterations", v, &n));
  return n;
}

Result<RobustnessOptions> robustness_options(const RobustnessSettings& s) {
  RobustnessOptions o;
  o.gamma = s.gamma;
  o.tolerance = s.tolerance;
  o.time_limit_seconds = s.timeLimitSeconds;
  if (!(s.timeLimitSeconds >= 0.0)) {
    return Status(StatusCode::invalid_argument, "timeLimitSeconds must be >= 0, got " + text_of(s.timeLimitSeconds));
  }
  Result<std::size_t> iterations = iteration_count(s.maxIterations);
  if (!iterations.ok()) return iterations.status();
  o.max_iterations = iterations.value();
  Result<std::vector<std::size_t>> dims = indices_of(s.dims, "each of dims");
  if (!dims.ok()) return dims.status();
  o.dims = dims.value();
  if (!s.validRange.isNull() && !s.validRange.isUndefined()) {
    const std::vector<double> range = emscripten::convertJSArrayToNumberVector<double>(s.validRange);
    if (range.size() != 2) {
      return Status(StatusCode::invalid_argument,
                    "validRange must be [lo, hi], got " + std::to_string(range.size()) + " values");
    }
    o.valid_range = Interval{range[0], range[1]};
  }
  Result<RobustnessSearch> search = parse_search(s.search);
  if (!search.ok()) return search.status();
  o.search = search.value();
  Result<VarianceMethod> variance = parse_variance_method(s.variance);
  if (!variance.ok()) return variance.status();
  o.variance = variance.value();
  return o;
}

std::vector<double> point_of(const val& point) { return emscripten::convertJSArrayToNumberVector<double>(point); }

Reply<CertifyDefaults> certify_defaults() { return reply(gpprobe::certify_defaults()); }

}  // namespace

Reply<RobustnessCertificate> robustness_certificate(const ClassifierCommonForm& form, const val& point,
                                                    const RobustnessSettings& settings, const val& progress,
                                                    const val& on_interval) {
  using Value = Reply<RobustnessCertificate>;
  Result<RobustnessOptions> options = robustness_options(settings);
  if (!options.ok()) return failed<Value>(options.status());
  IntervalCallback intervals;
  if (on_interval.typeOf().as<std::string>() == "function") {
    intervals = [&on_interval](Extremum extremum, std::size_t iterations, double lower, double upper) {
      on_interval(std::string(extremum == Extremum::minimum ? "minimum" : "maximum"), double(iterations), lower, upper);
    };
  }
  Result<RobustnessCertificate> c =
      certify_robustness(form, point_of(point), options.value(), progress_from(progress), intervals);
  if (!c.ok()) return failed<Value>(c.status());
  return reply(std::move(c).value());
}

Reply<RobustnessSweep> robustness_sweep_certificates(const ClassifierCommonForm& form, const val& point,
                                                     const val& gammas, const RobustnessSettings& settings,
                                                     const val& progress) {
  using Value = Reply<RobustnessSweep>;
  Result<RobustnessOptions> options = robustness_options(settings);
  if (!options.ok()) return failed<Value>(options.status());
  const std::vector<double> values = emscripten::convertJSArrayToNumberVector<double>(gammas);
  Result<std::vector<RobustnessCertificate>> rows =
      robustness_sweep(form, point_of(point), values, options.value(), progress_from(progress));
  if (!rows.ok()) return failed<Value>(rows.status());
  return reply(RobustnessSweep{std::move(rows).value()});
}

Reply<ProbeCertificate> probe_certificate(const Probe& probe, std::uintptr_t query, std::size_t cols, int dtype,
                                          const ProbeCertifySettings& s, const val& progress) {
  using Value = Reply<ProbeCertificate>;
  MatrixView view;
  if (const Status v = view_of(query, 1, cols, dtype, "the query", &view); !v.ok()) return failed<Value>(v);
  if (probe.dimension() != 0 && cols != probe.dimension()) {
    return failed<Value>(Status(StatusCode::dimension_mismatch, "the query has " + std::to_string(cols) +
                                                                    " columns, the probe's observations have " +
                                                                    std::to_string(probe.dimension())));
  }
  std::vector<double> a(cols);
  view.copy_rows(0, 1, a.data());
  CertifyOptions o;
  o.gamma = s.gamma;
  o.tolerance = s.tolerance;
  o.time_limit_seconds = s.timeLimitSeconds;
  o.search = s.search;
  if (s.norm != "inf" && s.norm != "2") {
    return failed<Value>(Status(StatusCode::invalid_argument, "norm must be inf or 2, got '" + s.norm + "'"));
  }
  o.norm = s.norm == "inf" ? QueryNorm::inf : QueryNorm::two;
  Result<std::size_t> iterations = iteration_count(s.maxIterations);
  if (!iterations.ok()) return failed<Value>(iterations.status());
  o.max_iterations = iterations.value();
  Result<std::vector<std::size_t>> dims = indices_of(s.dims, "each of dims");
  if (!dims.ok()) return failed<Value>(dims.status());
  o.dims = dims.value();
  Result<ProbeCertifier> certifier = ProbeCertifier::make(probe, o);
  if (!certifier.ok()) return failed<Value>(certifier.status());
  Result<ProbeCertificate> c = certifier.value().certify(a.data(), progress_from(progress));
  if (!c.ok()) return failed<Value>(c.status());
  return reply(std::move(c).value());
}

}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_certificates) {
  using namespace gpprobe::wasm;
  emscripten::value_object<RobustnessSettings>("RobustnessSettings")
      .field("gamma", &RobustnessSettings::gamma)
      .field("dims", &RobustnessSettings::dims)
      .field("validRange", &RobustnessSettings::validRange)
      .field("tolerance", &RobustnessSettings::tolerance)
      .field("maxIterations", &RobustnessSettings::maxIterations)
      .field("timeLimitSeconds", &RobustnessSettings::timeLimitSeconds)
      .field("search", &RobustnessSettings::search)
      .field("variance", &RobustnessSettings::variance);
  reply_object<gpprobe::RobustnessCertificate>();
  reply_object<gpprobe::RobustnessSweep>();
  emscripten::value_object<ProbeCertifySettings>("ProbeCertifySettings")
      .field("gamma", &ProbeCertifySettings::gamma)
      .field("norm", &ProbeCertifySettings::norm)
      .field("dims", &ProbeCertifySettings::dims)
      .field("search", &ProbeCertifySettings::search)
      .field("tolerance", &ProbeCertifySettings::tolerance)
      .field("maxIterations", &ProbeCertifySettings::maxIterations)
      .field("timeLimitSeconds", &ProbeCertifySettings::timeLimitSeconds);
  reply_object<gpprobe::ProbeCertificate>();
  reply_object<gpprobe::CertifyDefaults>();
  bind_function<&certify_defaults>("certifyDefaults");
}
