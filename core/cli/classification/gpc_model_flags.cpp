#include "classification/gpc_model_flags.h"

#include <sstream>

#include "csv_output.h"
#include "readers/file_messages.h"

namespace gpprobe::cli {

const std::set<std::string>& gpc_model_flags() {
  static const std::set<std::string> names = {"train",
                                              "method",
                                              "likelihood",
                                              "signal-variance",
                                              "length-scales",
                                              "restarts",
                                              "seed",
                                              "signal-variance-prior",
                                              "length-scale-prior"};
  return names;
}

Result<HyperparameterPrior> parse_prior_flags(const Arguments& args, bool optimize) {
  for (const char* flag : {"signal-variance-prior", "length-scale-prior"}) {
    if (!optimize && args.has(flag))
      return Status(StatusCode::invalid_argument, std::string("--") + flag + " only applies with --optimize");
  }
  return parse_hyperparameter_prior(args.get("signal-variance-prior", "none"), "--signal-variance-prior",
                                    args.get("length-scale-prior", "none"), "--length-scale-prior", optimize,
                                    "with --optimize");
}

namespace {

std::string prior_text(const LogPrior& p) {
  if (p.family == PriorFamily::none) return "none";
  std::string text = (p.family == PriorFamily::lognormal ? "lognormal:" : "student-t:") + format_number(p.mu) + "," +
                     format_number(p.sigma);
  if (p.family == PriorFamily::student_t) text += "," + format_number(p.nu);
  return text;
}

}  // namespace

std::string prior_fields(const HyperparameterPrior& prior, double log_prior) {
  return "\"signal_variance_prior\":\"" + prior_text(prior.signal_variance) + "\",\"length_scale_prior\":\"" +
         prior_text(prior.length_scale) + "\",\"log_prior\":" + format_number(log_prior);
}

const std::set<std::string>& gpc_model_switches() {
  static const std::set<std::string> names = {"optimize", "shared-length-scale"};
  return names;
}

std::string json_array(const std::vector<double>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + format_number(values[i]);
  return out + "]";
}

Result<ClassifierModelFlags> parse_gpc_model_flags(const Arguments& args) {
  ClassifierModelFlags flags;
  Result<std::string> train_path = args.required("train");
  if (!train_path.ok()) return train_path.status();
  flags.train_path = train_path.value();
  Result<ClassifierMethod> method = parse_method(args.get("method", "laplace"));
  if (!method.ok()) return Status(StatusCode::invalid_argument, "--" + method.status().message());
  Result<ClassifierLikelihood> likelihood = parse_likelihood(args.get("likelihood", "probit"));
  if (!likelihood.ok()) return Status(StatusCode::invalid_argument, "--" + likelihood.status().message());
  flags.options.method = method.value();
  flags.options.likelihood = likelihood.value();
  if (!check_options(flags.options).ok()) {
    return Status(StatusCode::invalid_argument,
                  "--likelihood logistic is not available with --method ep (EP's site "
                  "moments are closed-form for probit only); use --method laplace");
  }
  Result<double> signal_variance = args.number("signal-variance", 1.0);
  if (!signal_variance.ok()) return signal_variance.status();
  if (!(signal_variance.value() > 0.0)) {
    return Status(StatusCode::invalid_argument,
                  "--signal-variance must be > 0, got " + args.get("signal-variance", ""));
  }
  Result<std::vector<double>> length_scales = args.numbers("length-scales", "1");
  if (!length_scales.ok()) return length_scales.status();
  flags.kernel = {signal_variance.value(), length_scales.value()};
  flags.optimize = args.has("optimize");
  Result<long long> restarts = args.integer("restarts", 0), seed = args.integer("seed", 0);
  for (const auto* r : {&restarts, &seed})
    if (!r->ok()) return r->status();
  for (const char* flag : {"restarts", "seed", "shared-length-scale"}) {
    if (!flags.optimize && args.has(flag)) {
      return Status(StatusCode::invalid_argument, std::string("--") + flag + " only applies with --optimize");
    }
  }
  flags.fit_options.shared_length_scale = args.has("shared-length-scale");
  if (flags.fit_options.shared_length_scale && length_scales.value().size() != 1) {
    return Status(StatusCode::invalid_argument,
                  "--shared-length-scale learns one length-scale: give --length-scales "
                  "one value, got " +
                      std::to_string(length_scales.value().size()));
  }
  flags.fit_options.restarts = std::size_t(restarts.value());
  flags.fit_options.seed = std::uint64_t(seed.value());
  Result<HyperparameterPrior> prior = parse_prior_flags(args, flags.optimize);
  if (!prior.ok()) return prior.status();
  flags.fit_options.prior = prior.value();
  return flags;
}

Result<std::size_t> feature_columns(const ClassifierModelFlags& flags, const MatrixView& train) {
  if (train.cols() < 2) {
    return Status(StatusCode::dimension_mismatch, flags.train_path + ": has " + count_of(train.cols(), "column") +
                                                      "; expected feature columns then one label column");
  }
  return train.cols() - 1;
}

Result<ClassifierModel> fit_gpc_model(const ClassifierModelFlags& flags, const MatrixView& train,
                                      std::vector<std::pair<std::string, std::string>> files) {
  Result<std::size_t> columns = feature_columns(flags, train);
  if (!columns.ok()) return columns.status();
  const std::size_t n = train.rows(), d = columns.value();
  const SeArdKernel& kernel = flags.kernel;
  if (kernel.length_scales.size() != 1 && kernel.length_scales.size() != d) {
    return Status(StatusCode::invalid_argument, "--length-scales has " +
                                                    count_of(kernel.length_scales.size(), "value") + "; " +
                                                    flags.train_path + " has " + count_of(d, "feature column"));
  }
  if (const Status s = kernel.check(d); !s.ok()) return Status(s.code(), "--length-scales: " + s.message());
  RowMatrix x{Eigen::Index(n), Eigen::Index(d)};
  std::vector<double> labels(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < d; ++j) x(Eigen::Index(i), Eigen::Index(j)) = train.at(i, j);
    labels[i] = train.at(i, d);
  }
  files.insert(files.begin(), {"training", flags.train_path});
  ClassifierFitSettings settings;
  settings.model = flags.options;
  settings.kernel = kernel;
  settings.optimize = flags.optimize;
  settings.hyperparameters = flags.fit_options;
  Result<ClassifierFit> fitted = fit_classifier(MatrixView(x), labels.data(), n, settings);
  if (!fitted.ok()) return with_file_names(fitted.status(), files);
  return ClassifierModel{std::move(fitted.value().classifier), std::move(fitted.value().optimum)};
}

std::string gpc_model_fields(const ClassifierModel& model, const ClassifierModelFlags& flags) {
  const GpClassifier& gpc = model.gpc;
  std::ostringstream os;
  os << "\"method\":\"" << method_name(gpc.method()) << "\",\"likelihood\":\"" << likelihood_name(gpc.likelihood())
     << "\",\"signal_variance\":" << format_number(gpc.kernel().signal_variance)
     << ",\"length_scales\":" << json_array(gpc.kernel().length_scales)
     << ",\"log_marginal_likelihood\":" << format_number(gpc.log_marginal_likelihood())
     << ",\"log_marginal_likelihood_gradient\":" << json_array(gpc.log_marginal_likelihood_gradient())
     << ",\"iterations\":" << gpc.iterations()
     << ",\"converged\":" << (!model.fit || model.fit->converged ? "true" : "false")
     << ",\"training_points\":" << gpc.common_form().size() << ",\"optimized\":" << (model.fit ? "true" : "false");
  if (model.fit) {
    os << ",\"restarts\":" << flags.fit_options.restarts << ",\"seed\":" << flags.fit_options.seed
       << ",\"shared_length_scale\":" << (flags.fit_options.shared_length_scale ? "true" : "false")
       << ",\"optimizer_iterations\":" << model.fit->iterations
       << ",\"optimizer_converged\":" << (model.fit->converged ? "true" : "false")
       << ",\"start_log_marginal_likelihood\":" << format_number(model.fit->start_log_marginal_likelihood) << ','
       << prior_fields(flags.fit_options.prior, model.fit->log_prior);
  }
  return os.str();
}

}  // namespace gpprobe::cli
