// gpprobe robustness --train FILE [--method laplace|ep] [--likelihood probit|logistic]
//     [--signal-variance S] [--length-scales L1,...] [--optimize [--restarts R] [--seed N]]
//     --point x1,...,xd (--gamma G | --sweep G1,G2,...) [--dims i,j,...] [--valid-range LO,HI]
//     [--tolerance E (0.01)] [--max-iterations N (10000)] [--time-limit S] [--search both|adversarial]
//     [--out FILE]
// Certified robustness of a GP classifier (classifier_robustness.h) at the point over the L-inf ball of radius
// G on the coordinates --dims (all without it; the others stay at the point), clipped to --valid-range.
// stdout (or --out): one JSON object, {"point","dims","tolerance","search", the certificate's fields
// (robustness_json.h), "seconds", "model"}. --sweep G1,G2,... (the paper's Fig. 2) prints instead
// {"point","dims","tolerance","search","probability_at_point","rows":[one certificate per gamma],
// "seconds","model"} and refines only the adversarial extreme unless --search both. --time-limit is the wall time
// of the whole request after the fit (both searches, every gamma of a sweep: one clock, classifier_robustness.h).
// --likelihood softmax: multi-class certificates (multiclass_robustness_command.cpp).
#include <chrono>
#include <ostream>
#include <sstream>

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
  std::vector<double> point, gammas;
  bool sweep = false;
  RobustnessOptions options;
};

Result<Request> read_request(const Arguments& args) {
  Request r;
  Result<std::vector<double>> point = required_point(args);
  if (!point.ok()) return point.status();
  r.point = point.value();
  if (args.has("gamma") == args.has("sweep")) {
    return Status(StatusCode::invalid_argument,
                  args.has("gamma") ? "--gamma and --sweep exclude each other" : "give --gamma G or --sweep G1,G2,...");
  }
  r.sweep = args.has("sweep");
  if (r.sweep) {
    Result<std::vector<double>> gammas = args.numbers("sweep", "");
    if (!gammas.ok()) return gammas.status();
    r.gammas = gammas.value();
    for (double g : r.gammas) {
      if (g < 0.0) return Status(StatusCode::invalid_argument, "--sweep values must be >= 0, got " + format_number(g));
    }
  } else {
    Result<double> gamma = required_gamma(args, GammaBound::non_negative);
    if (!gamma.ok()) return gamma.status();
    r.gammas = {gamma.value()};
  }
  RobustnessOptions& o = r.options;
  o.gamma = r.gammas.front();
  Result<BoxFlags> box = read_box_flags(args, RangeOrder::any);
  if (!box.ok()) return box.status();
  apply_box(box.value(), &o);
  Result<SearchLimits> limits = read_search_limits(args, 0.01, 10000);
  if (!limits.ok()) return limits.status();
  apply_limits(limits.value(), &o);
  Result<RobustnessSearch> search = parse_search(args.get("search", r.sweep ? "adversarial" : "both"));
  if (!search.ok()) return Status(StatusCode::invalid_argument, "--" + search.status().message());
  o.search = search.value();
  return r;
}

Status run(const Args& raw, std::ostream& out) {
  std::set<std::string> valued = gpc_model_flags();
  valued.merge(robustness_flag_names());
  Result<Arguments> parsed = Arguments::parse(raw, valued, gpc_model_switches());
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<ClassifierModelFlags> flags = parse_gpc_model_flags(args);
  if (!flags.ok()) return flags.status();
  Result<Request> request = read_request(args);
  if (!request.ok()) return request.status();
  const Request& r = request.value();

  Result<LoadedMatrix> train = read_matrix(flags.value().train_path);
  if (!train.ok()) return train.status();
  Result<std::size_t> d = feature_columns(flags.value(), train.value().view());
  if (!d.ok()) return d.status();
  GPPROBE_RETURN_IF_ERROR(check_point_size(r.point, flags.value().train_path, d.value()));
  Result<std::vector<std::size_t>> moving = check_region(r.point, r.options.dims, r.options.valid_range);
  if (!moving.ok()) return moving.status();
  Result<ClassifierModel> model = fit_gpc_model(flags.value(), train.value().view());
  if (!model.ok()) return model.status();
  const ClassifierCommonForm& form = model.value().gpc.common_form();

  const std::vector<double> dims(moving.value().begin(), moving.value().end());
  std::ostringstream os;
  os << "{\"point\":" << json_array(r.point) << ",\"dims\":" << json_array(dims)
     << ",\"tolerance\":" << format_number(r.options.tolerance) << ",\"search\":\"" << search_name(r.options.search)
     << "\",";
  const auto start = std::chrono::steady_clock::now();
  if (r.sweep) {
    Result<std::vector<RobustnessCertificate>> rows = robustness_sweep(form, r.point, r.gammas, r.options);
    if (!rows.ok()) return rows.status();
    os << "\"probability_at_point\":" << format_number(rows.value().front().probability_at_point) << ",\"rows\":[";
    for (std::size_t g = 0; g < r.gammas.size(); ++g)
      os << (g ? "," : "") << "{" << certificate_fields(r.gammas[g], rows.value()[g]) << "}";
    os << "]";
  } else {
    Result<RobustnessCertificate> certificate = certify_robustness(form, r.point, r.options);
    if (!certificate.ok()) return certificate.status();
    os << certificate_fields(r.options.gamma, certificate.value());
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  os << ",\"seconds\":" << format_number(seconds) << ",\"model\":{" << gpc_model_fields(model.value(), flags.value())
     << "}}\n";

  CsvOutput output(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(output.status());
  output.stream() << os.str();
  return output.finish();
}

}  // namespace

int robustness_command(const Args& args, std::ostream& out, std::ostream& err) {
  if (wants_softmax(args)) return multiclass_robustness_command(args, out, err);
  return exit_code("robustness", run(args, out), err);
}

}  // namespace gpprobe::cli
