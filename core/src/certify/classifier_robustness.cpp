#include "gpprobe/certify/classifier_robustness.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "gpprobe/certify/box_bounds.h"

#include "common/input_checks.h"

namespace gpprobe {

namespace {

// The bound of one box for one extreme, with pi at its candidates (duplicates evaluated once).
BoxBound bound_box(const ClassifierBoxBounds& bounds, VarianceMethod variance, Extremum extremum, const Box& box) {
  const Box& root = bounds.region().box();
  const bool is_root = box.lower == root.lower && box.upper == root.upper;
  if (variance == VarianceMethod::both && !is_root) variance = VarianceMethod::centred;
  LatentBoxBounds latent = bounds.latent(box, variance);
  const Interval p = bounds.probability(latent);
  BoxBound out;
  out.bound = extremum == Extremum::minimum ? p.lower : p.upper;
  std::vector<std::vector<double>> points;
  for (std::vector<double>* point : {&latent.mean_lower_point, &latent.mean_upper_point, &latent.variance_lower_point,
                                     &latent.variance_upper_point}) {
    if (std::find(points.begin(), points.end(), *point) == points.end()) points.push_back(std::move(*point));
  }
  points.push_back(box.centre());
  const std::vector<double> values = bounds.probabilities_at(points);
  for (std::size_t c = 0; c < points.size(); ++c) out.candidates.push_back({std::move(points[c]), values[c]});
  return out;
}

ProbabilityExtreme extreme_of(const BranchAndBoundResult& r, const RobustnessRegion& region) {
  return {r.lower, r.upper, region.full(r.witness), r.iterations, r.status};
}

VerdictFlip verdict(const RobustnessCertificate& c) {
  if (c.probability_at_point > 0.5) {
    return c.minimum.upper <= 0.5 ? VerdictFlip::yes : c.minimum.lower > 0.5 ? VerdictFlip::no : VerdictFlip::unknown;
  }
  return c.maximum.lower > 0.5 ? VerdictFlip::yes : c.maximum.upper <= 0.5 ? VerdictFlip::no : VerdictFlip::unknown;
}

}  // namespace

namespace {

// The box bounds form squared scaled distances sum_j ((x_j - x_ij) / l_j)^2 between points of the box
// and the training inputs: refused, naming the coordinate, when the largest of them overflows (a box
// beyond the largest double, or so far out that every kernel value underflows in a NaN of inf - inf).
Status check_reach(const ClassifierCommonForm& form, const RobustnessRegion& region) {
  const RowMatrix& x = form.inputs();
  const std::vector<double> lower = region.lower(), upper = region.upper();
  double total = 0.0;
  for (std::size_t j = 0; j < form.dimension(); ++j) {
    const double box = std::max(std::fabs(lower[j]), std::fabs(upper[j]));
    const double inputs = x.col(Eigen::Index(j)).cwiseAbs().maxCoeff();
    const double scaled = (box + inputs) / form.length_scales()[j];
    total += scaled * scaled;
    if (!std::isfinite(total)) {
      return Status(StatusCode::invalid_argument,
                    "the box around the point is too far out for double precision: in coordinate " + std::to_string(j) +
                        " it reaches " + number_text(box, 3) + " (training inputs up to " + number_text(inputs, 3) +
                        ", length-scale " + number_text(form.length_scales()[j], 3) +
                        "), and squared distances over length-scales overflow");
    }
  }
  return Status::success();
}

}  // namespace

Result<RobustnessCertificate> certify_robustness(const ClassifierCommonForm& form, const std::vector<double>& point,
                                                 const RobustnessOptions& options, const ProgressCallback& progress,
                                                 const IntervalCallback& on_interval) {
  const std::chrono::steady_clock::time_point started = options.started.value_or(std::chrono::steady_clock::now());
  if (point.size() != form.dimension()) {
    return Status(StatusCode::dimension_mismatch, "the point has " + count_of(point.size(), "coordinate") +
                                                      ", the training inputs have " +
                                                      count_of(form.dimension(), "column"));
  }
  if (!std::isfinite(options.tolerance) || options.tolerance < 0.0) {
    return Status(StatusCode::invalid_argument,
                  "tolerance must be a finite number >= 0, got " + number_text(options.tolerance));
  }
  Result<RobustnessRegion> made = RobustnessRegion::linf_ball(point, options.gamma, options.dims, options.valid_range);
  if (!made.ok()) return made.status();
  const RobustnessRegion& region = made.value();
  GPPROBE_RETURN_IF_ERROR(check_reach(form, region));
  const ClassifierBoxBounds bounds(form, region);

  RobustnessCertificate cert;
  cert.gamma = options.gamma;
  cert.probability_at_point = form.probability(point.data());
  cert.lower = region.lower();
  cert.upper = region.upper();
  const LatentBoxBounds root = bounds.latent(region.box(), options.variance);
  cert.mean = root.mean;
  cert.variance = root.variance;
  cert.probability = bounds.probability(root);
  cert.gpfgs = gpfgs_attack(form, region);

  const Extremum adversarial = cert.probability_at_point > 0.5 ? Extremum::minimum : Extremum::maximum;
  std::vector<double> scales;
  for (std::size_t j : region.dims()) scales.push_back(form.length_scales()[j]);
  const std::size_t searches = options.search == RobustnessSearch::both ? 2 : 1;
  std::size_t done = 0;
  bool cancelled = false;
  // One clock for the request: the adversarial search (the verdict's) first, the other with what is left.
  const Extremum other = adversarial == Extremum::minimum ? Extremum::maximum : Extremum::minimum;
  for (Extremum extremum : {adversarial, other}) {
    const bool refine = !cancelled && (options.search == RobustnessSearch::both || extremum == adversarial);
    BranchAndBoundOptions search;
    search.tolerance = options.tolerance;
    search.max_iterations = refine ? options.max_iterations : 0;
    search.time_limit_seconds = options.time_limit_seconds;
    search.started = started;
    search.scales = scales;
    search.progress = [&](std::size_t iterations, std::size_t) {
      return report_progress(progress, done + iterations, searches * options.max_iterations);
    };
    if (on_interval) {
      search.on_interval = [&](std::size_t iterations, double lower, double upper) {
        on_interval(extremum, iterations, lower, upper);
      };
    }
    const BoundOracle oracle = [&](const Box& box) { return bound_box(bounds, options.variance, extremum, box); };
    Result<BranchAndBoundResult> r = branch_and_bound(extremum, region.box(), oracle, search);
    if (!r.ok()) return r.status();
    done += r.value().iterations;
    ProbabilityExtreme& out = extremum == Extremum::minimum ? cert.minimum : cert.maximum;
    out = extreme_of(r.value(), region);
    if (out.status == SearchStatus::cancelled) cancelled = true;
    else if (cancelled && out.status != SearchStatus::converged) out.status = SearchStatus::cancelled;
  }
  cert.verdict_can_flip = verdict(cert);
  return cert;
}

Result<std::vector<RobustnessCertificate>> robustness_sweep(const ClassifierCommonForm& form,
                                                            const std::vector<double>& point,
                                                            const std::vector<double>& gammas,
                                                            const RobustnessOptions& options,
                                                            const ProgressCallback& progress) {
  std::vector<RobustnessCertificate> rows;
  rows.reserve(gammas.size());
  RobustnessOptions at = options;
  at.started = options.started.value_or(std::chrono::steady_clock::now());  // one clock for every gamma
  for (std::size_t g = 0; g < gammas.size(); ++g) {
    at.gamma = gammas[g];
    const ProgressCallback within = [&](std::size_t, std::size_t) {
      return report_progress(progress, g, gammas.size());
    };
    Result<RobustnessCertificate> cert = certify_robustness(form, point, at, within);
    if (!cert.ok()) return cert.status();
    rows.push_back(std::move(cert).value());
    if (!report_progress(progress, g + 1, gammas.size())) {
      return Status(StatusCode::cancelled, "the sweep was cancelled after " + count_of(g + 1, "gamma") + " of " +
                                               std::to_string(gammas.size()));
    }
  }
  return rows;
}

}  // namespace gpprobe
