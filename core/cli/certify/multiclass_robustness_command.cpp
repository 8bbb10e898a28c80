// gpprobe robustness --likelihood softmax --train FILE [multi-class model flags] --point x1,...,xd --gamma G
//     [--dims i,j,...] [--valid-range LO,HI] [--class c] [--tolerance E (0.02)] [--max-iterations N (2000)]
//     [--time-limit S] [--out FILE]
// Certified robustness of a multi-class GP classifier (multiclass_robustness.h) at the point over the L-inf
// ball of radius G on --dims (all without it; the others stay at the point), clipped to --valid-range: the
// extremes of class c's probability over the box (c = the predicted class without --class) and the safety
// margin of the predicted class, min over the box of pi^c^ - max_{c != c^} pi^c, with its verdict. stdout
// (or --out): one JSON object
//   {"point","dims","gamma","tolerance","classes","probability_at_point":[C],"class":c,
//    "box":{"lower","upper"},"root":[lo,hi],"minimum":{...},"maximum":{...},
//    "safety":{"predicted_class","margin_lower","margin_upper","witness","witness_probabilities",
//              "status":"certified|refuted|unknown","stop","iterations"},"seconds","model":{...}}
// minimum / maximum as the binary output: lower <= pi^c_min <= upper = pi^c(witness), and
// lower = pi^c(witness) <= pi^c_max <= upper. Each search has its own --max-iterations and --time-limit.
#include <chrono>
#include <cmath>
#include <optional>
#include <ostream>
#include <sstream>

#include "arguments.h"
#include "certify/robustness_json.h"
#include "classification/gpc_model_flags.h"
#include "classification/multiclass_model_flags.h"
#include "commands.h"
#include "csv_output.h"
#include "gpprobe/certify/multiclass_robustness.h"
#include "gpprobe/certify/robustness_region.h"
#include "readers/loaded_matrix.h"

namespace gpprobe::cli {

namespace {

struct Request {
  std::vector<double> point;
  std::optional<std::size_t> class_index;
  MulticlassRobustnessOptions options;
};

Result<Request> read_request(const Arguments& args) {
  Request r;
  for (const char* flag : {"sweep", "search"}) {
    if (args.has(flag)) {
      return Status(StatusCode::invalid_argument,
                    std::string("--") + flag + " is not available with --likelihood softmax (give --gamma G; both "
                                               "extremes of the class and the safety margin are certified)");
    }
  }
  if (!args.has("point")) return Status(StatusCode::invalid_argument, "missing --point");
  Result<std::vector<double>> point = args.numbers("point", "");
  if (!point.ok()) return point.status();
  r.point = point.value();
  if (!args.has("gamma")) return Status(StatusCode::invalid_argument, "missing --gamma");
  Result<double> gamma = args.number("gamma", 0.0);
  if (!gamma.ok()) return gamma.status();
  if (gamma.value() < 0.0) {
    return Status(StatusCode::invalid_argument, "--gamma must be >= 0, got " + format_number(gamma.value()));
  }
  MulticlassRobustnessOptions& o = r.options;
  o.gamma = gamma.value();
  if (args.has("dims")) {
    Result<std::vector<std::size_t>> dims = args.indices("dims", "");
    if (!dims.ok()) return dims.status();
    o.dims = dims.value();
  }
  if (args.has("valid-range")) {
    Result<std::vector<double>> range = args.numbers("valid-range", "");
    if (!range.ok()) return range.status();
    if (range.value().size() != 2) {
      return Status(StatusCode::invalid_argument,
                    "--valid-range expects two numbers LO,HI, got '" + args.get("valid-range", "") + "'");
    }
    o.valid_range = Interval{range.value()[0], range.value()[1]};
  }
  if (args.has("class")) {
    Result<long long> c = args.integer("class", 0);
    if (!c.ok()) return c.status();
    r.class_index = std::size_t(c.value());
  }
  Result<double> tolerance = args.number("tolerance", o.tolerance), time_limit = args.number("time-limit", 0.0);
  for (const auto* v : {&tolerance, &time_limit})
    if (!v->ok()) return v->status();
  if (tolerance.value() < 0.0) {
    return Status(StatusCode::invalid_argument, "--tolerance must be >= 0, got " + format_number(tolerance.value()));
  }
  if (time_limit.value() < 0.0) {
    return Status(StatusCode::invalid_argument, "--time-limit must be >= 0, got " + format_number(time_limit.value()));
  }
  o.tolerance = tolerance.value();
  o.time_limit_seconds = time_limit.value();
  Result<long long> iterations = args.integer("max-iterations", (long long)o.max_iterations);
  if (!iterations.ok()) return iterations.status();
  o.max_iterations = std::size_t(iterations.value());
  return r;
}

std::string extreme(const ClassExtreme& x) {
  std::ostringstream os;
  os << "{\"lower\":" << format_number(x.lower) << ",\"upper\":" << format_number(x.upper)
     << ",\"witness\":" << json_array(x.witness) << ",\"iterations\":" << x.iterations << ",\"status\":\""
     << search_status_name(x.status) << "\"}";
  return os.str();
}

bool finite(const std::vector<double>& values) {
  for (double v : values)
    if (!std::isfinite(v)) return false;
  return true;
}

Status run(const Args& raw, std::ostream& out) {
  std::set<std::string> valued = multiclass_model_flags();
  valued.insert({"point", "gamma", "sweep", "dims", "valid-range", "class", "tolerance", "max-iterations",
                 "time-limit", "search", "out"});
  Result<Arguments> parsed = Arguments::parse(raw, valued, multiclass_model_switches());
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<MulticlassModelFlags> flags = parse_multiclass_model_flags(args);
  if (!flags.ok()) return flags.status();
  Result<Request> request = read_request(args);
  if (!request.ok()) return request.status();
  const Request& r = request.value();

  Result<LoadedMatrix> train = read_matrix(flags.value().train_path);
  if (!train.ok()) return train.status();
  if (train.value().cols >= 2 && r.point.size() != train.value().cols - 1) {
    return Status(StatusCode::invalid_argument, "--point has " + count_of(r.point.size(), "value") + "; " +
                                                    flags.value().train_path + " has " +
                                                    count_of(train.value().cols - 1, "feature column"));
  }
  // The region's checks before the (possibly long) fit, with the flag named.
  Result<RobustnessRegion> dims = RobustnessRegion::linf_ball(r.point, 0.0, r.options.dims);
  if (!dims.ok()) return Status(StatusCode::invalid_argument, "--dims: " + dims.status().message());
  Result<RobustnessRegion> clipped = RobustnessRegion::linf_ball(r.point, 0.0, r.options.dims, r.options.valid_range);
  if (!clipped.ok()) return Status(StatusCode::invalid_argument, "--valid-range: " + clipped.status().message());

  Result<MulticlassModel> model = fit_multiclass_model(flags.value(), train.value().view());
  if (!model.ok()) return model.status();
  const MulticlassLaplace& gpc = model.value().model;
  const std::size_t C = gpc.classes();
  if (r.class_index && *r.class_index >= C) {
    return Status(StatusCode::invalid_argument, "--class is " + std::to_string(*r.class_index) + "; " +
                                                    flags.value().train_path + " has " +
                                                    count_of(C, "class", "classes") + " (0 to " +
                                                    std::to_string(C - 1) + ")");
  }

  const auto start = std::chrono::steady_clock::now();
  Result<SafetyCertificate> safety = certify_safety(gpc, r.point, r.options);
  if (!safety.ok()) return safety.status();
  const SafetyCertificate& s = safety.value();
  const std::size_t c = r.class_index ? *r.class_index : s.predicted_class;
  Result<ClassCertificate> certificate = certify_class_probability(gpc, r.point, c, r.options);
  if (!certificate.ok()) return certificate.status();
  const ClassCertificate& k = certificate.value();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!finite(k.probability_at_point) || !finite({k.minimum.lower, k.minimum.upper, k.maximum.lower, k.maximum.upper,
                                                  s.lower, s.upper}) ||
      !finite(k.minimum.witness) || !finite(k.maximum.witness) || !finite(s.witness)) {
    return Status(StatusCode::numerical_failure, "the certificate of class " + std::to_string(c) +
                                                     " or the safety margin is not finite");
  }

  const std::vector<double> moving(dims.value().dims().begin(), dims.value().dims().end());
  std::ostringstream os;
  os << "{\"point\":" << json_array(r.point) << ",\"dims\":" << json_array(moving)
     << ",\"gamma\":" << format_number(r.options.gamma) << ",\"tolerance\":" << format_number(r.options.tolerance)
     << ",\"classes\":" << C << ",\"probability_at_point\":" << json_array(k.probability_at_point)
     << ",\"class\":" << c << ",\"box\":{\"lower\":" << json_array(k.lower) << ",\"upper\":" << json_array(k.upper)
     << "},\"root\":" << json_array({k.root.lower, k.root.upper}) << ",\"minimum\":" << extreme(k.minimum)
     << ",\"maximum\":" << extreme(k.maximum) << ",\"safety\":{\"predicted_class\":" << s.predicted_class
     << ",\"margin_lower\":" << format_number(s.lower) << ",\"margin_upper\":" << format_number(s.upper)
     << ",\"witness\":" << json_array(s.witness) << ",\"witness_probabilities\":" << json_array(s.witness_probabilities)
     << ",\"status\":\"" << safety_verdict_name(s.verdict) << "\",\"stop\":\"" << safety_stop_name(s.stop)
     << "\",\"iterations\":" << s.iterations << "},\"seconds\":" << format_number(seconds) << ",\"model\":{"
     << multiclass_model_fields(model.value(), flags.value()) << "}}\n";

  CsvOutput output(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(output.status());
  output.stream() << os.str();
  return output.finish();
}

}  // namespace

int multiclass_robustness_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("robustness", run(args, out), err);
}

}  // namespace gpprobe::cli
