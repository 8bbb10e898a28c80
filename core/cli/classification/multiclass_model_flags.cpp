#include "classification/multiclass_model_flags.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "classification/gpc_model_flags.h"
#include "csv_output.h"
#include "readers/file_messages.h"

namespace gpprobe::cli {

namespace {

// The most classes the commands accept (labels 0..kMaxClasses-1): the core supports them all, and a larger
// largest label is far more likely a wrong column than a real class count.
constexpr std::size_t kMaxClasses = 100;

// "0.7,1.2" as finite numbers; false on anything else.
bool parse_list(const std::string& text, std::vector<double>* out) {
  out->clear();
  std::stringstream cells(text);
  for (std::string cell; std::getline(cells, cell, ',');) {
    const char* begin = cell.c_str();
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(begin, &end);
    while (*end == ' ') ++end;
    if (end == begin || *end != '\0' || errno == ERANGE || !std::isfinite(v)) return false;
    out->push_back(v);
  }
  return !out->empty() && text.back() != ',';
}

std::string class_count_text(std::size_t C) {
  return count_of(C, "class", "classes") + " (labels 0 to " + std::to_string(C - 1) + ")";
}

}  // namespace

bool wants_softmax(const std::vector<std::string>& raw) {
  for (std::size_t i = 0; i + 1 < raw.size(); ++i)
    if (raw[i] == "--likelihood" && raw[i + 1] == "softmax") return true;
  return false;
}

const std::set<std::string>& multiclass_model_flags() {
  static const std::set<std::string> names = {"train",
                                              "method",
                                              "likelihood",
                                              "signal-variance",
                                              "length-scales",
                                              "length-scales-per-class",
                                              "restarts",
                                              "seed",
                                              "signal-variance-prior",
                                              "length-scale-prior"};
  return names;
}

const std::set<std::string>& multiclass_model_switches() {
  static const std::set<std::string> names = {"optimize", "shared-length-scale"};
  return names;
}

Result<MulticlassModelFlags> parse_multiclass_model_flags(const Arguments& args) {
  MulticlassModelFlags flags;
  Result<std::string> train_path = args.required("train");
  if (!train_path.ok()) return train_path.status();
  flags.train_path = train_path.value();
  if (args.get("method", "laplace") != "laplace") {
    return Status(StatusCode::invalid_argument,
                  "--method " + args.get("method", "") +
                      " is not available with --likelihood softmax (multi-class "
                      "classification uses the Laplace approximation); use --method laplace");
  }
  if (args.has("shared-length-scale")) {
    return Status(StatusCode::invalid_argument,
                  "--shared-length-scale is not available with --likelihood softmax; give --length-scales one value "
                  "per column (or one for all)");
  }
  Result<std::vector<double>> signal_variances = args.numbers("signal-variance", "1");
  if (!signal_variances.ok()) return signal_variances.status();
  for (double s : signal_variances.value()) {
    if (!(s > 0.0)) {
      return Status(StatusCode::invalid_argument,
                    "--signal-variance values must be > 0, got " + args.get("signal-variance", ""));
    }
  }
  flags.signal_variances = signal_variances.value();
  if (args.has("length-scales") && args.has("length-scales-per-class")) {
    return Status(StatusCode::invalid_argument, "--length-scales and --length-scales-per-class exclude each other");
  }
  if (args.has("length-scales-per-class")) {
    flags.per_class_length_scales = true;
    const std::string text = args.get("length-scales-per-class", "");
    std::stringstream groups(text);
    for (std::string group; std::getline(groups, group, ';');) {
      std::vector<double> values;
      if (!parse_list(group, &values)) {
        return Status(StatusCode::invalid_argument,
                      "--length-scales-per-class expects one list of numbers per class, the lists separated by ';' "
                      "and the numbers by ',', got '" +
                          text + "'");
      }
      flags.length_scales.push_back(values);
    }
    if (flags.length_scales.empty() || text.back() == ';') {
      return Status(StatusCode::invalid_argument,
                    "--length-scales-per-class expects one list of numbers per class, the lists separated by ';' and "
                    "the numbers by ',', got '" +
                        text + "'");
    }
  } else {
    Result<std::vector<double>> length_scales = args.numbers("length-scales", "1");
    if (!length_scales.ok()) return length_scales.status();
    flags.length_scales = {length_scales.value()};
  }
  flags.optimize = args.has("optimize");
  Result<long long> restarts = args.integer("restarts", 0), seed = args.integer("seed", 0);
  for (const auto* r : {&restarts, &seed})
    if (!r->ok()) return r->status();
  for (const char* flag : {"restarts", "seed"}) {
    if (!flags.optimize && args.has(flag)) {
      return Status(StatusCode::invalid_argument, std::string("--") + flag + " only applies with --optimize");
    }
  }
  flags.fit_options.shared = flags.signal_variances.size() == 1 && flags.length_scales.size() == 1;
  flags.fit_options.restarts = std::size_t(restarts.value());
  flags.fit_options.seed = std::uint64_t(seed.value());
  Result<HyperparameterPrior> prior = parse_prior_flags(args, flags.optimize);
  if (!prior.ok()) return prior.status();
  flags.fit_options.prior = prior.value();
  return flags;
}

Result<MulticlassModel> fit_multiclass_model(const MulticlassModelFlags& flags, const MatrixView& train,
                                             std::vector<std::pair<std::string, std::string>> files) {
  if (train.cols() < 2) {
    return Status(StatusCode::dimension_mismatch, flags.train_path + ": has " + count_of(train.cols(), "column") +
                                                      "; expected feature columns then one label column");
  }
  const std::size_t n = train.rows(), d = train.cols() - 1;
  if (n == 0) return Status(StatusCode::invalid_argument, flags.train_path + ": has no rows");
  // The labels first: integers 0, 1, ... (C = the largest + 1 needs them checked before it means anything).
  std::vector<double> labels(n);
  double largest = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double y = train.at(i, d);
    labels[i] = y;
    if (!std::isfinite(y) || y < 0.0 || y != std::floor(y)) {
      return Status(std::isfinite(y) ? StatusCode::invalid_argument : StatusCode::non_finite,
                    flags.train_path + ": label " + std::to_string(i) + " (row " + std::to_string(i) + ", column " +
                        std::to_string(d) + ") is " + format_number(y) +
                        "; --likelihood softmax expects class indices 0, 1, ..., C - 1 in the last column");
    }
    largest = std::max(largest, y);
  }
  if (largest >= double(kMaxClasses)) {
    return Status(StatusCode::invalid_argument, flags.train_path + ": the largest label is " + format_number(largest) +
                                                    "; at most " + std::to_string(kMaxClasses) +
                                                    " classes (labels 0 to " + std::to_string(kMaxClasses - 1) +
                                                    ") are supported");
  }
  const std::size_t C = std::size_t(largest) + 1;
  if (C < 2) {
    return Status(StatusCode::invalid_argument,
                  flags.train_path +
                      ": every label is 0, so there is 1 class; --likelihood softmax needs at least 2 "
                      "(labels 0 to C - 1, C = the largest label + 1)");
  }
  if (flags.signal_variances.size() != 1 && flags.signal_variances.size() != C) {
    return Status(StatusCode::invalid_argument,
                  "--signal-variance has " + count_of(flags.signal_variances.size(), "value") + "; " +
                      flags.train_path + " has " + class_count_text(C) + ": give 1 or " + std::to_string(C));
  }
  if (flags.per_class_length_scales && flags.length_scales.size() != C) {
    return Status(StatusCode::invalid_argument, "--length-scales-per-class has " +
                                                    count_of(flags.length_scales.size(), "list") + "; " +
                                                    flags.train_path + " has " + class_count_text(C) + ": give " +
                                                    std::to_string(C) + ", separated by ';'");
  }
  const char* ls_flag = flags.per_class_length_scales ? "--length-scales-per-class" : "--length-scales";
  const std::size_t count = std::max(flags.signal_variances.size(), flags.length_scales.size());
  for (std::size_t c = 0; c < count; ++c) {
    const std::vector<double>& ls = flags.length_scales[flags.length_scales.size() == 1 ? 0 : c];
    const std::string which = flags.per_class_length_scales ? " for class " + std::to_string(c) : "";
    if (ls.size() != 1 && ls.size() != d) {
      return Status(StatusCode::invalid_argument,
                    std::string(ls_flag) + " has " + count_of(ls.size(), "value") + which + "; " + flags.train_path +
                        " has " + count_of(d, "feature column") + ": give 1 or " + std::to_string(d));
    }
    const SeArdKernel k{flags.signal_variances[flags.signal_variances.size() == 1 ? 0 : c], ls};
    if (const Status s = k.check(d); !s.ok())
      return Status(s.code(), std::string(ls_flag) + which + ": " + s.message());
  }

  RowMatrix x{Eigen::Index(n), Eigen::Index(d)};
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) x(Eigen::Index(i), Eigen::Index(j)) = train.at(i, j);
  files.insert(files.begin(), {"training", flags.train_path});
  // The core's checks after the fit name no input: they concern the training file.
  files.push_back({"the log marginal likelihood", flags.train_path});
  files.push_back({"the gradient of the log marginal likelihood", flags.train_path});
  MulticlassFitSettings settings;
  settings.signal_variances = flags.signal_variances;
  settings.length_scales = flags.length_scales;
  settings.classes = C;
  settings.optimize = flags.optimize;
  settings.hyperparameters = flags.fit_options;
  settings.signal_variances_name = "--signal-variance";
  settings.length_scales_name = ls_flag;
  Result<MulticlassFit> fitted = fit_multiclass_classifier(MatrixView(x), labels.data(), n, settings);
  if (!fitted.ok()) return with_file_names(fitted.status(), files);
  MulticlassFit& f = fitted.value();
  return MulticlassModel{std::move(f.model), std::move(f.optimum), std::move(f.class_counts)};
}

std::string multiclass_model_fields(const MulticlassModel& model, const MulticlassModelFlags& flags) {
  const MulticlassLaplace& m = model.model;
  const std::size_t C = m.classes();
  std::vector<double> signal_variances, counts(C, 0.0);
  std::string length_scales = "[", gradient = "[";
  for (std::size_t c = 0; c < C; ++c) {
    signal_variances.push_back(m.kernels()[c].signal_variance);
    length_scales += (c ? "," : "") + json_array(m.kernels()[c].length_scales);
    gradient += (c ? "," : "") + json_array(m.gradient()[c]);
  }
  for (std::size_t c = 0; c < C && c < model.class_counts.size(); ++c) counts[c] = double(model.class_counts[c]);
  std::ostringstream os;
  os << "\"method\":\"laplace\",\"likelihood\":\"softmax\",\"classes\":" << C
     << ",\"shared_kernel\":" << (m.shared_kernel() ? "true" : "false")
     << ",\"signal_variances\":" << json_array(signal_variances) << ",\"length_scales\":" << length_scales << "]"
     << ",\"log_marginal_likelihood\":" << format_number(m.log_marginal_likelihood())
     << ",\"log_marginal_likelihood_gradient\":" << gradient << "]"
     << ",\"iterations\":" << m.iterations()
     << ",\"converged\":" << (!model.fit || model.fit->converged ? "true" : "false")
     << ",\"training_points\":" << m.size() << ",\"class_counts\":" << json_array(counts)
     << ",\"optimized\":" << (model.fit ? "true" : "false");
  if (model.fit) {
    os << ",\"restarts\":" << flags.fit_options.restarts << ",\"seed\":" << flags.fit_options.seed
       << ",\"tied_hyperparameters\":" << (flags.fit_options.shared ? "true" : "false")
       << ",\"optimizer_iterations\":" << model.fit->iterations
       << ",\"optimizer_evaluations\":" << model.fit->evaluations
       << ",\"optimizer_converged\":" << (model.fit->converged ? "true" : "false")
       << ",\"start_log_marginal_likelihood\":" << format_number(model.fit->start_log_marginal_likelihood) << ','
       << prior_fields(flags.fit_options.prior, model.fit->log_prior);
  }
  return os.str();
}

}  // namespace gpprobe::cli
