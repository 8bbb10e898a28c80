#include "gpprobe/explain/paper_figures.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "gpprobe/classification/multiclass_hyperparameter_fit.h"
#include "gpprobe/common/number_text.h"
#include "gpprobe/common/random_stream.h"
#include "gpprobe/explain/gpc_output.h"
#include "gpprobe/explain/lime.h"
#include "gpprobe/explain/multiclass_output.h"

namespace gpprobe {

namespace {

std::vector<double> row_of(const RowMatrix& m, std::size_t p) {
  const auto row = m.row(Eigen::Index(p));
  return std::vector<double>(row.data(), row.data() + row.size());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Status point_in_range(std::size_t p, std::size_t m) {
  if (p < m) return Status::success();
  return Status(StatusCode::invalid_argument,
                "test point " + std::to_string(p) + " is out of range: there are " + count_of(m, "test point"));
}

// The K most negative entries of `score` (K at most), only those below 0.
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

}  // namespace

Result<PaperModel> train_paper_model(const PaperBinaryData& data, ClassifierMethod method, std::size_t epochs) {
  ClassifierOptions options;
  options.method = method;
  Result<EpochFit> fit = fit_for_epochs(data.train, options, epochs);
  if (!fit.ok()) return Status(fit.status().code(), data.source + ": " + fit.status().message());
  options.with_gradient = false;
  Result<GpClassifier> gpc = GpClassifier::fit(data.train, fit.value().kernel, options);
  if (!gpc.ok()) return Status(gpc.status().code(), data.source + ": " + gpc.status().message());
  return PaperModel{std::move(fit).value(), std::move(gpc).value()};
}

Result<Figure3Result> run_figure_3(const PaperBinaryData& data, const Figure3Options& options) {
  std::vector<std::size_t> points = options.points;
  for (std::size_t p : points) GPPROBE_RETURN_IF_ERROR(point_in_range(p, data.test_labels.size()));
  if (options.points.empty()) {
    for (double label : {0.0, 1.0}) {
      const auto it = std::find(data.test_labels.begin(), data.test_labels.end(), label);
      if (it != data.test_labels.end()) points.push_back(std::size_t(it - data.test_labels.begin()));
    }
  }
  Result<PaperModel> model = train_paper_model(data, options.method, options.epochs);
  if (!model.ok()) return model.status();
  const ClassifierCommonForm& form = model.value().gpc.common_form();
  RobustnessOptions robustness;
  robustness.dims = shortest_length_scales(form.kernel(), options.pixels, MatrixView(data.train.x));
  robustness.valid_range = data.valid_range;
  robustness.tolerance = options.tolerance;
  robustness.search = RobustnessSearch::adversarial;
  Figure3Result result;
  result.pixels = robustness.dims;
  for (std::size_t p : points) {
    Result<std::vector<RobustnessCertificate>> rows =
        robustness_sweep(form, row_of(data.test, p), options.gammas, robustness);
    if (!rows.ok()) return rows.status();
    result.points.push_back(Figure3Point{p, std::move(rows).value()});
  }
  return result;
}

Result<std::vector<Figure4Run>> run_figure_4(const PaperBinaryData& data, const Figure4Options& options) {
  std::vector<Figure4Run> runs;
  for (ClassifierMethod method : options.methods) {
    for (std::size_t epochs : options.budgets) {
      Result<PaperModel> model = train_paper_model(data, method, epochs);
      if (!model.ok()) return model.status();
      const ClassifierCommonForm& form = model.value().gpc.common_form();
      RobustnessOptions robustness;
      robustness.gamma = options.gamma;
      if (options.pixels > 0)
        robustness.dims = shortest_length_scales(form.kernel(), options.pixels, MatrixView(data.train.x));
      robustness.valid_range = data.valid_range;
      robustness.tolerance = options.tolerance;
      robustness.time_limit_seconds = options.time_limit_seconds;
      Result<std::vector<DeltaRobustness>> deltas = delta_robustness(form, MatrixView(data.test), robustness);
      if (!deltas.ok()) return deltas.status();
      Figure4Run run;
      run.method = method;
      run.epochs = epochs;
      run.fit = model.value().fit;
      run.deltas = std::move(deltas).value();
      std::vector<double> lowers, uppers;
      for (const DeltaRobustness& r : run.deltas) {
        lowers.push_back(r.delta_lower);
        uppers.push_back(r.delta_upper);
      }
      // A median is monotone, so the median delta lies between the medians of the ends.
      run.median = Interval{median(lowers), median(uppers)};
      runs.push_back(std::move(run));
    }
  }
  return runs;
}

Result<Figure6Result> run_figure_6(const PaperBinaryData& data, const Figure6Options& options) {
  Result<PaperModel> model = train_paper_model(data, options.method, options.epochs);
  if (!model.ok()) return model.status();
  const ClassifierOutput output(model.value().gpc.common_form());
  const std::size_t d = data.train.dimension(), m = std::size_t(data.test.rows());
  LimeOptions lime;
  lime.samples = options.lime_samples;
  lime.baseline.assign(d, 0.0);
  if (options.baseline_mean) {
    for (std::size_t j = 0; j < d; ++j) lime.baseline[j] = data.train.x.col(Eigen::Index(j)).mean();
  }
  Figure6Result result;
  result.lime_mean.assign(d, 0.0);
  result.lime_slope_mean.assign(d, 0.0);
  for (std::size_t p = 0; p < m; ++p) {
    lime.seed = derive_seed(options.seed, {p});
    const std::vector<double> point = row_of(data.test, p);
    Result<LimeExplanation> e = lime_explain(output, point, lime);
    if (!e.ok()) return e.status();
    const std::vector<double> slopes = lime_slopes(e.value(), point, lime.baseline);
    for (std::size_t j = 0; j < d; ++j) {
      result.lime_mean[j] += e.value().coefficients[j] / double(m);
      result.lime_slope_mean[j] += slopes[j] / double(m);
    }
  }
  for (double gamma : options.gammas) {
    SensitivityOptions sensitivity;
    sensitivity.gamma = gamma;
    sensitivity.valid_range = data.valid_range;
    sensitivity.tolerance = options.tolerance;
    Result<GlobalSensitivity> global = global_sensitivity(output, MatrixView(data.test), sensitivity);
    if (!global.ok()) return global.status();
    result.global.push_back(std::move(global).value());
  }
  return result;
}

Result<std::vector<Figure7Row>> run_figure_7(const PaperBinaryData& data, const Figure7Options& options) {
  if (options.dimensions.empty())
    return Status(StatusCode::invalid_argument, "Fig. 7 needs at least one box dimension");
  const std::size_t widest =
      std::max(options.fixed_dimension, *std::max_element(options.dimensions.begin(), options.dimensions.end()));
  const std::size_t d = data.train.dimension();
  if (widest > d) {
    return Status(StatusCode::invalid_argument, "the box dimensions go up to " + std::to_string(widest) + "; " +
                                                    data.source + " has " + count_of(d, "feature"));
  }
  Result<PaperModel> model = train_paper_model(data, options.method, options.epochs);
  if (!model.ok()) return model.status();
  const ClassifierCommonForm& form = model.value().gpc.common_form();
  const std::vector<std::size_t> order = shortest_length_scales(form.kernel(), widest, MatrixView(data.train.x));
  if (order.size() < widest) {
    return Status(StatusCode::invalid_argument,
                  "the training rows of " + data.source + " vary on " + count_of(order.size(), "feature") + " only");
  }
  std::vector<Figure7Row> rows;
  auto run = [&](const char* sweep, double gamma, std::size_t k, double epsilon) -> Status {
    RobustnessOptions robustness;
    robustness.gamma = gamma;
    robustness.dims.assign(order.begin(), order.begin() + std::ptrdiff_t(k));
    robustness.valid_range = data.valid_range;
    robustness.tolerance = epsilon;
    robustness.max_iterations = options.max_iterations;
    robustness.time_limit_seconds = options.time_limit_seconds;
    for (std::size_t p = 0; p < std::size_t(data.test.rows()); ++p) {
      Result<TimedExtreme> t = timed_maximum(form, row_of(data.test, p), robustness);
      if (!t.ok()) return t.status();
      Figure7Row row;
      row.sweep = sweep;
      row.gamma = gamma;
      row.dimension = k;
      row.epsilon = epsilon;
      row.point = p;
      row.result = std::move(t).value();
      rows.push_back(std::move(row));
    }
    return Status::success();
  };
  for (double gamma : options.gammas) {
    for (std::size_t k : options.dimensions) GPPROBE_RETURN_IF_ERROR(run("dimension", gamma, k, options.fixed_epsilon));
    for (double epsilon : options.epsilons)
      GPPROBE_RETURN_IF_ERROR(run("epsilon", gamma, options.fixed_dimension, epsilon));
  }
  return rows;
}

Result<Figure5Result> run_figure_5(const PaperMulticlassData& data, const Figure5Options& options) {
  const std::size_t d = std::size_t(data.train_x.cols()), m = std::size_t(data.test.rows());
  std::vector<std::size_t> points = options.points;
  for (std::size_t p : points) GPPROBE_RETURN_IF_ERROR(point_in_range(p, m));
  if (points.empty()) {
    for (std::size_t c = 0; c < data.classes; ++c) {
      for (std::size_t i = 0; i < m; ++i) {
        if (std::size_t(data.test_labels[i]) == c) {
          points.push_back(i);
          break;
        }
      }
    }
  }
  if (!std::isfinite(options.nearly_constant_share) || options.nearly_constant_share < 0.0 ||
      options.nearly_constant_share > 1.0) {
    return Status(StatusCode::invalid_argument, "the nearly-constant share must be a number in [0, 1], got " +
                                                    number_text(options.nearly_constant_share));
  }
  if (!options.prior.empty() && options.epochs == 0)
    return Status(StatusCode::invalid_argument, "the priors need training: give at least 1 epoch");
  GPPROBE_RETURN_IF_ERROR(options.prior.check());
  Result<MulticlassTrainingData> train =
      make_multiclass_training_data(MatrixView(data.train_x), data.train_y.data(), data.train_y.size(), data.classes);
  if (!train.ok()) return Status(train.status().code(), data.source + ": " + train.status().message());
  // The authors' training: SE-ARD from s2 = 1, l = 1 (tied over the classes here), at most `epochs` L-BFGS
  // iterations of the Laplace evidence (0: those starting values), MAP with the prior.
  Figure5Result result;
  std::vector<SeArdKernel> kernels{SeArdKernel{1.0, std::vector<double>(d, 1.0)}};
  if (options.epochs > 0) {
    MulticlassHyperparameterOptions fit_options;
    fit_options.shared = true;
    fit_options.max_iterations = options.epochs;
    fit_options.prior = options.prior;
    Result<MulticlassHyperparameterFit> fit = fit_multiclass_hyperparameters(train.value(), kernels, fit_options);
    if (!fit.ok()) return Status(fit.status().code(), data.source + ": " + fit.status().message());
    kernels = {fit.value().kernels.front()};
    result.start_log_marginal_likelihood = fit.value().start_log_marginal_likelihood;
    result.log_marginal_likelihood = fit.value().log_marginal_likelihood;
    result.log_prior = fit.value().log_prior;
  }
  MulticlassOptions model_options;
  model_options.with_gradient = false;
  Result<MulticlassLaplace> fitted = MulticlassLaplace::fit(train.value(), kernels, model_options);
  if (!fitted.ok()) return Status(fitted.status().code(), data.source + ": " + fitted.status().message());
  const MulticlassLaplace& model = fitted.value();
  if (options.epochs == 0)
    result.log_marginal_likelihood = result.start_log_marginal_likelihood = model.log_marginal_likelihood();
  result.kernel = kernels.front().expanded(d);

  // Features constant or nearly constant in the training rows never enter a patch unless asked:
  // whitening one moves the image away from (nearly) all the training data (every class drifts towards
  // 1/C).
  TrainingVariation variation =
      training_variation(MatrixView(data.train_x), kConstantFeatureTolerance, options.nearly_constant_share);
  result.constant_in_training = variation.constant;
  result.nearly_constant_in_training = variation.nearly_constant;
  result.varying_rows = std::move(variation.varying_rows);
  std::vector<bool> constant(d);
  for (std::size_t j = 0; j < d; ++j) constant[j] = variation.constant[j] || variation.nearly_constant[j];
  const Interval& range = options.valid_range;
  // What every feature's bounds of this model share (the O(C^2 n^3) setup), made once for all the points.
  const std::shared_ptr<const MulticlassBoundTerms> terms = MulticlassBoundTerms::make(model);
  for (std::size_t p : points) {
    Figure5Point out;
    out.point = p;
    out.label = std::size_t(data.test_labels[p]);
    const std::vector<double> point = row_of(data.test, p);
    Result<MulticlassOutput> output =
        MulticlassOutput::make(model, out.label, MulticlassOutput::default_partition(), {}, terms);
    if (!output.ok()) return output.status();
    SensitivityOptions sensitivity;
    sensitivity.gamma = options.gamma;
    sensitivity.valid_range = range;
    sensitivity.tolerance = options.tolerance;
    sensitivity.nearly_constant_share = options.nearly_constant_share;
    Result<LocalSensitivity> local = feature_sensitivity(output.value(), point, sensitivity);
    if (!local.ok())
      return Status(local.status().code(), "test point " + std::to_string(p) + ": " + local.status().message());
    LimeOptions lime;
    lime.samples = options.lime_samples;
    lime.seed = derive_seed(options.seed, {p});
    lime.baseline.assign(d, range.lower);  // pixels switched off: black, as the paper does
    Result<LimeExplanation> e = lime_explain(output.value(), point, lime);
    if (!e.ok()) return e.status();
    out.sensitivity = std::move(local).value();
    out.lime = e.value().coefficients;
    std::vector<double> delta(d), delta_upper(d);
    for (const FeatureSensitivity& f : out.sensitivity.features) {
      delta[f.feature] = f.delta;
      delta_upper[f.feature] = f.delta_upper;
    }
    // The patch: the most negative certified Delta among the features whose whole interval is below 0.
    std::vector<double> certified_negative(d);
    for (std::size_t j = 0; j < d; ++j)
      certified_negative[j] = delta_upper[j] < 0.0 && (options.include_constant || !constant[j]) ? delta[j] : 0.0;
    out.patch = most_negative(certified_negative, options.patch);
    out.lime_patch = most_negative(out.lime, options.patch);
    // Every class's probability (the model's prediction) at the image, whitened as given.
    auto all_classes = [&](const std::vector<std::size_t>& pixels) {
      std::vector<double> x = point;
      for (std::size_t j : pixels) x[j] = range.upper;
      return model.probability_at(x.data());
    };
    out.probabilities = all_classes({});
    out.whitened = all_classes(out.patch);
    out.lime_whitened = all_classes(out.lime_patch);
    auto whitened = [&](const std::vector<std::size_t>& pixels) -> Result<double> {
      std::vector<double> x = point;
      for (std::size_t j : pixels) x[j] = range.upper;
      double value = 0.0;
      GPPROBE_RETURN_IF_ERROR(output.value().values(MatrixView(x.data(), 1, d), &value));
      return value;
    };
    Result<double> after = whitened(out.patch), after_lime = whitened(out.lime_patch);
    for (const auto* v : {&after, &after_lime})
      if (!v->ok()) return v->status();
    out.whitened_probability = after.value();
    out.lime_whitened_probability = after_lime.value();
    result.points.push_back(std::move(out));
  }

  // Class specificity: how alike the points' Delta maps are.
  const std::vector<bool> excluded = options.include_constant ? std::vector<bool>() : constant;
  const std::size_t k = result.points.size();
  result.delta_correlation.assign(k, std::vector<double>(k, 1.0));
  std::vector<std::vector<double>> maps(k, std::vector<double>(d));
  for (std::size_t a = 0; a < k; ++a)
    for (const FeatureSensitivity& f : result.points[a].sensitivity.features) maps[a][f.feature] = f.delta;
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t b = a + 1; b < k; ++b)
      result.delta_correlation[a][b] = result.delta_correlation[b][a] = pearson_correlation(maps[a], maps[b], excluded);
    if (std::isnan(pearson_correlation(maps[a], maps[a], excluded)))
      result.delta_correlation[a][a] = std::numeric_limits<double>::quiet_NaN();
  }
  return result;
}

double pearson_correlation(const std::vector<double>& a, const std::vector<double>& b,
                           const std::vector<bool>& excluded) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (a.size() != b.size() || (!excluded.empty() && excluded.size() != a.size())) return nan;
  auto kept = [&](std::size_t j) { return excluded.empty() || !excluded[j]; };
  double mean_a = 0.0, mean_b = 0.0;
  std::size_t n = 0;
  for (std::size_t j = 0; j < a.size(); ++j) {
    if (!kept(j)) continue;
    mean_a += a[j];
    mean_b += b[j];
    ++n;
  }
  if (n < 2) return nan;
  mean_a /= double(n);
  mean_b /= double(n);
  double saa = 0.0, sbb = 0.0, sab = 0.0;
  for (std::size_t j = 0; j < a.size(); ++j) {
    if (!kept(j)) continue;
    const double u = a[j] - mean_a, v = b[j] - mean_b;
    saa += u * u;
    sbb += v * v;
    sab += u * v;
  }
  if (!(saa > 0.0) || !(sbb > 0.0)) return nan;
  return std::clamp(sab / std::sqrt(saa * sbb), -1.0, 1.0);
}

}  // namespace gpprobe
