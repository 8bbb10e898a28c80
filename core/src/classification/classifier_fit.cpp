#include "gpprobe/classification/classifier_fit.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace gpprobe {

namespace {

Status prior_without_optimize(const HyperparameterPrior& prior) {
  if (prior.empty()) return Status::success();
  return Status(StatusCode::invalid_argument,
                "a hyperparameter prior only applies when the hyperparameters are optimised");
}

// C from the labels when not given: the largest whole, non-negative label + 1 (the training data's check
// then names any label that is not a class index).
Result<std::size_t> class_count(const double* labels, std::size_t n, std::size_t classes) {
  if (classes != 0) return classes;
  double largest = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double y = labels[i];
    if (std::isfinite(y) && y == std::floor(y) && y >= 0.0) largest = std::max(largest, y);
  }
  if (!(largest < 1e6)) return Status(StatusCode::invalid_argument, "training labels: the largest label is too large");
  return std::size_t(largest) + 1;
}

Result<std::vector<SeArdKernel>> class_kernels(const MulticlassFitSettings& s, std::size_t C, std::size_t d) {
  const std::size_t signals = s.signal_variances.size(), lists = s.length_scales.size();
  if (signals != 1 && signals != C) {
    return Status(StatusCode::invalid_argument, s.signal_variances_name + " has " + count_of(signals, "value") +
                                                    " for " + count_of(C, "class", "classes") + ": give 1 or " +
                                                    std::to_string(C));
  }
  if (lists != 1 && lists != C) {
    return Status(StatusCode::invalid_argument, s.length_scales_name + " has " + count_of(lists, "list") + " for " +
                                                    count_of(C, "class", "classes") + ": give 1 (shared) or " +
                                                    std::to_string(C));
  }
  std::vector<SeArdKernel> kernels;
  for (std::size_t c = 0; c < std::max(signals, lists); ++c) {
    const SeArdKernel k{s.signal_variances[signals == 1 ? 0 : c], s.length_scales[lists == 1 ? 0 : c]};
    if (const Status checked = k.check(d); !checked.ok()) {
      return Status(checked.code(), "kernel of class " + std::to_string(c) + ": " + checked.message());
    }
    kernels.push_back(k.expanded(d));
  }
  return kernels;
}

}  // namespace

Result<HyperparameterPrior> parse_hyperparameter_prior(const std::string& signal_text, const std::string& signal_name,
                                                       const std::string& length_text, const std::string& length_name,
                                                       bool optimize, const std::string& optimize_words) {
  HyperparameterPrior prior;
  const std::pair<const std::string*, const std::string*> given[] = {{&signal_text, &signal_name},
                                                                     {&length_text, &length_name}};
  for (std::size_t i = 0; i < 2; ++i) {
    Result<LogPrior> p = parse_log_prior(*given[i].first, *given[i].second);
    if (!p.ok()) return p.status();
    if (p.value().family != PriorFamily::none && !optimize) {
      return Status(StatusCode::invalid_argument, *given[i].second + " only applies " + optimize_words);
    }
    (i == 0 ? prior.signal_variance : prior.length_scale) = p.value();
  }
  return prior;
}

Result<ClassifierFit> fit_classifier(const MatrixView& x, const double* labels, std::size_t n,
                                     const ClassifierFitSettings& settings, const ProgressCallback& progress) {
  GPPROBE_RETURN_IF_ERROR(check_options(settings.model));
  if (!settings.optimize) GPPROBE_RETURN_IF_ERROR(prior_without_optimize(settings.hyperparameters.prior));
  GPPROBE_RETURN_IF_ERROR(settings.kernel.check(x.cols()));
  Result<ClassifierTrainingData> data = make_gpc_training_data(x, labels, n);
  if (!data.ok()) return data.status();
  std::optional<ClassifierHyperparameterFit> optimum;
  SeArdKernel chosen = settings.kernel;
  if (settings.optimize) {
    Result<ClassifierHyperparameterFit> fitted =
        fit_gpc_hyperparameters(data.value(), settings.kernel, settings.model, settings.hyperparameters, progress);
    if (!fitted.ok()) return fitted.status();
    optimum = std::move(fitted).value();
    chosen = optimum->kernel;
  }
  Result<GpClassifier> gpc = GpClassifier::fit(data.value(), chosen, settings.model);
  if (!gpc.ok()) return gpc.status();
  return ClassifierFit{std::move(gpc).value(), std::move(optimum)};
}

Result<MulticlassFit> fit_multiclass_classifier(const MatrixView& x, const double* labels, std::size_t n,
                                                const MulticlassFitSettings& settings,
                                                const ProgressCallback& progress) {
  if (!settings.optimize) GPPROBE_RETURN_IF_ERROR(prior_without_optimize(settings.hyperparameters.prior));
  Result<std::size_t> C = class_count(labels, n, settings.classes);
  if (!C.ok()) return C.status();
  Result<MulticlassTrainingData> data = make_multiclass_training_data(x, labels, n, C.value());
  if (!data.ok()) return data.status();
  Result<std::vector<SeArdKernel>> kernels = class_kernels(settings, C.value(), x.cols());
  if (!kernels.ok()) return kernels.status();

  std::optional<MulticlassHyperparameterFit> optimum;
  std::vector<SeArdKernel> chosen = kernels.value();
  RowMatrix warm = settings.start_alpha;
  if (settings.optimize) {
    Result<MulticlassHyperparameterFit> fitted =
        fit_multiclass_hyperparameters(data.value(), kernels.value(), settings.hyperparameters, progress);
    if (!fitted.ok()) return fitted.status();
    optimum = std::move(fitted).value();
    chosen = optimum->kernels;
    warm = optimum->alpha;  // the optimizer's weights at `chosen`: a warm start, the same mode
  }
  MulticlassOptions newton;
  newton.max_iterations = settings.newton_iterations;
  if (warm.size() > 0) newton.start_a = &warm;
  Result<MulticlassLaplace> model = MulticlassLaplace::fit(data.value(), chosen, newton);
  if (!model.ok()) return model.status();
  if (!std::isfinite(model.value().log_marginal_likelihood())) {
    return Status(StatusCode::numerical_failure, "the log marginal likelihood is not finite");
  }
  for (const std::vector<double>& row : model.value().gradient())
    for (double g : row)
      if (!std::isfinite(g)) {
        return Status(StatusCode::numerical_failure, "the gradient of the log marginal likelihood is not finite");
      }
  std::vector<std::size_t> counts(data.value().classes, 0);
  for (std::size_t label : data.value().labels) ++counts[label];
  return MulticlassFit{std::move(model).value(), std::move(optimum), std::move(warm), std::move(counts)};
}

}  // namespace gpprobe
