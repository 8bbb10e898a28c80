// gpprobe gpr --train F --test F [--kernel rbf|matern12|matern32|matern52|periodic|locally-periodic|linear|cosine]
//              [--optimize] [--restarts R] [--lengthscale L] [--variance V] [--noise N] [--period P]
//              [--decay D] [--offset O] [--seed S] [--rho R] [--theta T] [--out F]
// Exact GP regression: train CSV = feature columns then y; test CSV = the same feature columns, and y
// optionally. Writes mean,latent_variance,observation_variance,knowledge (+ status when the test file
// has y) and one JSON line on stderr with the hyperparameters and the log marginal likelihood.
#include <ostream>
#include <sstream>

#include "arguments.h"
#include "commands.h"
#include "csv_output.h"
#include "delimited_reader.h"
#include "gpprobe/anomaly_detection.h"
#include "gpprobe/gp_regression.h"
#include "gpprobe/hyperparameter_fit.h"

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

std::string summary(const GpRegression& gp, bool optimized, std::size_t restarts) {
  std::ostringstream os;
  os << "{\"kernel\":" << json_string(gp.kernel().describe()) << ",\"parameters\":{";
  bool first = true;
  for (const KernelParameter& p : gp.kernel().parameters()) {
    os << (first ? "" : ",") << json_string(p.name) << ":" << format_number(p.value);
    first = false;
  }
  os << "},\"noise_variance\":" << format_number(gp.noise_variance()) << ",\"mean\":" << format_number(gp.mean())
     << ",\"log_marginal_likelihood\":" << format_number(gp.log_marginal_likelihood())
     << ",\"optimized\":" << (optimized ? "true" : "false") << ",\"restarts\":" << restarts << "}";
  return os.str();
}

Status run(const Args& raw, std::ostream& out, std::ostream& err) {
  Result<Arguments> parsed = Arguments::parse(
      raw, {"train", "test", "kernel", "restarts", "lengthscale", "variance", "noise", "period", "decay", "offset",
            "seed", "rho", "theta", "out"},
      {"optimize"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<std::string> train_path = args.required("train");
  if (!train_path.ok()) return train_path.status();
  Result<std::string> test_path = args.required("test");
  if (!test_path.ok()) return test_path.status();
  KernelChoice choice;
  choice.name = args.get("kernel", "rbf");
  Result<double> noise = args.number("noise", 0.1), rho = args.number("rho", 0.5), theta = args.number("theta", 3.0);
  Result<double> l = args.number("lengthscale", 1.0), v = args.number("variance", 1.0);
  Result<double> period = args.number("period", 1.0), decay = args.number("decay", 10.0), offset = args.number("offset", 1.0);
  for (const auto* r : {&noise, &rho, &theta, &l, &v, &period, &decay, &offset})
    if (!r->ok()) return r->status();
  Result<long long> restarts = args.integer("restarts", 0), seed = args.integer("seed", 0);
  for (const auto* r : {&restarts, &seed})
    if (!r->ok()) return r->status();
  choice.length_scale = l.value();
  choice.variance = v.value();
  choice.period = period.value();
  choice.decay = decay.value();
  choice.offset = offset.value();
  Result<Kernel> kernel = make_kernel(choice);
  if (!kernel.ok()) return Status(StatusCode::invalid_argument, "--" + kernel.status().message());
  const AnomalyThresholds thresholds{rho.value(), theta.value()};
  if (const Status s = check_thresholds(thresholds); !s.ok()) return Status(s.code(), "--" + s.message());

  Result<DelimitedTable> train = read_delimited(train_path.value());
  if (!train.ok()) return train.status();
  Result<DelimitedTable> test = read_delimited(test_path.value());
  if (!test.ok()) return test.status();
  const DelimitedTable& tr = train.value();
  const DelimitedTable& te = test.value();
  if (tr.cols < 2) {
    return Status(StatusCode::dimension_mismatch, train_path.value() + ": has " + count_of(tr.cols, "column") +
                                                      "; expected feature columns then y (at least 2)");
  }
  const std::size_t d = tr.cols - 1;
  if (te.cols != d && te.cols != d + 1) {
    return Status(StatusCode::dimension_mismatch,
                  test_path.value() + ": has " + count_of(te.cols, "column") + "; expected " + std::to_string(d) +
                      " (features) or " + std::to_string(d + 1) + " (features and y), as " + train_path.value() +
                      " has " + count_of(d, "feature column"));
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

  Kernel fitted_kernel = kernel.value();
  double noise_variance = noise.value();
  const bool optimize = args.has("optimize");
  if (optimize) {
    HyperparameterFitOptions options;
    options.restarts = std::size_t(restarts.value());
    options.seed = std::uint64_t(seed.value());
    Result<HyperparameterFit> fit = fit_hyperparameters(MatrixView(x), y.data(), y.size(), fitted_kernel,
                                                        noise_variance, options);
    if (!fit.ok()) return with_files(fit.status(), train_path.value(), test_path.value());
    fitted_kernel = fit.value().kernel;
    noise_variance = fit.value().noise_variance;
  }
  Result<GpRegression> gp = GpRegression::fit(MatrixView(x), y.data(), y.size(), fitted_kernel, noise_variance);
  if (!gp.ok()) return with_files(gp.status(), train_path.value(), test_path.value());

  const std::size_t m = te.rows;
  std::vector<double> mean(m), latent(m), observation(m), knowledge(m);
  PredictionColumns columns;
  columns.mean = mean.data();
  columns.latent_variance = latent.data();
  columns.observation_variance = observation.data();
  columns.knowledge = knowledge.data();
  const Status predicted = gp.value().predict(MatrixView(q), columns);
  if (!predicted.ok()) return with_files(predicted, train_path.value(), test_path.value());
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
  err << summary(gp.value(), optimize, optimize ? std::size_t(restarts.value()) : 0) << '\n';
  return Status::success();
}

}  // namespace

int gpr_command(const Args& args, std::ostream& out, std::ostream& err) {
  const Status s = run(args, out, err);
  if (s.ok()) return 0;
  err << "gpprobe gpr: " << s.message() << '\n';
  return s.code() == StatusCode::invalid_argument && s.message().rfind("--", 0) == 0 ? 2 : 1;
}

}  // namespace gpprobe::cli
