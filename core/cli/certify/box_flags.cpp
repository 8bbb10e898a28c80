#include "certify/box_flags.h"

#include <string>

#include "gpprobe/certify/robustness_region.h"

#include "csv_output.h"

namespace gpprobe::cli {

std::set<std::string> robustness_flag_names() {
  return {"point",     "gamma",          "sweep",      "dims",   "valid-range",
          "tolerance", "max-iterations", "time-limit", "search", "out"};
}

Result<std::vector<double>> required_point(const Arguments& args) {
  if (!args.has("point")) return Status(StatusCode::invalid_argument, "missing --point");
  return args.numbers("point", "");
}

Result<double> required_gamma(const Arguments& args, GammaBound bound) {
  if (!args.has("gamma")) return Status(StatusCode::invalid_argument, "missing --gamma");
  Result<double> gamma = args.number("gamma", 0.0);
  if (!gamma.ok()) return gamma.status();
  const bool positive = bound == GammaBound::positive;
  if (positive ? !(gamma.value() > 0.0) : gamma.value() < 0.0) {
    return Status(StatusCode::invalid_argument, std::string("--gamma must be ") + (positive ? "> 0" : ">= 0") +
                                                    ", got " + format_number(gamma.value()));
  }
  return gamma.value();
}

Result<std::optional<Interval>> read_valid_range(const Arguments& args, RangeOrder order) {
  if (!args.has("valid-range")) return std::optional<Interval>();
  Result<std::vector<double>> range = args.numbers("valid-range", "");
  if (!range.ok()) return range.status();
  const bool ordered = order == RangeOrder::ordered;
  if (range.value().size() != 2 || (ordered && range.value()[0] > range.value()[1])) {
    return Status(StatusCode::invalid_argument, std::string("--valid-range expects two numbers LO,HI") +
                                                    (ordered ? " with LO <= HI" : "") + ", got '" +
                                                    args.get("valid-range", "") + "'");
  }
  return std::optional<Interval>(Interval{range.value()[0], range.value()[1]});
}

Result<BoxFlags> read_box_flags(const Arguments& args, RangeOrder order) {
  BoxFlags box;
  if (args.has("dims")) {
    Result<std::vector<std::size_t>> dims = args.indices("dims", "");
    if (!dims.ok()) return dims.status();
    box.dims = dims.value();
  }
  Result<std::optional<Interval>> range = read_valid_range(args, order);
  if (!range.ok()) return range.status();
  box.valid_range = range.value();
  return box;
}

Result<SearchLimits> read_search_limits(const Arguments& args, double default_tolerance, long long default_iterations) {
  Result<double> tolerance = args.number("tolerance", default_tolerance), time_limit = args.number("time-limit", 0.0);
  for (const auto* v : {&tolerance, &time_limit})
    if (!v->ok()) return v->status();
  if (tolerance.value() < 0.0) {
    return Status(StatusCode::invalid_argument, "--tolerance must be >= 0, got " + format_number(tolerance.value()));
  }
  if (time_limit.value() < 0.0) {
    return Status(StatusCode::invalid_argument, "--time-limit must be >= 0, got " + format_number(time_limit.value()));
  }
  Result<long long> iterations = args.integer("max-iterations", default_iterations);
  if (!iterations.ok()) return iterations.status();
  SearchLimits limits;
  limits.tolerance = tolerance.value();
  limits.time_limit_seconds = time_limit.value();
  limits.max_iterations = std::size_t(iterations.value());
  return limits;
}

Status check_point_size(const std::vector<double>& point, const std::string& train_path, std::size_t features) {
  if (point.size() == features) return Status::success();
  return Status(StatusCode::invalid_argument, "--point has " + count_of(point.size(), "value") + "; " + train_path +
                                                  " has " + count_of(features, "feature column"));
}

Result<std::vector<std::size_t>> check_region(const std::vector<double>& point, const std::vector<std::size_t>& dims,
                                              const std::optional<Interval>& valid_range) {
  Result<RobustnessRegion> moving = RobustnessRegion::linf_ball(point, 0.0, dims);
  if (!moving.ok()) return Status(StatusCode::invalid_argument, "--dims: " + moving.status().message());
  Result<RobustnessRegion> clipped = RobustnessRegion::linf_ball(point, 0.0, dims, valid_range);
  if (!clipped.ok()) return Status(StatusCode::invalid_argument, "--valid-range: " + clipped.status().message());
  return moving.value().dims();
}

}  // namespace gpprobe::cli
