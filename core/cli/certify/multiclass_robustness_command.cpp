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
// lower = pi^c(witness) <= pi^c_max <= upper. Each search has its own --max-iterations; --time-limit is the wall time
// of the whole certificate after the fit (the three searches share one clock, multiclass_robustness.h), held inside
// every box's bound too; the bound terms are sized first (1 GiB).
#include <chrono>
#include <cmath>
#include <optional>
#include <ostream>
#include <sstream>

#include "gpprobe/certify/multiclass_robustness.h"
#include "gpprobe/certify/robustness_region.h"

#include "arguments.h"
#include "certify/box_flags.h"
#include "certify/robustness_json.h"
#include "classification/gpc_model_flags.h"
#include "classification/multiclass_model_flags.h"
#include "commands.h"
#include "csv_output.h"
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
                    std::string("--") + flag +
                        " is not available with --likelihood softmax (give --gamma G; both "
                        "extremes of the class and the safety margin are certified)");
    }
  }
  Result<std::vector<double>> point = required_point(args);
  if (!point.ok()) return point.status();
  r.point = point.value();
  Result<double> gamma = required_gamma(args, GammaBound::non_negative);
  if (!gamma.ok()) return gamma.status();
  MulticlassRobustnessOptions& o = r.options;
  o.gamma = gamma.value();
  Result<BoxFlags> box = read_box_flags(args, RangeOrder::any);
  if (!box.ok()) return box.status();
  apply_box(box.value(), &o);
  if (args.has("class")) {
    Result<long long> c = args.integer("class", 0);
    if (!c.ok()) return c.status();
    r.class_index = std::size_t(c.value());
  }
  Result<SearchLimits> limits = read_search_limits(args, o.tolerance, (long long)o.max_iterations);
  if (!limits.ok()) return limits.status();
  apply_limits(limits.value(), &o);
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
  valued.merge(robustness_flag_names());
  valued.insert("class");
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
  if (train.value().cols >= 2) {
    GPPROBE_RETURN_IF_ERROR(check_point_size(r.point, flags.value().train_path, train.value().cols - 1));
  }
  // The region's checks before the (possibly long) fit, with the flag named.
  Result<std::vector<std::size_t>> dims = check_region(r.point, r.options.dims, r.options.valid_range);
  if (!dims.ok()) return dims.status();

  Result<MulticlassModel> model = fit_multiclass_model(flags.value(), train.value().view());
  if (!model.ok()) return model.status();
  const MulticlassLaplace& gpc = model.value().model;
  const std::size_t C = gpc.classes();
  if (r.class_index && *r.class_index >= C) {
    return Status(StatusCode::invalid_argument,
                  "--class is " + std::to_string(*r.class_index) + "; " + flags.value().train_path + " has " +
                      count_of(C, "class", "classes") + " (0 to " + std::to_string(C - 1) + ")");
  }

  const auto start = std::chrono::steady_clock::now();
  // One clock for the three searches: --time-limit is the wall time of the whole certificate after the fit.
  Result<MulticlassRobustnessCertificate> certificate =
      certify_multiclass_robustness(gpc, r.point, r.class_index, r.options);
  if (!certificate.ok()) return certificate.status();
  const SafetyCertificate& s = certificate.value().safety;
  const ClassCertificate& k = certificate.value().extremes;
  const std::size_t c = k.class_index;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!finite(k.probability_at_point) ||
      !finite({k.minimum.lower, k.minimum.upper, k.maximum.lower, k.maximum.upper, s.lower, s.upper}) ||
      !finite(k.minimum.witness) || !finite(k.maximum.witness) || !finite(s.witness)) {
    return Status(StatusCode::numerical_failure,
                  "the certificate of class " + std::to_string(c) + " or the safety margin is not finite");
  }

  const std::vector<double> moving(dims.value().begin(), dims.value().end());
  std::ostringstream os;
  os << "{\"point\":" << json_array(r.point) << ",\"dims\":" << json_array(moving)
     << ",\"gamma\":" << format_number(r.options.gamma) << ",\"tolerance\":" << format_number(r.options.tolerance)
     << ",\"classes\":" << C << ",\"probability_at_point\":" << json_array(k.probability_at_point) << ",\"class\":" << c
     << ",\"box\":{\"lower\":" << json_array(k.lower) << ",\"upper\":" << json_array(k.upper)
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
