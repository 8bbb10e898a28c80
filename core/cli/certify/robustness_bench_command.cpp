// gpprobe bench-robustness [--n 1000] [--seed 1] [--test-point 0] [--signal-variance S] [--length-scales L1,L2]
//                          [--gammas 0,0.1,...,1.4] [--tolerance 0.02] [--variance both|centred|relaxation]
//                          [--data DIR] [--json]
// Times the robustness paper's Synthetic2D experiment (Fig. 2, left): Laplace probit on n points of
// synthetic_2d_blobs(n, 200, seed), then for each gamma the certificate of test point --test-point over
// the L-inf ball on both coordinates: root bounds, branch and bound on the adversarial extreme to
// --tolerance, and GPFGS. The default hyperparameters are those gpprobe gpc --optimize (L-BFGS from
// S = 1, L = 1) reaches on the default data: fixed here so that every build times the same model.
// --variance relaxation bounds every box with the reference's relaxation alone (the paper's algorithm).
// --data DIR writes that data (robustness_train.csv: x1,x2,label; robustness_test.csv: x1,x2,label).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>

#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/synthetic_classification.h"

#include "arguments.h"
#include "classification/gpc_model_flags.h"
#include "commands.h"
#include "csv_output.h"

namespace gpprobe::cli {

namespace {

constexpr std::size_t kTestPoints = 200;
// gpprobe gpc --optimize (from S = 1, L = 1) on the default data, written by --data: log marginal
// likelihood -6.1644995937246767 after 18 L-BFGS iterations, converged.
constexpr const char* kSignalVariance = "287.65026295470426";
constexpr const char* kLengthScales = "1.4804467757354283,1.1785246532447813";
// The first test point: GPFGS fails there from gamma = 1 on (like the paper's Fig. 2 point).
constexpr long long kTestPoint = 0;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Status write_csv(const std::string& path, const SyntheticClassification& part) {
  std::ofstream os(path, std::ios::binary | std::ios::trunc);
  os << "x1,x2,label\n";
  for (Eigen::Index i = 0; i < part.x.rows(); ++i)
    os << format_number(part.x(i, 0)) << ',' << format_number(part.x(i, 1)) << ',' << part.labels[std::size_t(i)]
       << '\n';
  os.flush();
  if (!os) return Status(StatusCode::io_error, path + ": cannot write the benchmark data");
  return Status::success();
}

Status run(const Args& raw, std::ostream& out) {
  Result<Arguments> parsed = Arguments::parse(
      raw, {"n", "seed", "test-point", "signal-variance", "length-scales", "gammas", "tolerance", "variance", "data"},
      {"json"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<long long> n = args.integer("n", 1000), seed = args.integer("seed", 1),
                    test_point = args.integer("test-point", kTestPoint);
  for (const auto* r : {&n, &seed, &test_point})
    if (!r->ok()) return r->status();
  if (n.value() < 2 || n.value() + std::size_t(kTestPoints) > 1200) {
    return Status(StatusCode::invalid_argument,
                  "--n must be between 2 and 1000 (Synthetic2D has 1,200 points, 200 "
                  "of them for testing), got " +
                      std::to_string(n.value()));
  }
  if (std::size_t(test_point.value()) >= kTestPoints) {
    return Status(StatusCode::invalid_argument,
                  "--test-point must be below 200, got " + std::to_string(test_point.value()));
  }
  Result<double> signal_variance = args.number("signal-variance", std::stod(kSignalVariance));
  Result<std::vector<double>> length_scales = args.numbers("length-scales", kLengthScales);
  Result<std::vector<double>> gammas =
      args.numbers("gammas", "0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1,1.1,1.2,1.3,1.4");
  Result<double> tolerance = args.number("tolerance", 0.02);
  if (!signal_variance.ok()) return signal_variance.status();
  for (const auto* r : {&length_scales, &gammas})
    if (!r->ok()) return r->status();
  if (!tolerance.ok()) return tolerance.status();
  const SeArdKernel kernel{signal_variance.value(), length_scales.value()};
  if (const Status s = kernel.check(2); !s.ok()) return Status(StatusCode::invalid_argument, "--" + s.message());

  const SyntheticSplit data = synthetic_2d_blobs(std::size_t(n.value()), kTestPoints, std::uint64_t(seed.value()));
  const std::string dir = args.get("data", "");
  if (!dir.empty()) {
    GPPROBE_RETURN_IF_ERROR(write_csv(dir + "/robustness_train.csv", data.train));
    GPPROBE_RETURN_IF_ERROR(write_csv(dir + "/robustness_test.csv", data.test));
  }
  auto start = std::chrono::steady_clock::now();
  Result<GpClassifier> gpc =
      GpClassifier::fit(MatrixView(data.train.x), data.train.labels.data(), data.train.labels.size(), kernel);
  if (!gpc.ok()) return gpc.status();
  const double fit_seconds = seconds_since(start);
  const ClassifierCommonForm& form = gpc.value().common_form();
  const Eigen::RowVectorXd row = data.test.x.row(Eigen::Index(test_point.value()));
  const std::vector<double> point(row.data(), row.data() + row.size());

  RobustnessOptions options;
  const Result<VarianceMethod> variance = parse_variance_method(args.get("variance", "both"));
  if (!variance.ok()) return Status(StatusCode::invalid_argument, "--" + variance.status().message());
  options.variance = variance.value();
  options.tolerance = tolerance.value();
  options.search = RobustnessSearch::adversarial;
  std::ostringstream rows;
  double total = 0.0;
  const bool json = args.has("json");
  if (!json) {
    out << "Synthetic2D: n = " << n.value() << ", seed " << seed.value() << ", test point " << test_point.value()
        << ", Laplace probit fit " << fit_seconds << " s; tolerance " << options.tolerance << ", variance bounds "
        << variance_method_name(options.variance) << "\n"
        << "gamma   seconds  iterations  status        root_probability       adversarial_interval   gpfgs\n";
  }
  std::string sense;
  for (std::size_t g = 0; g < gammas.value().size(); ++g) {
    options.gamma = gammas.value()[g];
    start = std::chrono::steady_clock::now();
    Result<RobustnessCertificate> cert = certify_robustness(form, point, options);
    const double seconds = seconds_since(start);
    if (!cert.ok()) return cert.status();
    total += seconds;
    const RobustnessCertificate& c = cert.value();
    const bool minimum = c.probability_at_point > 0.5;
    sense = minimum ? "min" : "max";
    const ProbabilityExtreme& x = minimum ? c.minimum : c.maximum;
    if (json) {
      rows << (g ? "," : "") << "{\"gamma\":" << format_number(options.gamma) << ",\"seconds\":" << seconds
           << ",\"root_probability\":" << json_array({c.probability.lower, c.probability.upper})
           << ",\"interval\":" << json_array({x.lower, x.upper}) << ",\"iterations\":" << x.iterations
           << ",\"status\":\"" << search_status_name(x.status)
           << "\",\"gpfgs_probability\":" << format_number(c.gpfgs.probability) << "}";
    } else {
      char line[200];
      std::snprintf(line, sizeof line, "%5.2f %9.3f %11zu  %-13s [%.4f, %.4f]  [%.4f, %.4f]  %.4f\n", options.gamma,
                    seconds, x.iterations, search_status_name(x.status), c.probability.lower, c.probability.upper,
                    x.lower, x.upper, c.gpfgs.probability);
      out << line;
    }
  }
  if (json) {
    out << "{\"n\":" << n.value() << ",\"seed\":" << seed.value() << ",\"test_point\":" << test_point.value()
        << ",\"point\":" << json_array(point) << ",\"signal_variance\":" << format_number(kernel.signal_variance)
        << ",\"length_scales\":" << json_array(kernel.length_scales)
        << ",\"tolerance\":" << format_number(options.tolerance) << ",\"variance\":\""
        << variance_method_name(options.variance) << "\""
        << ",\"fit_seconds\":" << fit_seconds
        << ",\"probability_at_point\":" << format_number(form.probability(point.data())) << ",\"sense\":\"" << sense
        << "\",\"rows\":[" << rows.str() << "],\"total_seconds\":" << total << "}\n";
  } else {
    out << "total " << total << " s over " << gammas.value().size() << " gammas (" << sense << " side)\n";
  }
  return Status::success();
}

}  // namespace

int robustness_bench_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("bench-robustness", run(args, out), err);
}

}  // namespace gpprobe::cli
