#include "gpprobe/certify/multiclass_robustness.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
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

// The stop of one search's work, asked inside every box's bound (its quadratures, its latent partition), not only
// between boxes: true from the moment the request's time limit (from `start`, the request's; none when 0) has passed
// or the caller's progress callback (asked at most every 50 ms, with the search's own counts) returned false, and
// true from then on.
class WorkStop {
 public:
  using Clock = std::chrono::steady_clock;
  WorkStop(Clock::time_point start, double seconds, const ProgressCallback& progress, std::size_t total)
      : start_(start), seconds_(seconds), progress_(progress), total_(total) {}

  bool operator()() {
    if (fired_) return true;
    const Clock::time_point now = Clock::now();
    if (seconds_ > 0.0 && std::chrono::duration<double>(now - start_).count() >= seconds_) {
      fired_ = true;
      timed_out_ = true;
    } else if (progress_ && now - last_asked_ >= std::chrono::milliseconds(50)) {
      last_asked_ = now;
      if (!progress_(done_, total_)) fired_ = true, cancelled_ = true;
    }
    return fired_;
  }
  std::function<bool()> function() {
    return [this] { return (*this)(); };
  }
  void set_done(std::size_t done) { done_ = done; }
  bool fired() const { return fired_; }
  bool cancelled() const { return cancelled_; }
  bool timed_out() const { return timed_out_; }

 private:
  Clock::time_point start_, last_asked_{};
  double seconds_;
  const ProgressCallback& progress_;
  std::size_t total_, done_ = 0;
  bool fired_ = false, cancelled_ = false, timed_out_ = false;
};

// Sizes the bound terms before they are made: out_of_memory past kMaxBoundTermBytes.
Status check_term_memory(const MulticlassLaplace& model) {
  bool shared = true;
  for (const SeArdKernel& k : model.kernels())
    shared = shared && k.length_scales == model.kernels().back().length_scales;
  const std::size_t bytes = MulticlassBoundTerms::bytes(model.classes(), model.size(), shared);
  if (bytes <= kMaxBoundTermBytes) return Status::success();
  return Status(StatusCode::out_of_memory,
                "certifying a model of " + count_of(model.classes(), "class", "classes") + " and " +
                    count_of(model.size(), "training row") + " needs " + number_text(double(bytes) / 1e9, 3) +
                    " GB for its bound terms (" + std::to_string(model.classes()) + " x " +
                    std::to_string(model.classes() + 1) + " / 2" + (shared ? " + D (D + 1)" : "") + " matrices of " +
                    std::to_string(model.size()) + " x " + std::to_string(model.size()) + "), over the limit of " +
                    number_text(double(kMaxBoundTermBytes) / 1e9, 3) + " GB: use fewer classes or training rows");
}

// The class probabilities at x*, the prediction the certificate is about (as `gpc` computes it, its cost bounded by
// the quadrature's own caps): not cut short by the time limit (its time counts against it), but with the caller's
// cancel, which refuses the certificate (they are its reference values).
Result<std::vector<double>> probabilities_at_point(const MulticlassLaplace& model, const std::vector<double>& point,
                                                   SoftmaxExpectationOptions quadrature,
                                                   const ProgressCallback& progress) {
  WorkStop stop(std::chrono::steady_clock::now(), 0.0, progress, 0);
  quadrature.stop = stop.function();
  Result<MulticlassPrediction> p = model.predict(MatrixView(point.data(), 1, point.size()), quadrature);
  if (stop.fired()) {
    return Status(StatusCode::cancelled,
                  "the certification was cancelled while the class probabilities at the point "
                  "were computed");
  }
  std::vector<double> out;
  if (p.ok()) out.assign(p.value().probability.data(), p.value().probability.data() + p.value().probability.size());
  for (double v : out) {
    if (!std::isfinite(v)) out.clear();
  }
  if (out.empty()) return Status(StatusCode::numerical_failure, "the probabilities at the point are not finite");
  return out;
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

SafetyVerdict safety_verdict(double lower, double upper) {
  if (lower > 0.0) return SafetyVerdict::certified;
  if (upper < 0.0) return SafetyVerdict::refuted;
  return SafetyVerdict::unknown;
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
  const std::chrono::steady_clock::time_point started = options.started.value_or(std::chrono::steady_clock::now());
  GPPROBE_RETURN_IF_ERROR(check_request(model, point, options));
  if (class_index >= model.classes()) {
    return Status(StatusCode::invalid_argument, "class " + std::to_string(class_index) +
                                                    " is out of range: the model has " +
                                                    count_of(model.classes(), "class", "classes"));
  }
  Result<RobustnessRegion> made = RobustnessRegion::linf_ball(point, options.gamma, options.dims, options.valid_range);
  if (!made.ok()) return made.status();
  const RobustnessRegion& region = made.value();
  GPPROBE_RETURN_IF_ERROR(check_term_memory(model));
  const LatentPartitionOptions partition = partition_of(options);
  const std::size_t c = class_index;

  ClassCertificate cert;
  cert.class_index = c;
  cert.lower = region.lower();
  cert.upper = region.upper();
  Result<std::vector<double>> at_point = probabilities_at_point(model, point, options.quadrature, progress);
  if (!at_point.ok()) return at_point.status();
  cert.probability_at_point = at_point.value();
  // The request's limits also hold the setup: the bound terms and the root bound.
  auto first_stop =
      std::make_unique<WorkStop>(started, options.time_limit_seconds, progress, 2 * options.max_iterations);
  const std::vector<double> point_moving = [&] {
    std::vector<double> x;
    for (std::size_t j : region.dims()) x.push_back(point[j]);
    return x;
  }();
  const std::shared_ptr<const MulticlassBoundTerms> terms = MulticlassBoundTerms::make(model, first_stop->function());
  std::optional<MulticlassBoxBounds> bounds;
  if (terms) bounds.emplace(model, region, terms);
  cert.root = {0.0, 1.0};
  if (bounds) {
    LatentPartitionOptions p = partition;
    p.stop = first_stop->function();
    cert.root = bounds->probability(bounds->latent(region.box()), {c}, p).probability[c];
  }
  std::size_t done = 0;
  bool cancelled = false;
  for (Extremum extremum : {Extremum::minimum, Extremum::maximum}) {
    std::unique_ptr<WorkStop> stop =
        extremum == Extremum::minimum
            ? std::move(first_stop)
            : std::make_unique<WorkStop>(started, options.time_limit_seconds, progress, 2 * options.max_iterations);
    BranchAndBoundOptions search;
    search.tolerance = options.tolerance;
    search.max_iterations = cancelled ? 0 : options.max_iterations;
    search.time_limit_seconds = options.time_limit_seconds;
    search.started = started;
    search.scales = scales_of(model, region);
    search.progress = [&](std::size_t iterations, std::size_t) {
      stop->set_done(done + iterations);
      // A stop inside a box's bound ends the search too (its later boxes would only get the trivial bound).
      return report_progress(progress, done + iterations, 2 * options.max_iterations) && !stop->fired();
    };
    double best = extremum == Extremum::minimum ? kInfinity : -kInfinity;  // the best value reported so far
    const SoftmaxExpectationOptions cheap = screening_quadrature(options.quadrature);
    const bool screen = cheap.tolerance > options.quadrature.tolerance;
    LatentPartitionOptions one_end = partition;
    one_end.ends =
        extremum == Extremum::minimum ? LatentPartitionOptions::Ends::lower : LatentPartitionOptions::Ends::upper;
    one_end.stop = stop->function();
    // Once the search's stop has fired a box gets the trivial bound (0 below, 1 above) and no candidates: a bound
    // cut short is still sound, and a candidate whose quadrature was cut short is not reported.
    const double trivial = extremum == Extremum::minimum ? 0.0 : 1.0;
    const BoundOracle oracle = [&](const Box& box) {
      BoxBound out;
      out.bound = trivial;
      if (!bounds || (*stop)()) return out;
      MulticlassLatentBounds latent = bounds->latent(box);
      const ClassProbabilityBounds p = bounds->probability(latent, {c}, one_end);
      out.bound = extremum == Extremum::minimum ? p.probability[c].lower : p.probability[c].upper;
      const std::vector<double>* mean_point =
          extremum == Extremum::minimum ? &latent.mean_lower_point[c] : &latent.mean_upper_point[c];
      for (std::vector<double>& x : candidates_of(box, {mean_point})) {
        if (screen) {
          SoftmaxExpectationOptions q = cheap;
          q.stop = stop->function();
          const double rough = bounds->probabilities_at(x, q)[c];
          if (stop->fired()) break;
          if (std::isfinite(rough) && (extremum == Extremum::minimum ? rough > best + 1e-6 : rough < best - 1e-6))
            continue;
        }
        SoftmaxExpectationOptions q = options.quadrature;
        q.stop = stop->function();
        const double value = bounds->probabilities_at(x, q)[c];
        if (stop->fired()) break;
        if (std::isfinite(value)) {
          best = extremum == Extremum::minimum ? std::min(best, value) : std::max(best, value);
          out.candidates.push_back({std::move(x), value});
        }
      }
      return out;
    };
    Result<BranchAndBoundResult> r = branch_and_bound(extremum, region.box(), oracle, search);
    if (!r.ok()) return r.status();
    BranchAndBoundResult b = std::move(r).value();
    done += b.iterations;
    if (b.witness.empty()) {  // no candidate was finished: x* itself, whose value is known
      b.witness = point_moving;
      if (extremum == Extremum::minimum) {
        b.upper = cert.probability_at_point[c];
        b.lower = std::min(b.lower, b.upper);
      } else {
        b.lower = cert.probability_at_point[c];
        b.upper = std::max(b.upper, b.lower);
      }
    }
    if (stop->fired() && b.status != SearchStatus::converged)
      b.status = stop->cancelled() ? SearchStatus::cancelled : SearchStatus::time_limit;
    ClassExtreme& out = extremum == Extremum::minimum ? cert.minimum : cert.maximum;
    out = {b.lower, b.upper, region.full(b.witness), b.iterations, b.status};
    if (out.status == SearchStatus::cancelled) cancelled = true;
    else if (cancelled && out.status != SearchStatus::converged) out.status = SearchStatus::cancelled;
  }
  return cert;
}

Result<SafetyCertificate> certify_safety(const MulticlassLaplace& model, const std::vector<double>& point,
                                         const MulticlassRobustnessOptions& options, const ProgressCallback& progress) {
  using namespace multiclass_robustness_detail;
  const std::chrono::steady_clock::time_point started = options.started.value_or(std::chrono::steady_clock::now());
  GPPROBE_RETURN_IF_ERROR(check_request(model, point, options));
  Result<RobustnessRegion> made = RobustnessRegion::linf_ball(point, options.gamma, options.dims, options.valid_range);
  if (!made.ok()) return made.status();
  const RobustnessRegion& region = made.value();
  GPPROBE_RETURN_IF_ERROR(check_term_memory(model));
  const LatentPartitionOptions partition = partition_of(options);
  const std::size_t C = model.classes();

  SafetyCertificate cert;
  Result<std::vector<double>> at_point = probabilities_at_point(model, point, options.quadrature, progress);
  if (!at_point.ok()) return at_point.status();
  // The request's limits hold all of the work after the prediction: the bound terms and every box's bound.
  WorkStop stop(started, options.time_limit_seconds, progress, options.max_iterations);
  cert.probability_at_point = at_point.value();
  const std::size_t predicted = argmax(cert.probability_at_point);
  cert.predicted_class = predicted;
  cert.lower_end = region.lower();
  cert.upper_end = region.upper();
  const std::shared_ptr<const MulticlassBoundTerms> terms = MulticlassBoundTerms::make(model, stop.function());
  std::optional<MulticlassBoxBounds> bounds;
  if (terms) bounds.emplace(model, region, terms);
  LatentPartitionOptions all_classes = partition;
  all_classes.stop = stop.function();

  bool decided = false, user_stop = false;
  BranchAndBoundOptions search;
  search.tolerance = options.tolerance;
  search.max_iterations = options.max_iterations;
  search.time_limit_seconds = options.time_limit_seconds;
  search.started = started;
  search.scales = scales_of(model, region);
  search.on_interval = [&](std::size_t, double lower, double upper) { decided = lower > 0.0 || upper < 0.0; };
  search.progress = [&](std::size_t iterations, std::size_t total) {
    stop.set_done(iterations);
    if (!report_progress(progress, iterations, total)) {
      user_stop = true;
      return false;
    }
    if (options.stop_when_decided && decided) return false;
    return !stop.fired();  // a stop inside a box's bound ends the search too
  };
  double best = kInfinity;  // the smallest margin reported so far
  const SoftmaxExpectationOptions cheap = screening_quadrature(options.quadrature);
  const bool screen = cheap.tolerance > options.quadrature.tolerance;
  // Once the stop has fired a box gets the trivial bound -1 and no candidates (see certify_class_probability).
  const BoundOracle oracle = [&](const Box& box) {
    BoxBound out;
    out.bound = -1.0;
    if (!bounds || stop()) return out;
    MulticlassLatentBounds latent = bounds->latent(box);
    const ClassProbabilityBounds p = bounds->probability(latent, {}, all_classes);
    double other_upper = -kInfinity;
    std::size_t runner_up = predicted == 0 ? 1 : 0;
    for (std::size_t c = 0; c < C; ++c) {
      if (c == predicted) continue;
      if (p.probability[c].upper > other_upper) other_upper = p.probability[c].upper, runner_up = c;
    }
    out.bound = p.probability[predicted].lower - other_upper;
    for (std::vector<double>& x :
         candidates_of(box, {&latent.mean_lower_point[predicted], &latent.mean_upper_point[runner_up]})) {
      if (screen) {
        SoftmaxExpectationOptions q = cheap;
        q.stop = stop.function();
        const double rough = margin_of(bounds->probabilities_at(x, q), predicted);
        if (stop.fired()) break;
        if (std::isfinite(rough) && rough > best + 1e-6) continue;
      }
      SoftmaxExpectationOptions q = options.quadrature;
      q.stop = stop.function();
      const double value = margin_of(bounds->probabilities_at(x, q), predicted);
      if (stop.fired()) break;
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
  std::vector<double> witness = b.witness;
  if (witness.empty()) {  // no candidate was finished: x* itself, whose margin is known
    for (std::size_t j : region.dims()) witness.push_back(point[j]);
    cert.upper = margin_of(cert.probability_at_point, predicted);
    cert.lower = std::min(cert.lower, cert.upper);
    cert.witness = region.full(witness);
    cert.witness_probabilities = cert.probability_at_point;
  } else {
    cert.witness = region.full(witness);
    cert.witness_probabilities = model.probability_at(cert.witness.data(), options.quadrature);
  }
  cert.verdict = safety_verdict(cert.lower, cert.upper);
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
      cert.stop = user_stop                              ? SafetyStop::cancelled
                  : options.stop_when_decided && decided ? SafetyStop::decided
                  : stop.cancelled()                     ? SafetyStop::cancelled
                                                         : SafetyStop::time_limit;
      break;
  }
  // A stop inside a box's bound (the time limit, or a cancel asked from inside) is the search's stop.
  if (stop.fired() && cert.stop != SafetyStop::converged && cert.stop != SafetyStop::decided)
    cert.stop = stop.cancelled() ? SafetyStop::cancelled : SafetyStop::time_limit;
  return cert;
}

Result<MulticlassRobustnessCertificate> certify_multiclass_robustness(const MulticlassLaplace& model,
                                                                      const std::vector<double>& point,
                                                                      std::optional<std::size_t> class_index,
                                                                      const MulticlassRobustnessOptions& options,
                                                                      const ProgressCallback& progress) {
  if (class_index && *class_index >= model.classes()) {
    return Status(StatusCode::invalid_argument, "class " + std::to_string(*class_index) +
                                                    " is out of range: the model has " +
                                                    count_of(model.classes(), "class", "classes"));
  }
  MulticlassRobustnessOptions request = options;
  request.started = options.started.value_or(std::chrono::steady_clock::now());  // one clock for all three searches
  Result<SafetyCertificate> safety = certify_safety(model, point, request, progress);
  if (!safety.ok()) return safety.status();
  const std::size_t c = class_index ? *class_index : safety.value().predicted_class;
  Result<ClassCertificate> extremes = certify_class_probability(model, point, c, request, progress);
  if (!extremes.ok()) return extremes.status();
  return MulticlassRobustnessCertificate{std::move(safety).value(), std::move(extremes).value(), options.gamma};
}

}  // namespace gpprobe
