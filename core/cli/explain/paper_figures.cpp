#include "explain/paper_figures.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/classification/multiclass_hyperparameter_fit.h"
#include "gpprobe/common/random_stream.h"
#include "gpprobe/explain/feature_sensitivity.h"
#include "gpprobe/explain/gpc_output.h"
#include "gpprobe/explain/lime.h"
#include "gpprobe/explain/multiclass_output.h"
#include "gpprobe/explain/robustness_experiments.h"

#include "classification/gpc_model_flags.h"
#include "csv_output.h"
#include "readers/loaded_matrix.h"

namespace gpprobe::cli {

namespace {

struct TrainedModel {
  EpochFit fit;
  GpClassifier gpc;
};

// The authors' training: SE-ARD from s2 = 1, l = 1, at most `epochs` evidence evaluations, probit.
Result<TrainedModel> train(const PaperData& data, ClassifierMethod method, std::size_t epochs) {
  ClassifierOptions options;
  options.method = method;
  Result<EpochFit> fit = fit_for_epochs(data.train, options, epochs);
  if (!fit.ok()) return Status(fit.status().code(), data.path + ": " + fit.status().message());
  options.with_gradient = false;
  Result<GpClassifier> gpc = GpClassifier::fit(data.train, fit.value().kernel, options);
  if (!gpc.ok()) return Status(gpc.status().code(), data.path + ": " + gpc.status().message());
  return TrainedModel{std::move(fit).value(), std::move(gpc).value()};
}

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

std::vector<double> test_row(const PaperData& data, std::size_t p) {
  const auto row = data.test.row(Eigen::Index(p));
  return std::vector<double>(row.data(), row.data() + row.size());
}

std::string joined(const std::vector<std::size_t>& values, char separator) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i) s += (i ? std::string(1, separator) : "") + std::to_string(values[i]);
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

const std::set<std::string>& figure_flags() {
  static const std::set<std::string> names = {"points",
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
  std::vector<std::size_t> points;
  if (args.has("points")) {
    Result<std::vector<std::size_t>> given = args.indices("points", "");
    if (!given.ok()) return given.status();
    points = given.value();
    for (std::size_t p : points) {
      if (p >= data.test_labels.size()) {
        return Status(StatusCode::invalid_argument, "--points: test point " + std::to_string(p) + " is out of range: " +
                                                        "there are " + count_of(data.test_labels.size(), "test point"));
      }
    }
  } else {
    for (double label : {0.0, 1.0}) {
      const auto it = std::find(data.test_labels.begin(), data.test_labels.end(), label);
      if (it != data.test_labels.end()) points.push_back(std::size_t(it - data.test_labels.begin()));
    }
  }
  Result<TrainedModel> model = train(data, method.value(), epochs.value());
  if (!model.ok()) return model.status();
  const ClassifierCommonForm& form = model.value().gpc.common_form();
  RobustnessOptions options;
  options.dims = shortest_length_scales(form.kernel(), pixels.value(), MatrixView(data.train.x));
  options.valid_range = data.valid_range;
  options.tolerance = tolerance.value();
  options.search = RobustnessSearch::adversarial;
  out << "point,label,probability,gamma,pixels,side,bound_lower,bound_upper,gpfgs,verdict_can_flip,iterations,status\n";
  for (std::size_t p : points) {
    Result<std::vector<RobustnessCertificate>> rows =
        robustness_sweep(form, test_row(data, p), gammas.value(), options);
    if (!rows.ok()) return rows.status();
    for (std::size_t g = 0; g < gammas.value().size(); ++g) {
      const RobustnessCertificate& c = rows.value()[g];
      const bool minimum = c.probability_at_point > 0.5;
      const ProbabilityExtreme& e = minimum ? c.minimum : c.maximum;
      out << p << ',' << data.test_labels[p] << ',' << format_number(c.probability_at_point) << ','
          << format_number(gammas.value()[g]) << ',' << joined(options.dims, ';') << ','
          << (minimum ? "minimum" : "maximum") << ',' << format_number(e.lower) << ',' << format_number(e.upper) << ','
          << format_number(c.gpfgs.probability) << ',' << verdict_flip_name(c.verdict_can_flip) << ',' << e.iterations
          << ',' << search_status_name(e.status) << '\n';
    }
  }
  return Status::success();
}

// Fig. 4: delta = pi_max - pi_min over the gamma-box, per method and training budget.
Status figure_4(const Arguments& args, const PaperData& data, std::ostream& out, std::ostream& err) {
  std::vector<ClassifierMethod> methods;
  {
    std::stringstream names(args.get("methods", "laplace,ep"));
    for (std::string name; std::getline(names, name, ',');) {
      Result<ClassifierMethod> m = parse_method(name);
      if (!m.ok()) return Status(StatusCode::invalid_argument, "--methods: " + m.status().message());
      methods.push_back(m.value());
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

  out << "method,epochs,point,probability,delta_lower,delta_upper,status,log_marginal_likelihood,evaluations\n";
  std::map<std::pair<std::size_t, ClassifierMethod>, Interval> medians;
  for (ClassifierMethod method : methods) {
    for (std::size_t epochs : budgets.value()) {
      Result<TrainedModel> model = train(data, method, epochs);
      if (!model.ok()) return model.status();
      const ClassifierCommonForm& form = model.value().gpc.common_form();
      RobustnessOptions options;
      options.gamma = gamma.value();
      if (pixels.value() > 0)
        options.dims = shortest_length_scales(form.kernel(), pixels.value(), MatrixView(data.train.x));
      options.valid_range = data.valid_range;
      options.tolerance = tolerance.value();
      options.time_limit_seconds = time_limit.value();
      Result<std::vector<DeltaRobustness>> deltas = delta_robustness(form, MatrixView(data.test), options);
      if (!deltas.ok()) return deltas.status();
      std::vector<double> lowers, uppers;
      for (std::size_t p = 0; p < deltas.value().size(); ++p) {
        const DeltaRobustness& r = deltas.value()[p];
        lowers.push_back(r.delta_lower);
        uppers.push_back(r.delta_upper);
        out << method_name(method) << ',' << epochs << ',' << p << ',' << format_number(r.probability) << ','
            << format_number(r.delta_lower) << ',' << format_number(r.delta_upper) << ','
            << search_status_name(r.status) << ',' << format_number(model.value().fit.log_marginal_likelihood) << ','
            << model.value().fit.evaluations << '\n';
      }
      medians[{epochs, method}] = Interval{median(lowers), median(uppers)};
    }
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
  for (std::size_t epochs : budgets.value()) {
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
  Result<TrainedModel> model = train(data, method.value(), epochs.value());
  if (!model.ok()) return model.status();
  const ClassifierOutput output(model.value().gpc.common_form());
  const std::size_t d = data.train.dimension(), m = std::size_t(data.test.rows());

  LimeOptions lime;
  lime.samples = samples.value();
  lime.baseline.assign(d, 0.0);
  if (baseline == "mean") {
    for (std::size_t j = 0; j < d; ++j) lime.baseline[j] = data.train.x.col(Eigen::Index(j)).mean();
  }
  std::vector<double> lime_mean(d, 0.0), slope_mean(d, 0.0);
  for (std::size_t p = 0; p < m; ++p) {
    lime.seed = derive_seed(seed.value(), {p});
    const std::vector<double> point = test_row(data, p);
    Result<LimeExplanation> e = lime_explain(output, point, lime);
    if (!e.ok()) return e.status();
    const std::vector<double> slopes = lime_slopes(e.value(), point, lime.baseline);
    for (std::size_t j = 0; j < d; ++j) {
      lime_mean[j] += e.value().coefficients[j] / double(m);
      slope_mean[j] += slopes[j] / double(m);
    }
  }
  out << "feature,gamma,delta_lower,delta,delta_upper,lime,lime_slope\n";
  for (double gamma : gammas.value()) {
    SensitivityOptions options;
    options.gamma = gamma;
    options.valid_range = data.valid_range;
    options.tolerance = tolerance.value();
    Result<GlobalSensitivity> global = global_sensitivity(output, MatrixView(data.test), options);
    if (!global.ok()) return global.status();
    const GlobalSensitivity& g = global.value();
    for (std::size_t a = 0; a < g.features.size(); ++a) {
      const std::size_t j = g.features[a];
      out << j << ',' << format_number(gamma) << ',' << format_number(g.delta_lower[a]) << ','
          << format_number(g.delta[a]) << ',' << format_number(g.delta_upper[a]) << ',' << format_number(lime_mean[j])
          << ',' << format_number(slope_mean[j]) << '\n';
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
struct MulticlassPaperData {
  std::string path;
  RowMatrix train_x, test;
  std::vector<double> train_y, test_labels;
  std::size_t classes = 0;
};

Result<MulticlassPaperData> load_multiclass_data(const Arguments& args) {
  Result<PaperSplit> split = read_paper_split(args);
  if (!split.ok()) return split.status();
  const RowMatrix& all = split.value().all;
  const std::size_t rows = std::size_t(all.rows()), n = split.value().train, t = split.value().test,
                    d = split.value().features;
  const std::string& path_value = split.value().path;
  MulticlassPaperData data;
  data.path = path_value;
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

// The K most negative entries of `score` (K at most), and only those below 0 when `negative_only`.
std::vector<std::size_t> most_negative(const std::vector<double>& score, std::size_t k) {
  std::vector<std::size_t> order(score.size());
  for (std::size_t j = 0; j < order.size(); ++j) order[j] = j;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return score[a] < score[b]; });
  std::vector<std::size_t> out;
  for (std::size_t j : order) {
    if (out.size() == k || !(score[j] < 0.0)) break;
    out.push_back(j);
  }
  return out;
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
  Result<MulticlassPaperData> loaded = load_multiclass_data(args);
  if (!loaded.ok()) return loaded.status();
  const MulticlassPaperData& data = loaded.value();
  Result<std::size_t> epochs = count_flag(args, "epochs", 10, 0), samples = count_flag(args, "lime-samples", 5000, 2),
                      seed = count_flag(args, "seed", 0, 0), patch = count_flag(args, "patch", 3, 1);
  for (const auto* v : {&epochs, &samples, &seed, &patch})
    if (!v->ok()) return v->status();
  Result<double> gamma = positive_flag(args, "gamma", 0.25, false),
                 tolerance = positive_flag(args, "tolerance", 0.002, true);
  for (const auto* v : {&gamma, &tolerance})
    if (!v->ok()) return v->status();
  Interval range{0.0, 1.0};
  if (args.has("valid-range")) {
    Result<std::vector<double>> r = args.numbers("valid-range", "");
    if (!r.ok()) return r.status();
    if (r.value().size() != 2 || r.value()[0] > r.value()[1]) {
      return Status(StatusCode::invalid_argument,
                    "--valid-range expects two numbers LO,HI with LO <= HI, got '" + args.get("valid-range", "") + "'");
    }
    range = Interval{r.value()[0], r.value()[1]};
  }
  const std::size_t d = std::size_t(data.train_x.cols()), m = std::size_t(data.test.rows());
  // The points: --points, or the first test point of each class.
  std::vector<std::size_t> points;
  if (args.has("points")) {
    Result<std::vector<std::size_t>> p = args.indices("points", "");
    if (!p.ok()) return p.status();
    points = p.value();
    for (std::size_t i : points) {
      if (i >= m) {
        return Status(StatusCode::invalid_argument, "--points: test point " + std::to_string(i) + " is out of range (" +
                                                        count_of(m, "test point") + ")");
      }
    }
  } else {
    for (std::size_t c = 0; c < data.classes; ++c) {
      for (std::size_t i = 0; i < m; ++i) {
        if (std::size_t(data.test_labels[i]) == c) {
          points.push_back(i);
          break;
        }
      }
    }
  }
  Result<MulticlassTrainingData> train =
      make_multiclass_training_data(MatrixView(data.train_x), data.train_y.data(), data.train_y.size(), data.classes);
  if (!train.ok()) return Status(train.status().code(), data.path + ": " + train.status().message());
  // The authors' training: SE-ARD from s2 = 1, l = 1 (tied over the classes here), at most `epochs` L-BFGS
  // iterations of the Laplace evidence (0: those starting values).
  std::vector<SeArdKernel> kernels{SeArdKernel{1.0, std::vector<double>(d, 1.0)}};
  double lml_start = 0.0, lml = 0.0, log_prior = 0.0;
  // MAP with --signal-variance-prior / --length-scale-prior (gpc_model_flags.h), as the authors train.
  Result<HyperparameterPrior> prior = parse_prior_flags(args, epochs.value() > 0);
  if (!prior.ok()) {
    return prior.status().message().find("only applies with --optimize") == std::string::npos
               ? prior.status()
               : Status(StatusCode::invalid_argument, "the priors need training: give --epochs E >= 1");
  }
  if (epochs.value() > 0) {
    MulticlassHyperparameterOptions fit_options;
    fit_options.shared = true;
    fit_options.max_iterations = epochs.value();
    fit_options.prior = prior.value();
    Result<MulticlassHyperparameterFit> fit = fit_multiclass_hyperparameters(train.value(), kernels, fit_options);
    if (!fit.ok()) return Status(fit.status().code(), data.path + ": " + fit.status().message());
    kernels = {fit.value().kernels.front()};
    lml_start = fit.value().start_log_marginal_likelihood;
    lml = fit.value().log_marginal_likelihood;
    log_prior = fit.value().log_prior;
  }
  MulticlassOptions model_options;
  model_options.with_gradient = false;
  Result<MulticlassLaplace> fitted = MulticlassLaplace::fit(train.value(), kernels, model_options);
  if (!fitted.ok()) return Status(fitted.status().code(), data.path + ": " + fitted.status().message());
  const MulticlassLaplace& model = fitted.value();
  if (epochs.value() == 0) lml = lml_start = model.log_marginal_likelihood();

  // Pixels constant in the training images are marked and, unless --include-constant, never in a patch:
  // whitening one moves the image away from all the training data (every class drifts towards 1/C).
  const bool include_constant = args.has("include-constant");
  const std::vector<bool> constant = constant_features(MatrixView(data.train_x));
  std::vector<std::size_t> constant_list;
  for (std::size_t j = 0; j < d; ++j)
    if (constant[j]) constant_list.push_back(j);
  out << "point,label,class,probability,feature,row,col,value,delta_lower,delta,delta_upper,lime,"
         "constant_in_training\n";
  std::ostringstream summary;
  summary << "{\"figure\":5,\"train_rows\":" << data.train_y.size() << ",\"classes\":" << data.classes
          << ",\"gamma\":" << format_number(gamma.value())
          << ",\"start_log_marginal_likelihood\":" << format_number(lml_start)
          << ",\"log_marginal_likelihood\":" << format_number(lml) << "," << prior_fields(prior.value(), log_prior)
          << ",\"length_scales\":" << json_array(kernels.front().expanded(d).length_scales)
          << ",\"signal_variance\":" << format_number(kernels.front().signal_variance)
          << ",\"constant_in_training\":" << index_list(constant_list)
          << ",\"constant_in_patches\":" << (include_constant ? "true" : "false") << ",\"points\":[";
  const std::size_t side = std::size_t(std::lround(std::sqrt(double(d))));
  const bool image = side * side == d;
  // What every feature's bounds of this model share (the O(C^2 n^3) setup), made once for all the points.
  const std::shared_ptr<const MulticlassBoundTerms> terms = MulticlassBoundTerms::make(model);
  for (std::size_t a = 0; a < points.size(); ++a) {
    const std::size_t p = points[a];
    const std::size_t c = std::size_t(data.test_labels[p]);
    const auto row = data.test.row(Eigen::Index(p));
    const std::vector<double> point(row.data(), row.data() + row.size());
    Result<MulticlassOutput> output =
        MulticlassOutput::make(model, c, MulticlassOutput::default_partition(), {}, terms);
    if (!output.ok()) return output.status();
    SensitivityOptions options;
    options.gamma = gamma.value();
    options.valid_range = range;
    options.tolerance = tolerance.value();
    Result<LocalSensitivity> local = feature_sensitivity(output.value(), point, options);
    if (!local.ok())
      return Status(local.status().code(), "test point " + std::to_string(p) + ": " + local.status().message());
    LimeOptions lime;
    lime.samples = samples.value();
    lime.seed = derive_seed(seed.value(), {p});
    lime.baseline.assign(d, range.lower);  // pixels switched off: black, as the paper does
    Result<LimeExplanation> e = lime_explain(output.value(), point, lime);
    if (!e.ok()) return e.status();
    const double probability = local.value().value;
    std::vector<double> delta(d), delta_upper(d), lime_coefficients = e.value().coefficients;
    for (const FeatureSensitivity& f : local.value().features) {
      delta[f.feature] = f.delta;
      delta_upper[f.feature] = f.delta_upper;
      out << p << ',' << c << ',' << c << ',' << format_number(probability) << ',' << f.feature << ','
          << (image ? f.feature / side : 0) << ',' << (image ? f.feature % side : f.feature) << ','
          << format_number(point[f.feature]) << ',' << format_number(f.delta_lower) << ',' << format_number(f.delta)
          << ',' << format_number(f.delta_upper) << ',' << format_number(lime_coefficients[f.feature]) << ','
          << (constant[f.feature] ? "yes" : "no") << '\n';
    }
    // The patch: the most negative certified Delta among the pixels whose whole interval is below 0.
    std::vector<double> certified_negative(d);
    for (std::size_t j = 0; j < d; ++j)
      certified_negative[j] = delta_upper[j] < 0.0 && (include_constant || !constant[j]) ? delta[j] : 0.0;
    const std::vector<std::size_t> ours = most_negative(certified_negative, patch.value());
    const std::vector<std::size_t> theirs = most_negative(lime_coefficients, patch.value());
    auto whitened = [&](const std::vector<std::size_t>& pixels) -> Result<double> {
      std::vector<double> x = point;
      for (std::size_t j : pixels) x[j] = range.upper;
      double value = 0.0;
      GPPROBE_RETURN_IF_ERROR(output.value().values(MatrixView(x.data(), 1, d), &value));
      return value;
    };
    // Every class's probability (the model's prediction) at the image, whitened as given.
    auto all_classes = [&](const std::vector<std::size_t>& pixels) {
      std::vector<double> x = point;
      for (std::size_t j : pixels) x[j] = range.upper;
      return json_array(model.probability_at(x.data()));
    };
    Result<double> after = whitened(ours), after_lime = whitened(theirs);
    for (const auto* v : {&after, &after_lime})
      if (!v->ok()) return v->status();
    summary << (a ? "," : "") << "{\"point\":" << p << ",\"class\":" << c
            << ",\"probability\":" << format_number(probability) << ",\"probabilities\":" << all_classes({})
            << ",\"patch\":" << index_list(ours) << ",\"whitened_probability\":" << format_number(after.value())
            << ",\"whitened_probabilities\":" << all_classes(ours) << ",\"lime_patch\":" << index_list(theirs)
            << ",\"lime_whitened_probability\":" << format_number(after_lime.value())
            << ",\"lime_whitened_probabilities\":" << all_classes(theirs) << "}";
  }
  summary << "]}\n";
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
  const std::size_t d = data.train.dimension();
  const std::size_t widest =
      std::max(fixed_dimension.value(), *std::max_element(dimensions.value().begin(), dimensions.value().end()));
  if (widest > d) {
    return Status(StatusCode::invalid_argument, "--dimensions and --fixed-dimension go up to " +
                                                    std::to_string(widest) + "; " + data.path + " has " +
                                                    count_of(d, "feature"));
  }
  Result<TrainedModel> model = train(data, method.value(), epochs.value());
  if (!model.ok()) return model.status();
  const ClassifierCommonForm& form = model.value().gpc.common_form();
  const std::vector<std::size_t> order = shortest_length_scales(form.kernel(), widest, MatrixView(data.train.x));
  if (order.size() < widest) {
    return Status(StatusCode::invalid_argument, "--dimensions and --fixed-dimension go up to " +
                                                    std::to_string(widest) + "; the training rows of " + data.path +
                                                    " vary on " + count_of(order.size(), "feature") + " only");
  }

  out << "sweep,gamma,dimension,epsilon,point,seconds,iterations,status,lower,upper\n";
  auto run = [&](const char* sweep, double gamma, std::size_t k, double epsilon) -> Status {
    RobustnessOptions options;
    options.gamma = gamma;
    options.dims.assign(order.begin(), order.begin() + std::ptrdiff_t(k));
    options.valid_range = data.valid_range;
    options.tolerance = epsilon;
    options.max_iterations = max_iterations.value();
    options.time_limit_seconds = time_limit.value();
    for (std::size_t p = 0; p < std::size_t(data.test.rows()); ++p) {
      Result<TimedExtreme> t = timed_maximum(form, test_row(data, p), options);
      if (!t.ok()) return t.status();
      const OutputExtreme& e = t.value().maximum;
      out << sweep << ',' << format_number(gamma) << ',' << k << ',' << format_number(epsilon) << ',' << p << ','
          << format_number(t.value().seconds) << ',' << e.iterations << ',' << search_status_name(e.status) << ','
          << format_number(e.lower) << ',' << format_number(e.upper) << '\n';
    }
    return Status::success();
  };
  for (double gamma : gammas.value()) {
    for (std::size_t k : dimensions.value()) GPPROBE_RETURN_IF_ERROR(run("dimension", gamma, k, fixed_epsilon.value()));
    for (double epsilon : epsilons.value())
      GPPROBE_RETURN_IF_ERROR(run("epsilon", gamma, fixed_dimension.value(), epsilon));
  }
  return Status::success();
}

}  // namespace gpprobe::cli
