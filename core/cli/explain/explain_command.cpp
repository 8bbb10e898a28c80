// gpprobe explain (--train FILE [gpc's model flags] --point x1,...,xd | --probe FILE.probe.json --query ROW_FILE)
//     --gamma G [--dims i,j,...] [--valid-range LO,HI] [--baseline mean|zero] [--lime-samples N (5000)]
//     [--seed S (0): LIME's, and with --optimize the restarts'] [--tolerance E (0.001)] [--max-iterations N (1000)]
//     [--time-limit S] [--include-constant] [--nearly-constant-share S (0.02)] [--out FILE]
// Why did the model decide that: per feature (each of --dims, all without it) the certified sensitivity
// Delta_gamma of the output (the classifier's p(y = +1), the probe's judged probability) at the point
// (feature_sensitivity.h: an interval [delta_lower, delta_upper] from four certified one-dimensional
// searches and the value from their witnesses), and LIME's coefficient (lime.h: N on/off samples, a
// switched-off feature set to the training mean, or 0 with --baseline zero as for pixels).
// stdout (or --out): CSV feature,delta_lower,delta,delta_upper,lime,rank,constant_in_training,
// nearly_constant_in_training,varying_rows, one row per feature, 17 significant digits; rank is the
// feature's place by certified |Delta| (rank_features), empty for a feature constant or nearly constant in
// the training inputs (or the probe's observations) unless --include-constant; the two marks are yes/no
// and varying_rows the training rows off the feature's most common value (feature_sensitivity.h
// training_variation). stderr: one JSON line with the output at the point, gamma, LIME's intercept, score
// and kernel width, how many searches did not converge, the constant and nearly constant features and
// why they are not ranked, and the seconds each part took.
#include <algorithm>
#include <chrono>
#include <numeric>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>

#include "gpprobe/certify/robustness_region.h"
#include "gpprobe/explain/feature_sensitivity.h"
#include "gpprobe/explain/gpc_output.h"
#include "gpprobe/explain/lime.h"
#include "gpprobe/explain/multiclass_output.h"
#include "gpprobe/explain/probe_output.h"
#include "gpprobe/probe/probe_file.h"

#include "arguments.h"
#include "certify/box_flags.h"
#include "classification/gpc_model_flags.h"
#include "classification/multiclass_model_flags.h"
#include "commands.h"
#include "csv_output.h"
#include "readers/file_messages.h"
#include "readers/loaded_matrix.h"

namespace gpprobe::cli {

namespace {

const char* kExplainUsage =
    "usage: gpprobe explain --train FILE [--method laplace|ep] [--likelihood probit|logistic]\n"
    "           [--signal-variance S] [--length-scales L1,...] [--optimize [--restarts R] [--seed N]\n"
    "           [--signal-variance-prior P] [--length-scale-prior P]] (MAP priors: see gpprobe help gpc)\n"
    "           --point x1,...,xd --gamma G [options]\n"
    "       gpprobe explain --likelihood softmax --train FILE [multi-class gpc's model flags]\n"
    "           --point x1,...,xd --gamma G [--class c] [options]\n"
    "       gpprobe explain --probe FILE.probe.json --query ROW_FILE --gamma G [options]\n"
    "\n"
    "Certified feature sensitivity Delta_gamma (Blaas et al. 2020, eqs. 21-26) of the classifier's\n"
    "p(y = +1) (with --likelihood softmax: class c's probability, c = --class or the predicted class)\n"
    "or the probe's judged probability at the point, beside LIME's local linear surrogate.\n"
    "For feature i, Delta = (pi_max(T+) - pi_max(T-)) + (pi_min(T+) - pi_min(T-)) over the one-sided\n"
    "boxes T+ = [x, x + gamma e_i] and T- = [x - gamma e_i, x]: positive when raising feature i raises\n"
    "the output. Each extreme is certified by branch and bound, so Delta comes as an interval.\n"
    "\n"
    "options:\n"
    "  --dims i,j,...        features to explain (0-based; default all)\n"
    "  --valid-range LO,HI   clip the boxes to it (pixels: 0,1); the point must lie inside\n"
    "  --baseline mean|zero  what LIME switches a feature off to: the training (observations') mean\n"
    "                        (default) or 0 (pixels)\n"
    "  --lime-samples N      LIME's samples, the point included (default 5000)\n"
    "  --seed S              LIME's sampling seed (default 0; with --optimize also the restarts')\n"
    "  --tolerance E         of each certified search (default 0.001)\n"
    "  --max-iterations N    boxes split per search (default 1000)\n"
    "  --time-limit S        seconds for all the searches together, after the fit (default none): one\n"
    "                        clock; searches reached after it bound their box without splitting it\n"
    "                        (sound, wider Delta; stderr's time_limited_features names them)\n"
    "  --include-constant    rank also the features constant or nearly constant in training (see\n"
    "                        below)\n"
    "  --nearly-constant-share S\n"
    "                        a feature whose training values differ from their most common value in\n"
    "                        fewer than max(2, S x n) of the n rows is nearly constant (default 0.02;\n"
    "                        0: mark only constant features; see below)\n"
    "  --out FILE            the CSV (default stdout)\n"
    "\n"
    "CSV: feature,delta_lower,delta,delta_upper,lime,rank,constant_in_training,\n"
    "nearly_constant_in_training,varying_rows (17 significant digits). rank: 1 for the largest\n"
    "certified |Delta| (an interval farther from 0 first, then its far end, then |delta|).\n"
    "constant_in_training: yes when the feature's training values (the probe's observations) span at\n"
    "most 1e-6 of their scale, max(1, largest |value|). varying_rows: how many training rows differ\n"
    "from the feature's most common value; nearly_constant_in_training: yes when that is 1 or more and\n"
    "fewer than max(2, S x n) (--nearly-constant-share). Neither kind (a border pixel that is 0 in\n"
    "every image, or lit in 2 of 500) gets a rank unless --include-constant: moving it moves the point\n"
    "away from (nearly) all the data, so the output drifts towards the prior (1/2, 1/C):\n"
    "distance from the data, not evidence. A length-scale learns only from the pairs of rows that\n"
    "differ in its feature, fewer than 2 x varying_rows / n of them. Its Delta is still printed.\n"
    "stderr: one JSON line with value_at_point, gamma, lime_intercept, lime_score, lime_kernel_width,\n"
    "unconverged_searches, time_limited_features (the features one of whose searches the time limit\n"
    "stopped or skipped), constant_in_training (the constant features), nearly_constant_in_training\n"
    "(the nearly constant ones), sensitivity_seconds, lime_seconds.\n";

struct ExplainRequest {
  SensitivityOptions sensitivity;
  LimeOptions lime;
  bool zero_baseline = false;
  bool include_constant = false;
};

Result<ExplainRequest> read_explain_request(const Arguments& args) {
  ExplainRequest r;
  Result<double> gamma = required_gamma(args, GammaBound::positive);
  if (!gamma.ok()) return gamma.status();
  SensitivityOptions& o = r.sensitivity;
  o.gamma = gamma.value();
  Result<BoxFlags> box = read_box_flags(args, RangeOrder::ordered);
  if (!box.ok()) return box.status();
  apply_box(box.value(), &o);
  Result<SearchLimits> limits = read_search_limits(args, o.tolerance, 1000);
  if (!limits.ok()) return limits.status();
  apply_limits(limits.value(), &o);
  Result<long long> samples = args.integer("lime-samples", 5000), seed = args.integer("seed", 0);
  for (const auto* v : {&samples, &seed})
    if (!v->ok()) return v->status();
  if (samples.value() < 2) {
    return Status(StatusCode::invalid_argument,
                  "--lime-samples must be at least 2, got " + std::to_string(samples.value()));
  }
  r.lime.samples = std::size_t(samples.value());
  r.lime.seed = std::uint64_t(seed.value());
  r.lime.dims = o.dims;
  const std::string baseline = args.get("baseline", "mean");
  if (baseline != "mean" && baseline != "zero") {
    return Status(StatusCode::invalid_argument, "--baseline must be mean or zero, got '" + baseline + "'");
  }
  r.zero_baseline = baseline == "zero";
  r.include_constant = args.has("include-constant");
  Result<double> share = args.number("nearly-constant-share", kNearlyConstantShare);
  if (!share.ok()) return share.status();
  if (!(share.value() >= 0.0 && share.value() <= 1.0)) {
    return Status(StatusCode::invalid_argument,
                  "--nearly-constant-share must be a number in [0, 1], got " + format_number(share.value()));
  }
  o.nearly_constant_share = share.value();
  return r;
}

// Column means of the first `d` columns.
std::vector<double> column_means(const MatrixView& x, std::size_t d) {
  std::vector<double> mean(d, 0.0), row(x.cols());
  for (std::size_t i = 0; i < x.rows(); ++i) {
    x.copy_rows(i, 1, row.data());
    for (std::size_t j = 0; j < d; ++j) mean[j] += row[j];
  }
  for (double& m : mean) m /= double(x.rows());
  return mean;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Both parts on one model, the CSV and the JSON line.
Status explain_and_write(const BoundedOutput& output, const std::vector<double>& point, ExplainRequest& request,
                         const Arguments& args, std::ostream& out, std::ostream& err,
                         const std::string& json_fields = "") {
  auto start = std::chrono::steady_clock::now();
  Result<LocalSensitivity> local = feature_sensitivity(output, point, request.sensitivity);
  if (!local.ok()) return local.status();
  const double sensitivity_seconds = seconds_since(start);
  start = std::chrono::steady_clock::now();
  Result<LimeExplanation> lime = lime_explain(output, point, request.lime);
  if (!lime.ok()) return lime.status();
  const double lime_seconds = seconds_since(start);

  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  os << "feature,delta_lower,delta,delta_upper,lime,rank,constant_in_training,nearly_constant_in_training,"
        "varying_rows\n";
  std::size_t unconverged = 0;
  const std::vector<FeatureSensitivity>& features = local.value().features;
  std::vector<std::size_t> rank(features.size(), 0);
  const std::vector<std::size_t> order = rank_features(local.value(), request.include_constant);
  for (std::size_t r = 0; r < order.size(); ++r) rank[order[r]] = r + 1;
  std::string constant = "[", nearly = "[";
  for (const FeatureSensitivity& f : features) {
    std::string* list = f.constant_in_training ? &constant : f.nearly_constant_in_training ? &nearly : nullptr;
    if (list == nullptr) continue;
    if (list->size() > 1) *list += ',';
    *list += std::to_string(f.feature);
  }
  constant += ']';
  nearly += ']';
  std::string time_limited = "[";
  for (const FeatureSensitivity& f : features)
    if (f.status == SearchStatus::time_limit)
      time_limited += (time_limited.size() > 1 ? "," : "") + std::to_string(f.feature);
  time_limited += ']';
  for (std::size_t a = 0; a < features.size(); ++a) {
    const FeatureSensitivity& f = features[a];
    for (const SideExtremes* side : {&f.minus, &f.plus})
      for (const OutputExtreme* e : {&side->minimum, &side->maximum})
        unconverged += e->status != SearchStatus::converged;
    os << f.feature << ',' << format_number(f.delta_lower) << ',' << format_number(f.delta) << ','
       << format_number(f.delta_upper) << ',' << format_number(lime.value().coefficients[a]) << ','
       << (rank[a] == 0 ? std::string() : std::to_string(rank[a])) << ',' << (f.constant_in_training ? "yes" : "no")
       << ',' << (f.nearly_constant_in_training ? "yes" : "no") << ',' << f.varying_rows << '\n';
  }
  GPPROBE_RETURN_IF_ERROR(csv.finish());
  err << "{" << json_fields << "\"value_at_point\":" << format_number(local.value().value)
      << ",\"gamma\":" << format_number(request.sensitivity.gamma)
      << ",\"lime_intercept\":" << format_number(lime.value().intercept)
      << ",\"lime_score\":" << format_number(lime.value().score)
      << ",\"lime_kernel_width\":" << format_number(lime.value().kernel_width)
      << ",\"unconverged_searches\":" << unconverged << ",\"time_limited_features\":" << time_limited
      << ",\"constant_in_training\":" << constant << ",\"nearly_constant_in_training\":" << nearly
      << ",\"nearly_constant_share\":" << format_number(request.sensitivity.nearly_constant_share)
      << ",\"constant_ranked\":" << (request.include_constant ? "true" : "false")
      << ",\"sensitivity_seconds\":" << format_number(sensitivity_seconds)
      << ",\"lime_seconds\":" << format_number(lime_seconds) << "}\n";
  return Status::success();
}

// The point's checks before the (possibly long) fit, with the flag named: "--dims: coordinate 5 is out of
// range: ...", "--valid-range: the point's coordinate 0 is 1.5, outside the valid range [0, 1]".
Status check_point_flags(const std::vector<double>& point, const SensitivityOptions& o) {
  Result<RobustnessRegion> dims = RobustnessRegion::linf_ball(point, 0.0, o.dims);
  if (!dims.ok()) {
    const bool about_point = dims.status().code() == StatusCode::non_finite;
    return Status(dims.status().code(), (about_point ? "--point: " : "--dims: ") + dims.status().message());
  }
  Result<RobustnessRegion> clipped = RobustnessRegion::linf_ball(point, 0.0, o.dims, o.valid_range);
  if (!clipped.ok()) return Status(StatusCode::invalid_argument, "--valid-range: " + clipped.status().message());
  return Status::success();
}

// The flags explain reads beside a classifier's model flags.
const std::vector<std::string> kExplainFlags = {
    "point",          "gamma",      "dims", "valid-range",          "baseline", "lime-samples", "tolerance",
    "max-iterations", "time-limit", "out",  "nearly-constant-share"};

// The switches explain reads beside a model's.
std::set<std::string> with_explain_switches(std::set<std::string> switches) {
  switches.insert("include-constant");
  return switches;
}

// The arguments the model flags see: --seed is LIME's, so the model sees it only with --optimize (where it
// also seeds the restarts).
Args model_arguments(const Args& raw, const Arguments& args) {
  Args model_args;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == "--seed" && !args.has("optimize")) {
      ++i;
      continue;
    }
    model_args.push_back(raw[i]);
  }
  return model_args;
}

Status explain_classifier(const Args& raw, const Arguments& args, ExplainRequest& request, std::ostream& out,
                          std::ostream& err) {
  if (args.has("query"))
    return Status(StatusCode::invalid_argument, "--query goes with --probe; give --point with --train");
  Result<std::vector<double>> point = required_point(args);
  if (!point.ok()) return point.status();
  const Args model_args = model_arguments(raw, args);
  std::set<std::string> valued = gpc_model_flags();
  valued.insert(kExplainFlags.begin(), kExplainFlags.end());
  Result<Arguments> model_flags = Arguments::parse(model_args, valued, with_explain_switches(gpc_model_switches()));
  if (!model_flags.ok()) return model_flags.status();
  Result<ClassifierModelFlags> flags = parse_gpc_model_flags(model_flags.value());
  if (!flags.ok()) return flags.status();
  Result<LoadedMatrix> train = read_matrix(flags.value().train_path);
  if (!train.ok()) return train.status();
  Result<std::size_t> d = feature_columns(flags.value(), train.value().view());
  if (!d.ok()) return d.status();
  if (point.value().size() != d.value()) {
    return Status(StatusCode::invalid_argument, "--point has " + count_of(point.value().size(), "value") + "; " +
                                                    flags.value().train_path + " has " +
                                                    count_of(d.value(), "feature column"));
  }
  GPPROBE_RETURN_IF_ERROR(check_point_flags(point.value(), request.sensitivity));
  Result<ClassifierModel> model = fit_gpc_model(flags.value(), train.value().view());
  if (!model.ok()) return model.status();
  request.lime.baseline =
      request.zero_baseline ? std::vector<double>(d.value(), 0.0) : column_means(train.value().view(), d.value());
  const ClassifierOutput output(model.value().gpc.common_form());
  return explain_and_write(output, point.value(), request, args, out, err);
}

// --likelihood softmax: class c's probability of the multi-class classifier (multiclass_output.h); c is
// --class, or the class predicted at the point. The JSON line also names the class.
Status explain_multiclass(const Args& raw, const Arguments& args, ExplainRequest& request, std::ostream& out,
                          std::ostream& err) {
  if (args.has("query"))
    return Status(StatusCode::invalid_argument, "--query goes with --probe; give --point with --train");
  if (!args.has("point")) return Status(StatusCode::invalid_argument, "missing --point");
  Result<std::vector<double>> point = args.numbers("point", "");
  if (!point.ok()) return point.status();
  const Args model_args = model_arguments(raw, args);
  std::set<std::string> valued = multiclass_model_flags();
  valued.insert(kExplainFlags.begin(), kExplainFlags.end());
  valued.insert("class");
  Result<Arguments> model_flags =
      Arguments::parse(model_args, valued, with_explain_switches(multiclass_model_switches()));
  if (!model_flags.ok()) return model_flags.status();
  Result<MulticlassModelFlags> flags = parse_multiclass_model_flags(model_flags.value());
  if (!flags.ok()) return flags.status();
  Result<LoadedMatrix> train = read_matrix(flags.value().train_path);
  if (!train.ok()) return train.status();
  if (train.value().cols < 2 || point.value().size() != train.value().cols - 1) {
    return Status(StatusCode::invalid_argument,
                  "--point has " + count_of(point.value().size(), "value") + "; " + flags.value().train_path + " has " +
                      count_of(train.value().cols < 2 ? 0 : train.value().cols - 1, "feature column"));
  }
  const std::size_t d = point.value().size();
  GPPROBE_RETURN_IF_ERROR(check_point_flags(point.value(), request.sensitivity));
  std::optional<long long> asked;
  if (args.has("class")) {
    Result<long long> c = args.integer("class", 0);
    if (!c.ok()) return c.status();
    if (c.value() < 0)
      return Status(StatusCode::invalid_argument, "--class must be >= 0, got " + std::to_string(c.value()));
    asked = c.value();
  }
  Result<MulticlassModel> model = fit_multiclass_model(flags.value(), train.value().view());
  if (!model.ok()) return model.status();
  const MulticlassLaplace& gpc = model.value().model;
  std::size_t c = 0;
  if (asked) {
    if (std::size_t(*asked) >= gpc.classes()) {
      return Status(StatusCode::invalid_argument, "--class is " + std::to_string(*asked) + "; " +
                                                      flags.value().train_path + " has " +
                                                      count_of(gpc.classes(), "class", "classes") + " (0 to " +
                                                      std::to_string(gpc.classes() - 1) + ")");
    }
    c = std::size_t(*asked);
  } else {
    const std::vector<double> p = gpc.probability_at(point.value().data());
    c = std::size_t(std::max_element(p.begin(), p.end()) - p.begin());
  }
  request.lime.baseline = request.zero_baseline ? std::vector<double>(d, 0.0) : column_means(train.value().view(), d);
  Result<MulticlassOutput> output = MulticlassOutput::make(gpc, c);
  if (!output.ok()) return output.status();
  return explain_and_write(output.value(), point.value(), request, args, out, err,
                           "\"class\":" + std::to_string(c) + ",");
}

Status explain_probe(const Arguments& args, ExplainRequest& request, std::ostream& out, std::ostream& err) {
  if (args.has("point"))
    return Status(StatusCode::invalid_argument, "--point goes with --train; give --query with --probe");
  if (args.has("train")) return Status(StatusCode::invalid_argument, "--train and --probe exclude each other");
  Result<std::string> query_path = args.required("query");
  if (!query_path.ok()) return query_path.status();
  const std::string probe_path = args.get("probe", "");
  Result<ProbeFile> file = read_probe_file(probe_path);
  if (!file.ok()) return file.status();
  Result<LoadedMatrix> query = read_matrix(query_path.value());
  if (!query.ok()) return query.status();
  if (query.value().rows != 1) {
    return Status(StatusCode::invalid_argument, query_path.value() + ": has " + count_of(query.value().rows, "row") +
                                                    "; --query expects a file of one row (the query to explain)");
  }
  const std::vector<std::pair<std::string, std::string>> files = {
      {"observations", probe_path}, {"labels", probe_path}, {"label ", probe_path}};
  const ProbeFile& p = file.value();
  Result<Probe> probe = Probe::fit(p.observations.view(), p.labels.data(), p.labels.size(), p.options);
  if (!probe.ok()) return with_file_names(probe.status(), files);
  if (query.value().cols != probe.value().dimension()) {
    return Status(StatusCode::dimension_mismatch, query_path.value() + ": has " +
                                                      count_of(query.value().cols, "column") +
                                                      "; the probe's observations in " + probe_path + " have " +
                                                      count_of(probe.value().dimension(), "column"));
  }
  std::vector<double> point(query.value().cols);
  query.value().view().copy_rows(0, 1, point.data());
  Status checked = check_point_flags(point, request.sensitivity);
  if (!checked.ok()) {
    return Status(checked.code(),
                  query_path.value() + ": " +
                      (checked.message().rfind("--point: ", 0) == 0 ? checked.message().substr(9) : checked.message()));
  }
  request.lime.baseline = request.zero_baseline ? std::vector<double>(point.size(), 0.0)
                                                : column_means(p.observations.view(), point.size());
  Result<ProbeOutput> output = ProbeOutput::make(probe.value());
  if (!output.ok()) return output.status();
  return explain_and_write(output.value(), point, request, args, out, err);
}

Status run(const Args& raw, std::ostream& out, std::ostream& err) {
  for (const std::string& a : raw) {
    if (a == "--help" || a == "-h") {
      out << kExplainUsage;
      return Status::success();
    }
  }
  std::set<std::string> valued = gpc_model_flags();
  valued.insert({"point", "probe", "query", "gamma", "dims", "valid-range", "baseline", "lime-samples", "seed",
                 "tolerance", "max-iterations", "time-limit", "out", "nearly-constant-share"});
  if (wants_softmax(raw)) {
    valued.insert(multiclass_model_flags().begin(), multiclass_model_flags().end());
    valued.insert("class");
  }
  Result<Arguments> parsed = Arguments::parse(
      raw, valued, with_explain_switches(wants_softmax(raw) ? multiclass_model_switches() : gpc_model_switches()));
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  if (args.has("train") == args.has("probe")) {
    return Status(StatusCode::invalid_argument, args.has("train")
                                                    ? "--train and --probe exclude each other"
                                                    : "give --train FILE (a classifier) or --probe FILE.probe.json");
  }
  Result<ExplainRequest> request = read_explain_request(args);
  if (!request.ok()) return request.status();
  if (args.has("train") && wants_softmax(raw)) return explain_multiclass(raw, args, request.value(), out, err);
  if (args.has("class")) return Status(StatusCode::invalid_argument, "--class goes with --likelihood softmax");
  return args.has("train") ? explain_classifier(raw, args, request.value(), out, err)
                           : explain_probe(args, request.value(), out, err);
}

}  // namespace

int explain_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("explain", run(args, out, err), err);
}

}  // namespace gpprobe::cli
