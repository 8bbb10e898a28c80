#include "explain/paper_figures.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/explain/feature_sensitivity.h"
#include "gpprobe/explain/paper_figures.h"

#include "classification/gpc_model_flags.h"
#include "csv_output.h"
#include "readers/loaded_matrix.h"

namespace gpprobe::cli {

namespace {

Result<ClassifierMethod> method_flag(const Arguments& args) {
  Result<ClassifierMethod> method = parse_method(args.get("method", "laplace"));
  if (!method.ok()) return Status(StatusCode::invalid_argument, "--" + method.status().message());
  return method;
}

Result<std::size_t> count_flag(const Arguments& args, const std::string& name, long long fallback, long long least) {
  Result<long long> v = args.integer(name, fallback);
  if (!v.ok()) return v.status();
  if (v.value() < least) {
    return Status(StatusCode::invalid_argument,
                  "--" + name + " must be at least " + std::to_string(least) + ", got " + std::to_string(v.value()));
  }
  return std::size_t(v.value());
}

Result<double> positive_flag(const Arguments& args, const std::string& name, double fallback, bool zero_allowed) {
  Result<double> v = args.number(name, fallback);
  if (!v.ok()) return v.status();
  if (zero_allowed ? v.value() < 0.0 : !(v.value() > 0.0)) {
    return Status(StatusCode::invalid_argument,
                  "--" + name + " must be " + (zero_allowed ? ">= 0" : "> 0") + ", got " + format_number(v.value()));
  }
  return v;
}

Result<std::vector<double>> positive_list(const Arguments& args, const std::string& name, const std::string& fallback,
                                          bool zero_allowed) {
  Result<std::vector<double>> v = args.numbers(name, fallback);
  if (!v.ok()) return v.status();
  for (double x : v.value()) {
    if (zero_allowed ? x < 0.0 : !(x > 0.0)) {
      return Status(StatusCode::invalid_argument,
                    "--" + name + " values must be " + (zero_allowed ? ">= 0" : "> 0") + ", got " + format_number(x));
    }
  }
  return v;
}

// A refusal of the core about test points, named after the flag that chose them.
Status flagged(const std::string& flag, const Status& status) {
  if (status.message().rfind("test point ", 0) == 0 && status.message().find("out of range") != std::string::npos)
    return Status(status.code(), "--" + flag + ": " + status.message());
  return status;
}

std::string joined(const std::vector<std::size_t>& values, char separator) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i) s += (i ? std::string(1, separator) : "") + std::to_string(values[i]);
  return s;
}

}  // namespace

const std::set<std::string>& figure_flags() {
  static const std::set<std::string> names = {"points",
                                              "nearly-constant-share",
                                              "pixels",
                                              "gammas",
                                              "gamma",
                                              "tolerance",
                                              "epochs",
                                              "method",
                                              "methods",
                                              "seed",
                                              "baseline",
                                              "lime-samples",
                                              "dimensions",
                                              "epsilons",
                                              "fixed-dimension",
                                              "fixed-epsilon",
                                              "time-limit",
                                              "max-iterations",
                                              "patch",
                                              "signal-variance-prior",
                                              "length-scale-prior"};
  return names;
}

// Fig. 3: the adversarial extreme's certified interval and the GPFGS attack over growing gamma.
Status figure_3(const Arguments& args, const PaperData& data, std::ostream& out, std::ostream&) {
  Result<ClassifierMethod> method = method_flag(args);
  if (!method.ok()) return method.status();
  Result<std::size_t> epochs = count_flag(args, "epochs", 10, 1), pixels = count_flag(args, "pixels", 3, 1);
  for (const auto* v : {&epochs, &pixels})
    if (!v->ok()) return v->status();
  Result<std::vector<double>> gammas = positive_list(args, "gammas", "0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1", true);
  if (!gammas.ok()) return gammas.status();
  Result<double> tolerance = positive_flag(args, "tolerance", 0.02, true);
  if (!tolerance.ok()) return tolerance.status();
  Figure3Options options;
  options.method = method.value();
  options.epochs = epochs.value();
  options.pixels = pixels.value();
  options.gammas = gammas.value();
  options.tolerance = tolerance.value();
  if (args.has("points")) {
    Result<std::vector<std::size_t>> given = args.indices("points", "");
    if (!given.ok()) return given.status();
    options.points = given.value();
  }
  Result<Figure3Result> result = run_figure_3(data, options);
  if (!result.ok()) return flagged("points", result.status());
  const std::string pixel_list = joined(result.value().pixels, ';');
  out << "point,label,probability,gamma,pixels,side,bound_lower,bound_upper,gpfgs,verdict_can_flip,iterations,status\n";
  for (const Figure3Point& point : result.value().points) {
    const std::size_t p = point.point;
    for (std::size_t g = 0; g < options.gammas.size(); ++g) {
      const RobustnessCertificate& c = point.certificates[g];
      const bool minimum = c.probability_at_point > 0.5;
      const ProbabilityExtreme& e = minimum ? c.minimum : c.maximum;
      out << p << ',' << data.test_labels[p] << ',' << format_number(c.probability_at_point) << ','
          << format_number(options.gammas[g]) << ',' << pixel_list << ',' << (minimum ? "minimum" : "maximum") << ','
          << format_number(e.lower) << ',' << format_number(e.upper) << ',' << format_number(c.gpfgs.probability) << ','
          << verdict_flip_name(c.verdict_can_flip) << ',' << e.iterations << ',' << search_status_name(e.status)
          << '\n';
    }
  }
  return Status::success();
}

// Fig. 4: delta = pi_max - pi_min over the gamma-box, per method and training budget.
Status figure_4(const Arguments& args, const PaperData& data, std::ostream& out, std::ostream& err) {
  Figure4Options options;
  options.methods.clear();
  {
    std::stringstream names(args.get("methods", "laplace,ep"));
    for (std::string name; std::getline(names, name, ',');) {
      Result<ClassifierMethod> m = parse_method(name);
      if (!m.ok()) return Status(StatusCode::invalid_argument, "--methods: " + m.status().message());
      options.methods.push_back(m.value());
    }
  }
  Result<std::vector<std::size_t>> budgets = args.counts("epochs", "10,40,100");
  if (!budgets.ok()) return budgets.status();
  Result<double> gamma = positive_flag(args, "gamma", 0.1, false),
                 tolerance = positive_flag(args, "tolerance", 0.001, true),
                 time_limit = positive_flag(args, "time-limit", 0.0, true);
  for (const auto* v : {&gamma, &tolerance, &time_limit})
    if (!v->ok()) return v->status();
  Result<std::size_t> pixels = count_flag(args, "pixels", 0, 0);
  if (!pixels.ok()) return pixels.status();
  options.budgets = budgets.value();
  options.gamma = gamma.value();
  options.tolerance = tolerance.value();
  options.time_limit_seconds = time_limit.value();
  options.pixels = pixels.value();
  Result<std::vector<Figure4Run>> runs = run_figure_4(data, options);
  if (!runs.ok()) return runs.status();

  out << "method,epochs,point,probability,delta_lower,delta_upper,status,log_marginal_likelihood,evaluations\n";
  std::map<std::pair<std::size_t, ClassifierMethod>, Interval> medians;
  for (const Figure4Run& run : runs.value()) {
    for (std::size_t p = 0; p < run.deltas.size(); ++p) {
      const DeltaRobustness& r = run.deltas[p];
      out << method_name(run.method) << ',' << run.epochs << ',' << p << ',' << format_number(r.probability) << ','
          << format_number(r.delta_lower) << ',' << format_number(r.delta_upper) << ',' << search_status_name(r.status)
          << ',' << format_number(run.fit.log_marginal_likelihood) << ',' << run.fit.evaluations << '\n';
    }
    medians[{run.epochs, run.method}] = run.median;
  }
  // The summary: the medians of the intervals' ends per method and budget (a median is monotone, so the
  // median delta lies between them), and the range they give the Laplace / EP ratio of the medians.
  err << "{\"median_delta\":{";
  bool first = true;
  for (const auto& [key, value] : medians) {
    err << (first ? "" : ",") << "\"" << method_name(key.second) << "_" << key.first
        << "\":" << json_array({value.lower, value.upper});
    first = false;
  }
  err << "},\"laplace_over_ep\":{";
  first = true;
  for (std::size_t epochs : options.budgets) {
    const auto l = medians.find({epochs, ClassifierMethod::laplace}), e = medians.find({epochs, ClassifierMethod::ep});
    if (l == medians.end() || e == medians.end()) continue;
    // An EP median of exactly 0 leaves the ratio unbounded above: null.
    err << (first ? "" : ",") << "\"" << epochs << "\":[" << format_number(l->second.lower / e->second.upper) << ","
        << (e->second.lower > 0.0 ? format_number(l->second.upper / e->second.lower) : std::string("null")) << "]";
    first = false;
  }
  err << "}}\n";
  return Status::success();
}

// Fig. 6: the mean certified Delta over the test points per gamma, and LIME's mean coefficient.
Status figure_6(const Arguments& args, const PaperData& data, std::ostream& out, std::ostream&) {
  Result<ClassifierMethod> method = method_flag(args);
  if (!method.ok()) return method.status();
  Result<std::size_t> epochs = count_flag(args, "epochs", 40, 1), samples = count_flag(args, "lime-samples", 5000, 2),
                      seed = count_flag(args, "seed", 0, 0);
  for (const auto* v : {&epochs, &samples, &seed})
    if (!v->ok()) return v->status();
  Result<std::vector<double>> gammas = positive_list(args, "gammas", "0.1,2", false);
  if (!gammas.ok()) return gammas.status();
  Result<double> tolerance = positive_flag(args, "tolerance", 0.001, true);
  if (!tolerance.ok()) return tolerance.status();
  const std::string baseline = args.get("baseline", "mean");
  if (baseline != "mean" && baseline != "zero") {
    return Status(StatusCode::invalid_argument, "--baseline must be mean or zero, got '" + baseline + "'");
  }
  Figure6Options options;
  options.method = method.value();
  options.epochs = epochs.value();
  options.lime_samples = samples.value();
  options.seed = seed.value();
  options.gammas = gammas.value();
  options.tolerance = tolerance.value();
  options.baseline_mean = baseline == "mean";
  Result<Figure6Result> result = run_figure_6(data, options);
  if (!result.ok()) return result.status();
  const Figure6Result& r = result.value();
  out << "feature,gamma,delta_lower,delta,delta_upper,lime,lime_slope\n";
  for (std::size_t i = 0; i < options.gammas.size(); ++i) {
    const GlobalSensitivity& g = r.global[i];
    for (std::size_t a = 0; a < g.features.size(); ++a) {
      const std::size_t j = g.features[a];
      out << j << ',' << format_number(options.gammas[i]) << ',' << format_number(g.delta_lower[a]) << ','
          << format_number(g.delta[a]) << ',' << format_number(g.delta_upper[a]) << ',' << format_number(r.lime_mean[j])
          << ',' << format_number(r.lime_slope_mean[j]) << '\n';
    }
  }
  return Status::success();
}

Result<PaperSplit> read_paper_split(const Arguments& args) {
  Result<std::string> path = args.required("data");
  if (!path.ok()) return path.status();
  Result<LoadedMatrix> loaded = read_matrix(path.value());
  if (!loaded.ok()) return loaded.status();
  const LoadedMatrix& m = loaded.value();
  if (m.cols < 2) {
    return Status(StatusCode::dimension_mismatch, path.value() + ": has " + count_of(m.cols, "column") +
                                                      "; expected feature columns then one label column");
  }
  const std::size_t rows = m.rows;
  const std::size_t held_out = std::min<std::size_t>(200, rows * 3 / 10);
  Result<long long> train_rows = args.integer("train-rows", (long long)(rows - held_out));
  if (!train_rows.ok()) return train_rows.status();
  if (train_rows.value() < 1 || std::size_t(train_rows.value()) >= rows) {
    return Status(StatusCode::invalid_argument, "--train-rows must be between 1 and " + std::to_string(rows - 1) +
                                                    " (" + path.value() + " has " + count_of(rows, "row") + "), got " +
                                                    std::to_string(train_rows.value()));
  }
  const std::size_t n = std::size_t(train_rows.value());
  Result<long long> test_points = args.integer("test-points", (long long)std::min<std::size_t>(50, rows - n));
  if (!test_points.ok()) return test_points.status();
  if (test_points.value() < 1 || std::size_t(test_points.value()) > rows - n) {
    return Status(StatusCode::invalid_argument, "--test-points must be between 1 and " + std::to_string(rows - n) +
                                                    " (the rows after the training rows), got " +
                                                    std::to_string(test_points.value()));
  }
  PaperSplit split;
  split.path = path.value();
  split.all = RowMatrix(Eigen::Index(rows), Eigen::Index(m.cols));
  m.view().copy_rows(0, rows, split.all.data());
  split.train = n;
  split.test = std::size_t(test_points.value());
  split.features = m.cols - 1;
  return split;
}

namespace {

// Fig. 5's data: the first N rows train, the next M are test points (read_paper_split), labels class
// indices.
Result<PaperMulticlassData> load_multiclass_data(const Arguments& args) {
  Result<PaperSplit> split = read_paper_split(args);
  if (!split.ok()) return split.status();
  const RowMatrix& all = split.value().all;
  const std::size_t rows = std::size_t(all.rows()), n = split.value().train, t = split.value().test,
                    d = split.value().features;
  const std::string& path_value = split.value().path;
  PaperMulticlassData data;
  data.source = path_value;
  data.train_x = all.topLeftCorner(Eigen::Index(n), Eigen::Index(d));
  data.test = all.block(Eigen::Index(n), 0, Eigen::Index(t), Eigen::Index(d));
  for (std::size_t i = 0; i < rows; ++i) {
    const double label = all(Eigen::Index(i), Eigen::Index(d));
    if (!(label >= 0.0) || label != std::floor(label) || label > 1000.0) {
      return Status(StatusCode::invalid_argument, path_value + ": row " + std::to_string(i + 1) + " has label " +
                                                      format_number(label) +
                                                      "; --figure 5 expects class indices 0, 1, ..., C - 1");
    }
    data.classes = std::max(data.classes, std::size_t(label) + 1);
    if (i < n) data.train_y.push_back(label);
    else if (i < n + t) data.test_labels.push_back(label);
  }
  if (data.classes < 2) {
    return Status(StatusCode::invalid_argument, path_value + ": every label is 0; --figure 5 needs at least 2 classes");
  }
  return data;
}

std::string index_list(const std::vector<std::size_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

}  // namespace

// Fig. 5: local heat maps (every feature's Delta_gamma of the point's own class, and LIME's coefficient) of
// chosen test points of a multi-class model, and the whitening check: the K pixels with the most negative
// certified Delta (the whole interval below 0) set to the valid range's top must lower that class's
// probability; LIME's K most negative coefficients, whitened the same way, beside it.
Status figure_5(const Arguments& args, std::ostream& out, std::ostream& err) {
  Result<PaperMulticlassData> loaded = load_multiclass_data(args);
  if (!loaded.ok()) return loaded.status();
  const PaperMulticlassData& data = loaded.value();
  Result<std::size_t> epochs = count_flag(args, "epochs", 10, 0), samples = count_flag(args, "lime-samples", 5000, 2),
                      seed = count_flag(args, "seed", 0, 0), patch = count_flag(args, "patch", 3, 1);
  for (const auto* v : {&epochs, &samples, &seed, &patch})
    if (!v->ok()) return v->status();
  Result<double> gamma = positive_flag(args, "gamma", 0.25, false),
                 tolerance = positive_flag(args, "tolerance", 0.002, true);
  for (const auto* v : {&gamma, &tolerance})
    if (!v->ok()) return v->status();
  Figure5Options options;
  if (args.has("valid-range")) {
    Result<std::vector<double>> r = args.numbers("valid-range", "");
    if (!r.ok()) return r.status();
    if (r.value().size() != 2 || r.value()[0] > r.value()[1]) {
      return Status(StatusCode::invalid_argument,
                    "--valid-range expects two numbers LO,HI with LO <= HI, got '" + args.get("valid-range", "") + "'");
    }
    options.valid_range = Interval{r.value()[0], r.value()[1]};
  }
  if (args.has("points")) {
    Result<std::vector<std::size_t>> p = args.indices("points", "");
    if (!p.ok()) return p.status();
    options.points = p.value();
  }
  // MAP with --signal-variance-prior / --length-scale-prior (gpc_model_flags.h), as the authors train.
  Result<HyperparameterPrior> prior = parse_prior_flags(args, epochs.value() > 0);
  if (!prior.ok()) {
    return prior.status().message().find("only applies with --optimize") == std::string::npos
               ? prior.status()
               : Status(StatusCode::invalid_argument, "the priors need training: give --epochs E >= 1");
  }
  options.epochs = epochs.value();
  options.lime_samples = samples.value();
  options.seed = seed.value();
  options.patch = patch.value();
  options.gamma = gamma.value();
  options.tolerance = tolerance.value();
  options.prior = prior.value();
  options.include_constant = args.has("include-constant");
  Result<double> share = positive_flag(args, "nearly-constant-share", kNearlyConstantShare, true);
  if (!share.ok()) return share.status();
  if (share.value() > 1.0) {
    return Status(StatusCode::invalid_argument,
                  "--nearly-constant-share must be a number in [0, 1], got " + format_number(share.value()));
  }
  options.nearly_constant_share = share.value();
  Result<Figure5Result> result = run_figure_5(data, options);
  if (!result.ok()) return flagged("points", result.status());
  const Figure5Result& r = result.value();
  const std::size_t d = std::size_t(data.train_x.cols());
  const std::vector<bool>&constant = r.constant_in_training, &nearly = r.nearly_constant_in_training;
  std::vector<std::size_t> constant_list, nearly_list;
  for (std::size_t j = 0; j < d; ++j) {
    if (constant[j]) constant_list.push_back(j);
    if (nearly[j]) nearly_list.push_back(j);
  }
  out << "point,label,class,probability,feature,row,col,value,delta_lower,delta,delta_upper,lime,"
         "constant_in_training,nearly_constant_in_training,varying_rows\n";
  std::ostringstream summary;
  summary << "{\"figure\":5,\"train_rows\":" << data.train_y.size() << ",\"classes\":" << data.classes
          << ",\"gamma\":" << format_number(options.gamma)
          << ",\"start_log_marginal_likelihood\":" << format_number(r.start_log_marginal_likelihood)
          << ",\"log_marginal_likelihood\":" << format_number(r.log_marginal_likelihood) << ","
          << prior_fields(options.prior, r.log_prior) << ",\"length_scales\":" << json_array(r.kernel.length_scales)
          << ",\"signal_variance\":" << format_number(r.kernel.signal_variance)
          << ",\"constant_in_training\":" << index_list(constant_list)
          << ",\"nearly_constant_in_training\":" << index_list(nearly_list)
          << ",\"nearly_constant_share\":" << format_number(options.nearly_constant_share)
          << ",\"constant_in_patches\":" << (options.include_constant ? "true" : "false") << ",\"points\":[";
  const std::size_t side = std::size_t(std::lround(std::sqrt(double(d))));
  const bool image = side * side == d;
  for (std::size_t a = 0; a < r.points.size(); ++a) {
    const Figure5Point& pt = r.points[a];
    const std::size_t p = pt.point, c = pt.label;
    const double probability = pt.sensitivity.value;
    for (const FeatureSensitivity& f : pt.sensitivity.features) {
      out << p << ',' << c << ',' << c << ',' << format_number(probability) << ',' << f.feature << ','
          << (image ? f.feature / side : 0) << ',' << (image ? f.feature % side : f.feature) << ','
          << format_number(pt.sensitivity.point[f.feature]) << ',' << format_number(f.delta_lower) << ','
          << format_number(f.delta) << ',' << format_number(f.delta_upper) << ',' << format_number(pt.lime[f.feature])
          << ',' << (constant[f.feature] ? "yes" : "no") << ',' << (nearly[f.feature] ? "yes" : "no") << ','
          << r.varying_rows[f.feature] << '\n';
    }
    summary << (a ? "," : "") << "{\"point\":" << p << ",\"class\":" << c
            << ",\"probability\":" << format_number(probability)
            << ",\"probabilities\":" << json_array(pt.probabilities) << ",\"patch\":" << index_list(pt.patch)
            << ",\"whitened_probability\":" << format_number(pt.whitened_probability)
            << ",\"whitened_probabilities\":" << json_array(pt.whitened)
            << ",\"lime_patch\":" << index_list(pt.lime_patch)
            << ",\"lime_whitened_probability\":" << format_number(pt.lime_whitened_probability)
            << ",\"lime_whitened_probabilities\":" << json_array(pt.lime_whitened) << "}";
  }
  // Class specificity: the points' Delta maps correlated pair by pair (null where undefined).
  summary << "],\"delta_correlation\":[";
  for (std::size_t a = 0; a < r.delta_correlation.size(); ++a) {
    summary << (a ? "," : "") << "[";
    for (std::size_t b = 0; b < r.delta_correlation[a].size(); ++b) {
      const double v = r.delta_correlation[a][b];
      summary << (b ? "," : "") << (std::isfinite(v) ? format_number(v) : std::string("null"));
    }
    summary << "]";
  }
  std::size_t compared = 0;
  for (std::size_t j = 0; j < d; ++j) compared += options.include_constant || !(constant[j] || nearly[j]);
  summary << "],\"delta_correlation_features\":" << compared << "}\n";
  err << summary.str();
  return Status::success();
}

// Fig. 7: branch-and-bound time for pi_max against the box dimension and against the tolerance.
Status figure_7(const Arguments& args, const PaperData& data, std::ostream& out, std::ostream&) {
  Result<ClassifierMethod> method = method_flag(args);
  if (!method.ok()) return method.status();
  Result<std::size_t> epochs = count_flag(args, "epochs", 10, 1),
                      fixed_dimension = count_flag(args, "fixed-dimension", 5, 1),
                      max_iterations = count_flag(args, "max-iterations", 1000000, 1);
  for (const auto* v : {&epochs, &fixed_dimension, &max_iterations})
    if (!v->ok()) return v->status();
  Result<std::vector<std::size_t>> dimensions = args.counts("dimensions", "1,2,3,4,5,6,7,8,9,10");
  if (!dimensions.ok()) return dimensions.status();
  Result<std::vector<double>> gammas = positive_list(args, "gammas", "0.125,0.25", false),
                              epsilons = positive_list(args, "epsilons", "0.005,0.01,0.015,0.02,0.025", false);
  for (const auto* v : {&gammas, &epsilons})
    if (!v->ok()) return v->status();
  Result<double> fixed_epsilon = positive_flag(args, "fixed-epsilon", 0.025, false),
                 time_limit = positive_flag(args, "time-limit", 60.0, true);
  for (const auto* v : {&fixed_epsilon, &time_limit})
    if (!v->ok()) return v->status();
  Figure7Options options;
  options.method = method.value();
  options.epochs = epochs.value();
  options.dimensions = dimensions.value();
  options.gammas = gammas.value();
  options.epsilons = epsilons.value();
  options.fixed_dimension = fixed_dimension.value();
  options.fixed_epsilon = fixed_epsilon.value();
  options.time_limit_seconds = time_limit.value();
  options.max_iterations = max_iterations.value();
  const std::size_t d = data.train.dimension();
  const std::size_t widest =
      std::max(fixed_dimension.value(), *std::max_element(dimensions.value().begin(), dimensions.value().end()));
  const std::string too_wide = "--dimensions and --fixed-dimension go up to " + std::to_string(widest) + "; ";
  if (widest > d)
    return Status(StatusCode::invalid_argument, too_wide + data.source + " has " + count_of(d, "feature"));
  Result<std::vector<Figure7Row>> rows = run_figure_7(data, options);
  if (!rows.ok()) {
    if (rows.status().message().rfind("the training rows of ", 0) == 0)
      return Status(rows.status().code(), too_wide + rows.status().message());
    return rows.status();
  }
  out << "sweep,gamma,dimension,epsilon,point,seconds,iterations,status,lower,upper\n";
  for (const Figure7Row& row : rows.value()) {
    const OutputExtreme& e = row.result.maximum;
    out << row.sweep << ',' << format_number(row.gamma) << ',' << row.dimension << ',' << format_number(row.epsilon)
        << ',' << row.point << ',' << format_number(row.result.seconds) << ',' << e.iterations << ','
        << search_status_name(e.status) << ',' << format_number(e.lower) << ',' << format_number(e.upper) << '\n';
  }
  return Status::success();
}

}  // namespace gpprobe::cli
