// gpprobe bench-gpc [--n 1000] [--dimensions 2,10] [--test 10000] [--seed 7] [--data DIR] [--json]
// Times GP classification on seeded synthetic data (synthetic_classification.h), per dimension and
// approximation (Laplace probit, Laplace logistic, EP probit):
//   fit       GpClassifier::fit without the gradient (mode or EP sites, LML, common form)
//   evidence  one log marginal likelihood with its gradient (the cost of one optimiser step)
//   predict   latent mean, latent variance and probability at the test points
// --data DIR also writes the data (gpc_d<d>_train.csv: features then label; gpc_d<d>_test.csv) and
// gpc_bench.json (files and kernel) so scikit-learn can time the same work (scripts/bench/bench_gpc.mjs).
#include <chrono>
#include <fstream>
#include <ostream>
#include <sstream>

#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/synthetic_classification.h"
#include "gpprobe/linalg/row_products.h"

#include "arguments.h"
#include "commands.h"
#include "csv_output.h"

namespace gpprobe::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Status write_csv(const std::string& path, const RowMatrix& x, const std::vector<double>* labels) {
  std::ofstream os(path, std::ios::binary | std::ios::trunc);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (Eigen::Index j = 0; j < x.cols(); ++j) os << (j ? "," : "") << format_number(x(i, j));
    if (labels) os << ',' << (*labels)[std::size_t(i)];
    os << '\n';
  }
  os.flush();
  if (!os) return Status(StatusCode::io_error, path + ": cannot write the benchmark data");
  return Status::success();
}

struct Approximation {
  const char* name;
  ClassifierMethod method;
  ClassifierLikelihood likelihood;
};
constexpr Approximation kApproximations[] = {
    {"laplace-probit", ClassifierMethod::laplace, ClassifierLikelihood::probit},
    {"laplace-logistic", ClassifierMethod::laplace, ClassifierLikelihood::logistic},
    {"ep-probit", ClassifierMethod::ep, ClassifierLikelihood::probit}};

Status run(const Args& raw, std::ostream& out) {
  Result<Arguments> parsed = Arguments::parse(raw, {"n", "dimensions", "test", "seed", "data"}, {"json"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<std::vector<std::size_t>> dimensions = args.counts("dimensions", "2,10");
  if (!dimensions.ok()) return dimensions.status();
  Result<long long> n = args.integer("n", 1000), m = args.integer("test", 10000), seed = args.integer("seed", 7);
  for (const auto* r : {&n, &m, &seed})
    if (!r->ok()) return r->status();
  if (n.value() == 0 || m.value() == 0)
    return Status(StatusCode::invalid_argument, "--n and --test must be at least 1");
  const std::string dir = args.get("data", "");
  const bool json = args.has("json");

  std::ostringstream meta;
  meta << "{\"n\":" << n.value() << ",\"test\":" << m.value() << ",\"seed\":" << seed.value() << ",\"cases\":[";
  if (json) out << "[";
  else
    out << "backend: " << row_products_backend() << "; n = " << n.value() << ", " << m.value() << " test points\n"
        << "   d  approximation      fit_s  evidence_s  predict_s  iterations\n";
  bool first = true;
  for (std::size_t d : dimensions.value()) {
    const SyntheticClassification train =
        synthetic_classification(std::size_t(n.value()), d, std::uint64_t(seed.value()));
    const RowMatrix test = synthetic_classification(std::size_t(m.value()), d, std::uint64_t(seed.value()) + 1).x;
    const SeArdKernel kernel = synthetic_classification_kernel(d);
    if (!dir.empty()) {
      const std::string stem = dir + "/gpc_d" + std::to_string(d);
      GPPROBE_RETURN_IF_ERROR(write_csv(stem + "_train.csv", train.x, &train.labels));
      GPPROBE_RETURN_IF_ERROR(write_csv(stem + "_test.csv", test, nullptr));
      meta << (d == dimensions.value().front() ? "" : ",") << "{\"dimension\":" << d << ",\"train\":\"" << stem
           << "_train.csv\",\"test\":\"" << stem
           << "_test.csv\",\"signal_variance\":" << format_number(kernel.signal_variance)
           << ",\"length_scale\":" << format_number(kernel.length_scales[0]) << "}";
    }
    Result<ClassifierTrainingData> data =
        make_gpc_training_data(MatrixView(train.x), train.labels.data(), train.labels.size());
    if (!data.ok()) return data.status();
    for (const Approximation& a : kApproximations) {
      ClassifierOptions options;
      options.method = a.method;
      options.likelihood = a.likelihood;
      options.with_gradient = false;
      auto start = std::chrono::steady_clock::now();
      Result<GpClassifier> gpc = GpClassifier::fit(data.value(), kernel, options);
      const double fit_s = seconds_since(start);
      if (!gpc.ok()) return gpc.status();
      options.with_gradient = true;
      start = std::chrono::steady_clock::now();
      Result<ClassifierEvidence> evidence = gpc_log_marginal_likelihood(data.value(), kernel, options);
      const double evidence_s = seconds_since(start);
      if (!evidence.ok()) return evidence.status();
      std::vector<double> mean(test.rows()), variance(mean.size()), probability(mean.size());
      start = std::chrono::steady_clock::now();
      GPPROBE_RETURN_IF_ERROR(
          gpc.value().predict(MatrixView(test), {mean.data(), variance.data(), probability.data()}));
      const double predict_s = seconds_since(start);
      if (json) {
        out << (first ? "" : ",") << "{\"dimension\":" << d << ",\"approximation\":\"" << a.name
            << "\",\"fit_seconds\":" << fit_s << ",\"evidence_seconds\":" << evidence_s
            << ",\"predict_seconds\":" << predict_s << ",\"iterations\":" << gpc.value().iterations()
            << ",\"log_marginal_likelihood\":" << format_number(gpc.value().log_marginal_likelihood())
            << ",\"checksum\":" << format_number(probability.front() + variance.back()) << "}";
      } else {
        char line[160];
        std::snprintf(line, sizeof line, "%4zu  %-16s %7.3f %11.3f %10.3f %11zu\n", d, a.name, fit_s, evidence_s,
                      predict_s, gpc.value().iterations());
        out << line;
      }
      first = false;
    }
  }
  if (json) out << "]\n";
  if (!dir.empty()) {
    std::ofstream os(dir + "/gpc_bench.json", std::ios::binary | std::ios::trunc);
    os << meta.str() << "]}\n";
    if (!os) return Status(StatusCode::io_error, dir + "/gpc_bench.json: cannot write the benchmark description");
  }
  return Status::success();
}

}  // namespace

int gpc_bench_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("bench-gpc", run(args, out), err);
}

}  // namespace gpprobe::cli
