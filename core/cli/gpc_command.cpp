// gpprobe gpc --train FILE --test FILE [--method laplace|ep] [--likelihood probit|logistic]
//             [--signal-variance S] [--length-scales L1,L2,...]
//             [--optimize [--restarts R] [--seed N] [--shared-length-scale]] [--out FILE]
// Binary GP classification with the SE-ARD kernel: train = feature columns then one label column (0/1 or
// -1/+1), test = the feature columns. Writes point,latent_mean,latent_variance,probability (17 significant
// digits) and one JSON line on stderr with the method, likelihood, hyperparameters, log marginal
// likelihood and its gradient in [log S, log L1, ..., log Ld], iterations and convergence.
// --shared-length-scale learns one length-scale for every column (an isotropic RBF) instead of one each.
#include <ostream>
#include <sstream>

#include "arguments.h"
#include "commands.h"
#include "csv_output.h"
#include "file_messages.h"
#include "gpprobe/gp_classifier.h"
#include "gpprobe/gpc_hyperparameter_fit.h"
#include "loaded_matrix.h"

namespace gpprobe::cli {

namespace {

std::string json_array(const std::vector<double>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + format_number(values[i]);
  return out + "]";
}

struct Run {
  bool optimized = false;
  bool shared_length_scale = false;
  std::size_t restarts = 0;
  std::uint64_t seed = 0;
  GpcHyperparameterFit fit;
};

std::string summary(const GpClassifier& gpc, const Run& run, std::size_t m, const PredictionReport& report) {
  std::ostringstream os;
  os << "{\"method\":\"" << method_name(gpc.method()) << "\",\"likelihood\":\"" << likelihood_name(gpc.likelihood())
     << "\",\"signal_variance\":" << format_number(gpc.kernel().signal_variance)
     << ",\"length_scales\":" << json_array(gpc.kernel().length_scales)
     << ",\"log_marginal_likelihood\":" << format_number(gpc.log_marginal_likelihood())
     << ",\"log_marginal_likelihood_gradient\":" << json_array(gpc.log_marginal_likelihood_gradient())
     << ",\"iterations\":" << gpc.iterations()
     << ",\"converged\":" << (!run.optimized || run.fit.converged ? "true" : "false")
     << ",\"training_points\":" << gpc.common_form().size() << ",\"test_points\":" << m
     << ",\"clamped_variances\":" << report.clamped_variances << ",\"optimized\":" << (run.optimized ? "true" : "false");
  if (run.optimized) {
    os << ",\"restarts\":" << run.restarts << ",\"seed\":" << run.seed
       << ",\"shared_length_scale\":" << (run.shared_length_scale ? "true" : "false")
       << ",\"optimizer_iterations\":" << run.fit.iterations
       << ",\"optimizer_converged\":" << (run.fit.converged ? "true" : "false")
       << ",\"start_log_marginal_likelihood\":" << format_number(run.fit.start_log_marginal_likelihood);
  }
  os << "}";
  return os.str();
}

Status run(const Args& raw, std::ostream& out, std::ostream& err) {
  Result<Arguments> parsed = Arguments::parse(
      raw, {"train", "test", "method", "likelihood", "signal-variance", "length-scales", "restarts", "seed", "out"},
      {"optimize", "shared-length-scale"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<std::string> train_path = args.required("train");
  if (!train_path.ok()) return train_path.status();
  Result<std::string> test_path = args.required("test");
  if (!test_path.ok()) return test_path.status();
  GpcOptions options;
  Result<GpcMethod> method = parse_method(args.get("method", "laplace"));
  if (!method.ok()) return Status(StatusCode::invalid_argument, "--" + method.status().message());
  Result<GpcLikelihood> likelihood = parse_likelihood(args.get("likelihood", "probit"));
  if (!likelihood.ok()) return Status(StatusCode::invalid_argument, "--" + likelihood.status().message());
  options.method = method.value();
  options.likelihood = likelihood.value();
  if (!check_options(options).ok()) {
    return Status(StatusCode::invalid_argument, "--likelihood logistic is not available with --method ep (EP's site "
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
  Run run;
  run.optimized = args.has("optimize");
  Result<long long> restarts = args.integer("restarts", 0), seed = args.integer("seed", 0);
  for (const auto* r : {&restarts, &seed})
    if (!r->ok()) return r->status();
  for (const char* flag : {"restarts", "seed", "shared-length-scale"}) {
    if (!run.optimized && args.has(flag)) {
      return Status(StatusCode::invalid_argument, std::string("--") + flag + " only applies with --optimize");
    }
  }
  run.shared_length_scale = args.has("shared-length-scale");
  if (run.shared_length_scale && length_scales.value().size() != 1) {
    return Status(StatusCode::invalid_argument, "--shared-length-scale learns one length-scale: give --length-scales "
                                                "one value, got " + std::to_string(length_scales.value().size()));
  }
  run.restarts = std::size_t(restarts.value());
  run.seed = std::uint64_t(seed.value());

  Result<LoadedMatrix> train = read_matrix(train_path.value());
  if (!train.ok()) return train.status();
  Result<LoadedMatrix> test = read_matrix(test_path.value());
  if (!test.ok()) return test.status();
  const MatrixView tr = train.value().view();
  if (tr.cols() < 2) {
    return Status(StatusCode::dimension_mismatch, train_path.value() + ": has " + count_of(tr.cols(), "column") +
                                                      "; expected feature columns then one label column");
  }
  const std::size_t n = tr.rows(), d = tr.cols() - 1;
  if (test.value().cols != d) {
    return Status(StatusCode::dimension_mismatch, test_path.value() + ": has " + count_of(test.value().cols, "column") +
                                                      "; expected " + count_of(d, "feature column") + ", as " +
                                                      train_path.value() + " has");
  }
  const SeArdKernel kernel{signal_variance.value(), length_scales.value()};
  if (kernel.length_scales.size() != 1 && kernel.length_scales.size() != d) {
    return Status(StatusCode::invalid_argument, "--length-scales has " + count_of(kernel.length_scales.size(), "value") +
                                                    "; " + train_path.value() + " has " + count_of(d, "feature column"));
  }
  if (const Status s = kernel.check(d); !s.ok()) return Status(s.code(), "--length-scales: " + s.message());
  RowMatrix x{Eigen::Index(n), Eigen::Index(d)};
  std::vector<double> labels(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < d; ++j) x(Eigen::Index(i), Eigen::Index(j)) = tr.at(i, j);
    labels[i] = tr.at(i, d);
  }
  const std::vector<std::pair<std::string, std::string>> files = {{"training", train_path.value()},
                                                                   {"test", test_path.value()}};
  Result<GpcTrainingData> data = make_gpc_training_data(MatrixView(x), labels.data(), n);
  if (!data.ok()) return with_file_names(data.status(), files);

  SeArdKernel fitted = kernel;
  if (run.optimized) {
    GpcHyperparameterOptions fit_options;
    fit_options.restarts = run.restarts;
    fit_options.seed = run.seed;
    fit_options.shared_length_scale = run.shared_length_scale;
    Result<GpcHyperparameterFit> fit = fit_gpc_hyperparameters(data.value(), kernel, options, fit_options);
    if (!fit.ok()) return with_file_names(fit.status(), files);
    run.fit = fit.value();
    fitted = run.fit.kernel;
  }
  Result<GpClassifier> gpc = GpClassifier::fit(data.value(), fitted, options);
  if (!gpc.ok()) return with_file_names(gpc.status(), files);

  const std::size_t m = test.value().rows;
  std::vector<double> mean(m), variance(m), probability(m);
  PredictionReport report;
  const Status predicted =
      gpc.value().predict(test.value().view(), {mean.data(), variance.data(), probability.data()}, {}, &report);
  if (!predicted.ok()) return with_file_names(predicted, files);

  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  os << "point,latent_mean,latent_variance,probability\n";
  for (std::size_t i = 0; i < m; ++i) {
    os << i << ',' << format_number(mean[i]) << ',' << format_number(variance[i]) << ','
       << format_number(probability[i]) << '\n';
  }
  GPPROBE_RETURN_IF_ERROR(csv.finish());
  err << summary(gpc.value(), run, m, report) << '\n';
  return Status::success();
}

}  // namespace

int gpc_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("gpc", run(args, out, err), err);
}

}  // namespace gpprobe::cli
