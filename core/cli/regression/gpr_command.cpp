// gpprobe gpr --train F --test F [--kernel NAME] [--PARAMETER V ...] [--noise-variance N] [--optimize]
//              [--restarts R] [--seed S] [--signal-variance-prior P] [--length-scale-prior P] [--rho R]
//              [--theta T] [--out F]
// The priors (gpc_model_flags.h, with --optimize) go on log constant.value and every log length-scale.
// Exact GP regression: train CSV = feature columns then y; test CSV = the same feature columns, and y
// optionally. Writes mean,latent_variance,observation_variance,knowledge (+ status when the test file
// has y) and one JSON line on stderr with the hyperparameters and the log marginal likelihood.
//
// The kernel is a named kernel (named_kernels.h) and each of its parameters is set by a flag spelled
// from the parameter's one name, '.' and '_' written '-': constant.value is --constant-value,
// rbf.length_scale --rbf-length-scale, periodic.period --periodic-period. The flags of the first
// version (--variance, --lengthscale, --period, --decay, --offset, --noise) are read as aliases.
#include <algorithm>
#include <ostream>
#include <set>
#include <sstream>
#include <vector>

#include "gpprobe/kernels/kernel_parameters.h"
#include "gpprobe/kernels/named_kernels.h"
#include "gpprobe/regression/anomaly_detection.h"
#include "gpprobe/regression/gp_regression.h"
#include "gpprobe/regression/hyperparameter_fit.h"

#include "arguments.h"
#include "classification/gpc_model_flags.h"
#include "commands.h"
#include "csv_output.h"
#include "readers/delimited_reader.h"
#include "readers/train_test.h"

namespace gpprobe::cli {

namespace {

// Core messages name "training ..." / "test ..."; say which file that was.
Status with_files(const Status& s, const std::string& train, const std::string& test) {
  const std::string& m = s.message();
  if (m.rfind("training", 0) == 0) return Status(s.code(), train + ": " + m);
  if (m.rfind("test", 0) == 0) return Status(s.code(), test + ": " + m);
  return s;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

std::string summary(const GpRegression& gp, bool optimized, std::size_t restarts, const std::string& prior = "") {
  std::ostringstream os;
  os << "{\"kernel\":" << json_string(gp.kernel().describe()) << ",\"parameters\":{";
  bool first = true;
  for (const KernelParameter& p : gp.kernel().parameters()) {
    os << (first ? "" : ",") << json_string(p.name) << ":" << format_number(p.value);
    first = false;
  }
  os << "},\"" << kNoiseVariance << "\":" << format_number(gp.noise_variance())
     << ",\"mean\":" << format_number(gp.mean())
     << ",\"log_marginal_likelihood\":" << format_number(gp.log_marginal_likelihood())
     << ",\"optimized\":" << (optimized ? "true" : "false") << ",\"restarts\":" << restarts
     << (prior.empty() ? "" : "," + prior) << "}";
  return os.str();
}

// "rbf.length_scale" -> "rbf-length-scale".
std::string flag_of(const std::string& parameter) {
  std::string flag = parameter;
  for (char& c : flag)
    if (c == '.' || c == '_') c = '-';
  return flag;
}

// The old spellings and the parameter each stands for in `kernel` ("" when the kernel has none).
struct Alias {
  const char* flag;
  std::string parameter;
};

std::vector<Alias> aliases(const Kernel& kernel) {
  std::string base_length_scale;  // the base kernel's: periodic.length_scale in locally-periodic
  for (const KernelParameter& p : kernel.parameters()) {
    const std::string suffix = ".length_scale";
    if (base_length_scale.empty() && p.name.size() > suffix.size() &&
        p.name.compare(p.name.size() - suffix.size(), suffix.size(), suffix) == 0)
      base_length_scale = p.name;
  }
  return {{"variance", "constant.value"}, {"lengthscale", base_length_scale}, {"period", "periodic.period"},
          {"decay", "rbf.length_scale"},  {"offset", "linear.offset"},        {"noise", kNoiseVariance}};
}

// Every flag gpr reads: its own, one per parameter of every named kernel, and the old spellings.
std::set<std::string> valued_flags() {
  std::set<std::string> flags{"train",
                              "test",
                              "kernel",
                              "restarts",
                              "seed",
                              "rho",
                              "theta",
                              "out",
                              flag_of(kNoiseVariance),
                              "signal-variance-prior",
                              "length-scale-prior"};
  for (const NamedKernel& k : named_kernels())
    for (const KernelParameter& p : k.kernel.parameters()) flags.insert(flag_of(p.name));
  for (const Alias& a : aliases(Kernel::cosine())) flags.insert(a.flag);
  return flags;
}

// The kernel NAME with its parameters from their flags, and the noise variance.
Status read_model(const Arguments& args, Kernel* kernel, double* noise_variance) {
  const std::string name = args.get("kernel", named_kernels().front().name);
  Result<Kernel> named = named_kernel(name);
  if (!named.ok()) return Status(named.status().code(), "--" + named.status().message());
  std::vector<std::string> names;
  std::vector<double> values;
  const auto take = [&](const std::string& flag, const std::string& parameter) -> Status {
    Result<double> v = args.number(flag, 0.0);
    if (!v.ok()) return v.status();
    if (parameter == kNoiseVariance) {
      *noise_variance = v.value();
      return Status::success();
    }
    if (parameter.empty())
      return Status(StatusCode::invalid_argument, "--" + flag + ": the " + name + " kernel has no such parameter");
    names.push_back(parameter);
    values.push_back(v.value());
    return Status::success();
  };
  *noise_variance = kDefaultNoiseVariance;
  for (const Alias& a : aliases(named.value())) {
    if (!args.has(a.flag)) continue;
    const std::string canonical = a.parameter.empty() ? "" : flag_of(a.parameter);
    if (!canonical.empty() && args.has(canonical)) {
      return Status(StatusCode::invalid_argument,
                    "--" + std::string(a.flag) + " is the old spelling of --" + canonical + "; give one");
    }
    GPPROBE_RETURN_IF_ERROR(take(a.flag, a.parameter));
  }
  if (args.has(flag_of(kNoiseVariance))) GPPROBE_RETURN_IF_ERROR(take(flag_of(kNoiseVariance), kNoiseVariance));
  for (const NamedKernel& k : named_kernels()) {
    for (const KernelParameter& p : k.kernel.parameters()) {
      const std::string flag = flag_of(p.name);
      if (!args.has(flag) || std::find(names.begin(), names.end(), p.name) != names.end()) continue;
      GPPROBE_RETURN_IF_ERROR(take(flag, p.name));
    }
  }
  Result<Kernel> set = set_parameters(named.value(), names, values);
  if (!set.ok()) return Status(set.status().code(), "--kernel " + name + ": " + set.status().message());
  *kernel = set.value();
  return Status::success();
}

Status run(const Args& raw, std::ostream& out, std::ostream& err) {
  Result<Arguments> parsed = Arguments::parse(raw, valued_flags(), {"optimize"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<TrainTestPaths> paths = required_train_test(args);
  if (!paths.ok()) return paths.status();
  const std::string& train_path = paths.value().train;
  const std::string& test_path = paths.value().test;
  const AnomalyThresholds default_thresholds;
  const HyperparameterFitOptions default_fit;
  Result<double> rho = args.number("rho", default_thresholds.rho),
                 theta = args.number("theta", default_thresholds.theta);
  for (const auto* r : {&rho, &theta})
    if (!r->ok()) return r->status();
  Result<long long> restarts = args.integer("restarts", (long long)default_fit.restarts),
                    seed = args.integer("seed", (long long)default_fit.seed);
  for (const auto* r : {&restarts, &seed})
    if (!r->ok()) return r->status();
  Kernel fitted_kernel = Kernel::cosine();
  double noise_variance = 0.0;
  GPPROBE_RETURN_IF_ERROR(read_model(args, &fitted_kernel, &noise_variance));
  Result<HyperparameterPrior> prior = parse_prior_flags(args, args.has("optimize"));
  if (!prior.ok()) return prior.status();
  const AnomalyThresholds thresholds{rho.value(), theta.value()};
  if (const Status s = check_thresholds(thresholds); !s.ok()) return Status(s.code(), "--" + s.message());

  Result<DelimitedTable> train = read_delimited(train_path);
  if (!train.ok()) return train.status();
  Result<DelimitedTable> test = read_delimited(test_path);
  if (!test.ok()) return test.status();
  const DelimitedTable& tr = train.value();
  const DelimitedTable& te = test.value();
  if (tr.cols < 2) {
    return Status(StatusCode::dimension_mismatch, train_path + ": has " + count_of(tr.cols, "column") +
                                                      "; expected feature columns then y (at least 2)");
  }
  const std::size_t d = tr.cols - 1;
  if (te.cols != d && te.cols != d + 1) {
    return Status(StatusCode::dimension_mismatch, test_path + ": has " + count_of(te.cols, "column") + "; expected " +
                                                      std::to_string(d) + " (features) or " + std::to_string(d + 1) +
                                                      " (features and y), as " + train_path + " has " +
                                                      count_of(d, "feature column"));
  }
  const bool has_y = te.cols == d + 1;
  RowMatrix x(Eigen::Index(tr.rows), Eigen::Index(d)), q(Eigen::Index(te.rows), Eigen::Index(d));
  std::vector<double> y(tr.rows), y_test(has_y ? te.rows : 0);
  for (std::size_t i = 0; i < tr.rows; ++i) {
    for (std::size_t j = 0; j < d; ++j) x(Eigen::Index(i), Eigen::Index(j)) = tr.values[i * tr.cols + j];
    y[i] = tr.values[i * tr.cols + d];
  }
  for (std::size_t i = 0; i < te.rows; ++i) {
    for (std::size_t j = 0; j < d; ++j) q(Eigen::Index(i), Eigen::Index(j)) = te.values[i * te.cols + j];
    if (has_y) y_test[i] = te.values[i * te.cols + d];
  }

  const bool optimize = args.has("optimize");
  std::string prior_json;
  if (optimize) {
    HyperparameterFitOptions options;
    options.restarts = std::size_t(restarts.value());
    options.seed = std::uint64_t(seed.value());
    options.prior = prior.value();
    Result<HyperparameterFit> fit =
        fit_hyperparameters(MatrixView(x), y.data(), y.size(), fitted_kernel, noise_variance, options);
    if (!fit.ok()) return with_files(fit.status(), train_path, test_path);
    fitted_kernel = fit.value().kernel;
    noise_variance = fit.value().noise_variance;
    prior_json = prior_fields(options.prior, fit.value().log_prior);
  }
  Result<GpRegression> gp = GpRegression::fit(MatrixView(x), y.data(), y.size(), fitted_kernel, noise_variance);
  if (!gp.ok()) return with_files(gp.status(), train_path, test_path);

  const std::size_t m = te.rows;
  std::vector<double> mean(m), latent(m), observation(m), knowledge(m);
  PredictionColumns columns;
  columns.mean = mean.data();
  columns.latent_variance = latent.data();
  columns.observation_variance = observation.data();
  columns.knowledge = knowledge.data();
  const Status predicted = gp.value().predict(MatrixView(q), columns);
  if (!predicted.ok()) return with_files(predicted, train_path, test_path);
  std::vector<PointStatus> status(has_y ? m : 0);
  if (has_y) {
    GPPROBE_RETURN_IF_ERROR(classify_points(y_test.data(), mean.data(), observation.data(), knowledge.data(), m,
                                            thresholds, status.data()));
  }

  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  os << "mean,latent_variance,observation_variance,knowledge" << (has_y ? ",status" : "") << '\n';
  for (std::size_t i = 0; i < m; ++i) {
    os << format_number(mean[i]) << ',' << format_number(latent[i]) << ',' << format_number(observation[i]) << ','
       << format_number(knowledge[i]);
    if (has_y) os << ',' << status_name(status[i]);
    os << '\n';
  }
  os.flush();
  if (!os) return Status(StatusCode::io_error, args.get("out", "stdout") + ": write failed");
  err << summary(gp.value(), optimize, optimize ? std::size_t(restarts.value()) : 0, prior_json) << '\n';
  return Status::success();
}

}  // namespace

int gpr_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("gpr", run(args, out, err), err);
}

}  // namespace gpprobe::cli
