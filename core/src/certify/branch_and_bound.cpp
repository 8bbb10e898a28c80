#include "gpprobe/certify/branch_and_bound.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "common/input_checks.h"
#include "common/numeric_constants.h"

namespace gpprobe {

namespace {

// A leaf of the partition. Internally every search is a minimisation: a maximum works on -f.
struct Leaf {
  double bound;
  Box box;
};

// std::push_heap keeps the largest first; "larger" here means a smaller bound.
bool later(const Leaf& a, const Leaf& b) { return a.bound > b.bound; }

Status check_inputs(const Box& root, const BranchAndBoundOptions& options) {
  const std::size_t k = root.lower.size();
  if (root.upper.size() != k) {
    return Status(StatusCode::dimension_mismatch,
                  "the box has " + count_of(k, "lower end") + " and " + count_of(root.upper.size(), "upper end"));
  }
  for (std::size_t j = 0; j < k; ++j) {
    if (!std::isfinite(root.lower[j]) || !std::isfinite(root.upper[j])) {
      return Status(StatusCode::non_finite, "the box's side " + std::to_string(j) + " is not finite");
    }
    if (root.lower[j] > root.upper[j]) {
      return Status(StatusCode::invalid_argument, "the box's side " + std::to_string(j) + " has lower end " +
                                                      number_text(root.lower[j]) + " above its upper end " +
                                                      number_text(root.upper[j]));
    }
  }
  if (!(options.tolerance >= 0.0) || !std::isfinite(options.tolerance)) {
    return Status(StatusCode::invalid_argument,
                  "the tolerance must be finite and >= 0, got " + number_text(options.tolerance));
  }
  if (!options.scales.empty() && options.scales.size() != k) {
    return Status(StatusCode::dimension_mismatch, "the box has " + count_of(k, "side") + " but " +
                                                      count_of(options.scales.size(), "scale") + " were given");
  }
  for (double s : options.scales) {
    if (!(s > 0.0) || !std::isfinite(s)) {
      return Status(StatusCode::invalid_argument, "every scale must be finite and > 0, got " + number_text(s));
    }
  }
  if (!(options.time_limit_seconds >= 0.0) || !(options.min_box_width >= 0.0)) {
    return Status(StatusCode::invalid_argument, "the time limit and the minimum box width must be >= 0");
  }
  return Status::success();
}

}  // namespace

std::vector<double> Box::centre() const {
  std::vector<double> c(lower.size());
  for (std::size_t j = 0; j < c.size(); ++j) c[j] = lower[j] + 0.5 * (upper[j] - lower[j]);
  return c;
}

bool Box::contains(const std::vector<double>& x) const {
  if (x.size() != lower.size()) return false;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (!(x[j] >= lower[j] && x[j] <= upper[j])) return false;
  return true;
}

Result<BranchAndBoundResult> branch_and_bound(Extremum extremum, const Box& root, const BoundOracle& oracle,
                                              const BranchAndBoundOptions& options) {
  GPPROBE_RETURN_IF_ERROR(check_inputs(root, options));
  const double sign = extremum == Extremum::minimum ? 1.0 : -1.0;
  const double tolerance = options.tolerance;
  const auto start = options.started.value_or(std::chrono::steady_clock::now());
  const auto timed_out = [&] {
    return options.time_limit_seconds > 0.0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
               options.time_limit_seconds;
  };

  BranchAndBoundResult result;
  double best = kInfinity;  // U, in the minimised sense

  // Bounds one box: its (sign-adjusted) bound, and U and the witness from its candidates.
  auto bound_box = [&](const Box& box, double* bound) -> Status {
    const BoxBound b = oracle(box);
    ++result.boxes_bounded;
    if (std::isnan(b.bound)) return Status(StatusCode::numerical_failure, "the bound oracle returned NaN");
    *bound = sign * b.bound;
    for (const BoxPoint& c : b.candidates) {
      if (!box.contains(c.point)) {
        return Status(StatusCode::numerical_failure, "the bound oracle returned a candidate outside its box");
      }
      const double value = sign * c.value;
      if (std::isnan(value)) return Status(StatusCode::numerical_failure, "the bound oracle returned a NaN value");
      if (value < *bound) {
        return Status(StatusCode::numerical_failure, "unsound bound oracle: a candidate's value " +
                                                         number_text(c.value) + " lies beyond its box's bound " +
                                                         number_text(b.bound));
      }
      if (value < best) {
        best = value;
        result.witness = c.point;
      }
    }
    return Status::success();
  };

  std::vector<Leaf> open;           // a heap: open.front() has the smallest bound
  double closed_lower = kInfinity;  // min of L_R over the closed leaves
  auto place = [&](Leaf&& leaf) {
    if (leaf.bound < best - tolerance) {
      open.push_back(std::move(leaf));
      std::push_heap(open.begin(), open.end(), later);
    } else {
      closed_lower = std::min(closed_lower, leaf.bound);
    }
  };
  auto global_lower = [&] { return std::min(closed_lower, open.empty() ? kInfinity : open.front().bound); };

  Leaf first{0.0, root};
  GPPROBE_RETURN_IF_ERROR(bound_box(first.box, &first.bound));
  place(std::move(first));

  std::vector<double> scales = options.scales;
  if (scales.empty()) scales.assign(root.dimension(), 1.0);
  while (true) {
    // Closed leaves were closed with L_R >= U - tolerance for an earlier, larger U, so an empty queue
    // means converged (or, with U = L = +inf, that no box holds an admissible point).
    if (open.empty() || best - global_lower() <= tolerance) {
      result.status = SearchStatus::converged;
      break;
    }
    if (result.iterations >= options.max_iterations) {
      result.status = SearchStatus::iteration_limit;
      break;
    }
    if (timed_out()) {
      result.status = SearchStatus::time_limit;
      break;
    }
    std::pop_heap(open.begin(), open.end(), later);
    Leaf leaf = std::move(open.back());
    open.pop_back();

    // Split the widest side, measured in the caller's scales, at its midpoint.
    std::size_t side = 0;
    double widest = -1.0;
    for (std::size_t j = 0; j < leaf.box.dimension(); ++j) {
      const double width = (leaf.box.upper[j] - leaf.box.lower[j]) / scales[j];
      if (width > widest) widest = width, side = j;
    }
    const double lo = widest >= 0.0 ? leaf.box.lower[side] : 0.0, hi = widest >= 0.0 ? leaf.box.upper[side] : 0.0;
    const double middle = lo + 0.5 * (hi - lo);
    if (widest < 0.0 || widest <= options.min_box_width || !(middle > lo && middle < hi)) {
      open.push_back(std::move(leaf));  // its bound stays part of L
      std::push_heap(open.begin(), open.end(), later);
      result.status = SearchStatus::min_box;
      break;
    }
    Leaf left{0.0, leaf.box}, right{0.0, std::move(leaf.box)};
    left.box.upper[side] = middle;
    right.box.lower[side] = middle;
    GPPROBE_RETURN_IF_ERROR(bound_box(left.box, &left.bound));
    // Past the limit the right child is not bounded: it keeps its parent's bound (below), sound over it.
    const bool out_of_time = timed_out();
    if (out_of_time) right.bound = -kInfinity;
    else GPPROBE_RETURN_IF_ERROR(bound_box(right.box, &right.bound));
    left.bound = std::max(left.bound, leaf.bound);  // a child inherits its parent's bound
    right.bound = std::max(right.bound, leaf.bound);
    place(std::move(left));
    place(std::move(right));
    ++result.iterations;  // past the limit, the next turn of the loop stops with time_limit

    if (options.on_interval) {
      const double L = global_lower();
      if (sign > 0) options.on_interval(result.iterations, L, best);
      else options.on_interval(result.iterations, -best, -L);
    }
    if (!report_progress(options.progress, result.iterations, options.max_iterations)) {
      result.status = SearchStatus::cancelled;
      break;
    }
  }

  const double L = std::min(global_lower(), best);  // L <= U also when the oracle's bound is exact
  result.lower = sign > 0 ? L : -best;
  result.upper = sign > 0 ? best : -L;
  return result;
}

}  // namespace gpprobe
