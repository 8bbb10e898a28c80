// The probe's handle for JavaScript (ProbeHandle: fit, score, update, certify, leave-one-out, knowledge
// gain) and the values it returns. Registered in bindings_probe.cpp; bindings_probe_kept_scores.cpp takes it as an
// argument. Conventions of binding_support.h; no mathematics.
#pragma once

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include <emscripten/bind.h>

#include "gpprobe/explain/probe_output.h"
#include "gpprobe/probe/knowledge_gain.h"
#include "gpprobe/probe/leave_one_out.h"
#include "gpprobe/probe/probe.h"

#include "binding_support.h"
#include "certify_values.h"
#include "described_values.h"
#include "explain_values.h"

namespace gpprobe::wasm {

// What a probe says about itself.
struct ProbeState : BindingStatus {
  double observationCount = 0;
  double dimension = 0;
  std::string space;
  val labels = val::null();  // Uint8Array, the probe's current order
};

inline Status not_fitted() { return Status(StatusCode::invalid_argument, "the probe is not fitted"); }

// A label as the JS number itself (an int parameter would turn 0.5 and NaN into 0).
inline Status check_label(double label) {
  if (label == 0.0 || label == 1.0) return Status::success();
  std::ostringstream os;
  os << "label must be 0 or 1, got " << label;
  return Status(StatusCode::invalid_argument, os.str());
}

// One fitted probe. JavaScript owns it and must call delete() (the TS Probe.dispose does).
class ProbeHandle {
 public:
  Status fit(std::uintptr_t observations, std::size_t rows, std::size_t cols, int dtype, std::uintptr_t labels,
             std::size_t label_count, double epsilon, double strength, const std::string& space,
             double expected_queries, bool float32_products) {
    MatrixView view;
    GPPROBE_RETURN_IF_ERROR(view_of(observations, rows, cols, dtype, "observations", &view));
    gpprobe::ProbeOptions options;
    options.epsilon = epsilon;
    options.strength = strength;
    options.float32_products = float32_products;
    GPPROBE_RETURN_IF_ERROR(count_argument("expectedQueries", expected_queries, &options.expected_queries));
    Result<gpprobe::PosteriorSpace> s = gpprobe::parse_space(space);
    if (!s.ok()) return s.status();
    options.space = s.value();
    Result<gpprobe::Probe> fitted = gpprobe::Probe::fit(view, bytes(labels), label_count, options);
    if (!fitted.ok()) return fitted.status();
    probe_ = std::make_unique<gpprobe::Probe>(std::move(fitted).value());
    return Status::success();
  }

  // Writes 7 columns of `rows` doubles each, one after the other, at `out`: judged_probability,
  // episteme, alea, latent_mean, latent_variance, knowledge, ood_score.
  Status score(std::uintptr_t queries, std::size_t rows, std::size_t cols, int dtype, std::uintptr_t out,
               val progress) const {
    if (!probe_) return not_fitted();
    MatrixView view;
    GPPROBE_RETURN_IF_ERROR(view_of(queries, rows, cols, dtype, "queries", &view));
    double* base = doubles_out(out);
    const gpprobe::ProbeScoreColumns columns{
        base, base + rows, base + 2 * rows, base + 3 * rows, base + 4 * rows, base + 5 * rows, base + 6 * rows};
    return probe_->score(view, columns, progress_from(progress));
  }

  Status add_observation(std::uintptr_t row, std::size_t cols, int dtype, double label) {
    if (!probe_) return not_fitted();
    GPPROBE_RETURN_IF_ERROR(check_label(label));
    MatrixView view;
    GPPROBE_RETURN_IF_ERROR(view_of(row, 1, cols, dtype, "the observation", &view));
    return probe_->add_observation(view, std::uint8_t(label));
  }

  gpprobe::Probe* probe() { return probe_.get(); }

  Status remove_observation(double index) {
    if (!probe_) return not_fitted();
    std::size_t i = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("observation index", index, &i));
    return probe_->remove_observation(i);
  }

  // Certified bounds over the set around one query of `cols` values (certify_values.h).
  Reply<ProbeCertificate> certify(std::uintptr_t query, std::size_t cols, int dtype, const ProbeCertifySettings& s,
                                  val progress) const {
    if (!probe_) return failed<Reply<ProbeCertificate>>(not_fitted());
    return probe_certificate(*probe_, query, cols, dtype, s, progress);
  }

  // Delta_gamma and LIME of the judged probability over embedding dimensions at the rows of `points`
  // (queries of the probe's dimension; explain_values.h).
  ExplainValue explain(val points, const ExplainSettings& s, val progress) const {
    if (!probe_) return failed<ExplainValue>(not_fitted());
    Result<gpprobe::ProbeOutput> output = gpprobe::ProbeOutput::make(*probe_);
    if (!output.ok()) return failed<ExplainValue>(output.status());
    return explain_output(output.value(), points, s, progress);
  }

  // The probe's leave-one-out check (leave_one_out.h): one value per observation in the probe's order.
  Reply<gpprobe::LeaveOneOut> leave_one_out() const {
    if (!probe_) return failed<Reply<gpprobe::LeaveOneOut>>(not_fitted());
    Result<gpprobe::LeaveOneOut> r = gpprobe::leave_one_out(*probe_);
    if (!r.ok()) return failed<Reply<gpprobe::LeaveOneOut>>(r.status());
    return reply(std::move(r).value());
  }

  // Writes one double per query at `out`: the expected knowledge gain of labelling it (knowledge_gain.h).
  Status knowledge_gain(std::uintptr_t queries, std::size_t rows, std::size_t cols, int dtype, std::uintptr_t out,
                        val progress) const {
    if (!probe_) return not_fitted();
    MatrixView view;
    GPPROBE_RETURN_IF_ERROR(view_of(queries, rows, cols, dtype, "queries", &view));
    return gpprobe::knowledge_gain(*probe_, view, doubles_out(out), progress_from(progress));
  }

  ProbeState state() const {
    if (!probe_) return failed<ProbeState>(not_fitted());
    ProbeState s;
    s.observationCount = double(probe_->observation_count());
    s.dimension = double(probe_->dimension());
    s.space = gpprobe::space_name(probe_->space());
    s.labels = copy_out(probe_->labels());
    return s;
  }

 private:
  std::unique_ptr<gpprobe::Probe> probe_;
};

}  // namespace gpprobe::wasm
