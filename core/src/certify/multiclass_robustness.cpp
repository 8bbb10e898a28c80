#include "gpprobe/certify/multiclass_robustness.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/input_checks.h"
#include "common/numeric_constants.h"

namespace gpprobe {

namespace multiclass_robustness_detail {

Status check_request(const MulticlassLaplace& model, const std::vector<double>& point,
                     const MulticlassRobustnessOptions& options) {
  if (point.size() != model.dimension()) {
    return Status(StatusCode::dimension_mismatch, "the point has " + count_of(point.size(), "coordinate") +
                                                      ", the training inputs have " +
                                                      count_of(model.dimension(), "column"));
  }
  GPPROBE_RETURN_IF_ERROR(check_finite_values(point.data(), point.size(), "the point"));
  if (!std::isfinite(options.tolerance) || options.tolerance < 0.0) {
    return Status(StatusCode::invalid_argument,
                  "tolerance must be a finite number >= 0, got " + number_text(options.tolerance));
  }
  return Status::success();
}

LatentPartitionOptions partition_of(const MulticlassRobustnessOptions& options) {
  LatentPartitionOptions p = options.partition;
  if (!(p.target_gap > 0.0)) p.target_gap = std::max(0.25 * options.tolerance, 1e-6);
  return p;
}

// Per moving coordinate, the smallest length-scale over the classes (the split rule's units).
std::vector<double> scales_of(const MulticlassLaplace& model, const RobustnessRegion& region) {
  std::vector<double> scales;
  for (std::size_t j : region.dims()) {
    double s = kInfinity;
    for (const SeArdKernel& k : model.kernels()) s = std::min(s, k.length_scales[j]);
    scales.push_back(s);
  }
  return scales;
}

// Distinct candidate points (k values each) of a box.
std::vector<std::vector<double>> candidates_of(const Box& box,
                                               std::initializer_list<const std::vector<double>*> points) {
  std::vector<std::vector<double>> out{box.centre()};
  for (const std::vector<double>* p : points) {
    if (!p->empty() && box.contains(*p) && std::find(out.begin(), out.end(), *p) == out.end()) out.push_back(*p);
  }
  return out;
}

// A candidate's value is worth the model's full quadrature (options.quadrature: ~25 ms at latent variances ~150
// for C = 3, against ~1 ms at tolerance 1e-9) only if it can improve the search's attained end. `screen` returns
// false when a tolerance-1e-9 value lies more than 1e-6 on the wrong side of `best`: skipping such a candidate
// leaves U (an attained value of a reported candidate) as it is, so the search stays sound; only the values
// reported are the full quadrature's (the witnesses keep predict's numbers).
SoftmaxExpectationOptions screening_quadrature(const SoftmaxExpectationOptions& full) {
  SoftmaxExpectationOptions cheap = full;
  cheap.tolerance = std::max(full.tolerance, 1e-9);
  return cheap;
}

double margin_of(const std::vector<double>& p, std::size_t predicted) {
  double other = -kInfinity;
  for (std::size_t c = 0; c < p.size(); ++c)
    if (c != predicted) other = std::max(other, p[c]);
  return p[predicted] - other;
}

std::size_t argmax(const std::vector<double>& p) {
  return std::size_t(std::max_element(p.begin(), p.end()) - p.begin());
}

}  // namespace multiclass_robustness_detail

const char* safety_verdict_name(SafetyVerdict verdict) {
  switch (verdict) {
    case SafetyVerdict::certified:
      return "certified";
    case SafetyVerdict::refuted:
      return "refuted";
    case SafetyVerdict::unknown:
      return "unknown";
  }
  return "unknown";
}

const char* safety_stop_name(SafetyStop stop) {
  switch (stop) {
    case SafetyStop::decided:
      return "decided";
    case SafetyStop::converged:
      return "converged";
    case SafetyStop::iteration_limit:
      return "iteration_limit";
    case SafetyStop::time_limit:
      return "time_limit";
    case SafetyStop::min_box:
      return "min_box";
    case SafetyStop::cancelled:
      return "cancelled";
  }
  return "unknown";
}

Result<ClassCertificate> certify_class_probability(const MulticlassLaplace& model, const std::vector<double>& point,
                                                   std::size_t class_index, const MulticlassRobustnessOptions& options,
                                                   const ProgressCallback& progress) {
  using namespace multiclass_robustness_detail;
  GPPROBE_RETURN_IF_ERROR(check_request(model, point, options));
  if (class_index >= model.classes()) {
    return Status(StatusCode::invalid_argument, "class " + std::to_string(class_index) +
                                                    " is out of range: the model has " +
                                                    count_of(model.classes(), "class", "classes"));
  }
  Result<RobustnessRegion> made = RobustnessRegion::linf_ball(point, options.gamma, options.dims, options.valid_range);
  if (!made.ok()) return made.status();
  const RobustnessRegion& region = made.value();
  const MulticlassBoxBounds bounds(model, region);
  const LatentPartitionOptions partition = partition_of(options);
  const std::size_t c = class_index;

  ClassCertificate cert;
  cert.class_index = c;
  cert.probability_at_point = model.probability_at(point.data(), options.quadrature);
  for (double p : cert.probability_at_point) {
    if (!std::isfinite(p))
      return Status(StatusCode::numerical_failure, "the probabilities at the point are not finite");
  }
  cert.lower = region.lower();
  cert.upper = region.upper();
  {
    const MulticlassLatentBounds root = bounds.latent(region.box());
    cert.root = bounds.probability(root, {c}, partition).probability[c];
  }
  std::size_t done = 0;
  bool cancelled = false;
  for (Extremum extremum : {Extremum::minimum, Extremum::maximum}) {
    BranchAndBoundOptions search;
    search.tolerance = options.tolerance;
    search.max_iterations = cancelled ? 0 : options.max_iterations;
    search.time_limit_seconds = options.time_limit_seconds;
    search.scales = scales_of(model, region);
    search.progress = [&](std::size_t iterations, std::size_t) {
      return report_progress(progress, done + iterations, 2 * options.max_iterations);
    };
    double best = extremum == Extremum::minimum ? kInfinity : -kInfinity;  // the best value reported so far
    const SoftmaxExpectationOptions cheap = screening_quadrature(options.quadrature);
    const bool screen = cheap.tolerance > options.quadrature.tolerance;
    LatentPartitionOptions one_end = partition;
    one_end.ends =
        extremum == Extremum::minimum ? LatentPartitionOptions::Ends::lower : LatentPartitionOptions::Ends::upper;
    const BoundOracle oracle = [&](const Box& box) {
      MulticlassLatentBounds latent = bounds.latent(box);
      const ClassProbabilityBounds p = bounds.probability(latent, {c}, one_end);
      BoxBound out;
      out.bound = extremum == Extremum::minimum ? p.probability[c].lower : p.probability[c].upper;
      const std::vector<double>* mean_point =
          extremum == Extremum::minimum ? &latent.mean_lower_point[c] : &latent.mean_upper_point[c];
      for (std::vector<double>& x : candidates_of(box, {mean_point})) {
        if (screen) {
          const double rough = bounds.probabilities_at(x, cheap)[c];
          if (std::isfinite(rough) && (extremum == Extremum::minimum ? rough > best + 1e-6 : rough < best - 1e-6))
            continue;
        }
        const double value = bounds.probabilities_at(x, options.quadrature)[c];
        if (std::isfinite(value)) {
          best = extremum == Extremum::minimum ? std::min(best, value) : std::max(best, value);
          out.candidates.push_back({std::move(x), value});
        }
      }
      return out;
    };
    Result<BranchAndBoundResult> r = branch_and_bound(extremum, region.box(), oracle, search);
    if (!r.ok()) return r.status();
    done += r.value().iterations;
    ClassExtreme& out = extremum == Extremum::minimum ? cert.minimum : cert.maximum;
    out = {r.value().lower, r.value().upper, region.full(r.value().witness), r.value().iterations, r.value().status};
    if (out.status == SearchStatus::cancelled) cancelled = true;
    else if (cancelled && out.status != SearchStatus::converged) out.status = SearchStatus::cancelled;
  }
  return cert;
}

Result<SafetyCertificate> certify_safety(const MulticlassLaplace& model, const std::vector<double>& point,
                                         const MulticlassRobustnessOptions& options, const ProgressCallback& progress) {
  using namespace multiclass_robustness_detail;
  GPPROBE_RETURN_IF_ERROR(check_request(model, point, options));
  Result<RobustnessRegion> made = RobustnessRegion::linf_ball(point, options.gamma, options.dims, options.valid_range);
  if (!made.ok()) return made.status();
  const RobustnessRegion& region = made.value();
  const MulticlassBoxBounds bounds(model, region);
  const LatentPartitionOptions partition = partition_of(options);
  const std::size_t C = model.classes();

  SafetyCertificate cert;
  cert.probability_at_point = model.probability_at(point.data(), options.quadrature);
  for (double p : cert.probability_at_point) {
    if (!std::isfinite(p))
      return Status(StatusCode::numerical_failure, "the probabilities at the point are not finite");
  }
  const std::size_t predicted = argmax(cert.probability_at_point);
  cert.predicted_class = predicted;
  cert.lower_end = region.lower();
  cert.upper_end = region.upper();

  bool decided = false, user_stop = false;
  BranchAndBoundOptions search;
  search.tolerance = options.tolerance;
  search.max_iterations = options.max_iterations;
  search.time_limit_seconds = options.time_limit_seconds;
  search.scales = scales_of(model, region);
  search.on_interval = [&](std::size_t, double lower, double upper) { decided = lower > 0.0 || upper < 0.0; };
  search.progress = [&](std::size_t iterations, std::size_t total) {
    if (!report_progress(progress, iterations, total)) {
      user_stop = true;
      return false;
    }
    return !(options.stop_when_decided && decided);
  };
  double best = kInfinity;  // the smallest margin reported so far
  const SoftmaxExpectationOptions cheap = screening_quadrature(options.quadrature);
  const bool screen = cheap.tolerance > options.quadrature.tolerance;
  const BoundOracle oracle = [&](const Box& box) {
    MulticlassLatentBounds latent = bounds.latent(box);
    const ClassProbabilityBounds p = bounds.probability(latent, {}, partition);
    double other_upper = -kInfinity;
    std::size_t runner_up = predicted == 0 ? 1 : 0;
    for (std::size_t c = 0; c < C; ++c) {
      if (c == predicted) continue;
      if (p.probability[c].upper > other_upper) other_upper = p.probability[c].upper, runner_up = c;
    }
    BoxBound out;
    out.bound = p.probability[predicted].lower - other_upper;
    for (std::vector<double>& x :
         candidates_of(box, {&latent.mean_lower_point[predicted], &latent.mean_upper_point[runner_up]})) {
      if (screen) {
        const double rough = margin_of(bounds.probabilities_at(x, cheap), predicted);
        if (std::isfinite(rough) && rough > best + 1e-6) continue;
      }
      const double value = margin_of(bounds.probabilities_at(x, options.quadrature), predicted);
      if (std::isfinite(value)) {
        best = std::min(best, value);
        out.candidates.push_back({std::move(x), value});
      }
    }
    return out;
  };
  Result<BranchAndBoundResult> r = branch_and_bound(Extremum::minimum, region.box(), oracle, search);
  if (!r.ok()) return r.status();
  const BranchAndBoundResult& b = r.value();
  cert.lower = b.lower;
  cert.upper = b.upper;
  cert.iterations = b.iterations;
  cert.witness = region.full(b.witness);
  cert.witness_probabilities = model.probability_at(cert.witness.data(), options.quadrature);
  cert.verdict = b.lower > 0.0   ? SafetyVerdict::certified
                 : b.upper < 0.0 ? SafetyVerdict::refuted
                                 : SafetyVerdict::unknown;
  switch (b.status) {
    case SearchStatus::converged:
      cert.stop = SafetyStop::converged;
      break;
    case SearchStatus::iteration_limit:
      cert.stop = SafetyStop::iteration_limit;
      break;
    case SearchStatus::time_limit:
      cert.stop = SafetyStop::time_limit;
      break;
    case SearchStatus::min_box:
      cert.stop = SafetyStop::min_box;
      break;
    case SearchStatus::cancelled:
      cert.stop = user_stop ? SafetyStop::cancelled : SafetyStop::decided;
      break;
  }
  return cert;
}

}  // namespace gpprobe
