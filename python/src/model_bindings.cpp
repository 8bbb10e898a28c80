// Binary GP classification (docs/design/classification.md) and GP regression (docs/design/regression.md)
// for Python, fitted the way `gpprobe gpc` and `gpprobe gpr` fit them: the classifiers by the core's one fit
// sequence (classification/classifier_fit.h), the regressor as core/cli/regression/gpr_command.cpp does. gpprobe.GPClassifier and gpprobe.GPRegressor (models.py) give them
// scikit-learn's fit/predict. Registration and array bookkeeping only; the GIL is released while the core works.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/certify/multiclass_robustness.h"
#include "gpprobe/classification/classifier_fit.h"
#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/hyperparameter_fit.h"
#include "gpprobe/classification/hyperparameter_prior.h"
#include "gpprobe/classification/multiclass_hyperparameter_fit.h"
#include "gpprobe/classification/multiclass_laplace.h"
#include "gpprobe/explain/gpc_output.h"
#include "gpprobe/explain/multiclass_output.h"
#include "gpprobe/kernels/kernel_expression.h"
#include "gpprobe/kernels/kernel_parameters.h"
#include "gpprobe/kernels/named_kernels.h"
#include "gpprobe/regression/gp_regression.h"
#include "gpprobe/regression/hyperparameter_fit.h"

#include "arrays.h"
#include "bindings.h"
#include "sensitivity.h"

namespace gpprobe::python {

namespace {

// The MAP priors (hyperparameter_prior.h) from the CLI's spellings ("none", "lognormal:MU,SIGMA",
// "student-t:MU,SIGMA,NU"); a prior other than none needs optimize, as --optimize on the CLI.
HyperparameterPrior prior_arguments(const std::string& signal_variance_prior, const std::string& length_scale_prior,
                                    bool optimize) {
  Result<HyperparameterPrior> prior =
      parse_hyperparameter_prior(signal_variance_prior, "signal_variance_prior", length_scale_prior,
                                 "length_scale_prior", optimize, "with optimize=True");
  raise_if_failed(prior.status());
  return prior.value();
}

struct ClassifierHandle {
  GpClassifier gpc;
  std::optional<ClassifierHyperparameterFit> fit;  // when the hyperparameters were optimised
};

ClassifierHandle fit_classifier(const py::handle& inputs, const py::handle& labels, const std::string& method,
                                const std::string& likelihood, double signal_variance,
                                const std::vector<double>& length_scales, bool optimize, std::size_t restarts,
                                std::uint64_t seed, bool shared_length_scale, std::size_t max_iterations,
                                const std::string& signal_variance_prior, const std::string& length_scale_prior) {
  const MatrixArgument x = matrix_argument(inputs, "training inputs");
  const py::array_t<double> y = vector_argument(labels, "training labels");
  ClassifierFitSettings settings;
  Result<ClassifierMethod> m = parse_method(method);
  raise_if_failed(m.status());
  Result<ClassifierLikelihood> l = parse_likelihood(likelihood);
  raise_if_failed(l.status());
  settings.model.method = m.value();
  settings.model.likelihood = l.value();
  settings.model.max_iterations = max_iterations;
  raise_if_failed(check_options(settings.model));
  settings.kernel = {signal_variance, length_scales};
  settings.optimize = optimize;
  settings.hyperparameters.restarts = restarts;
  settings.hyperparameters.seed = seed;
  settings.hyperparameters.shared_length_scale = shared_length_scale;
  settings.hyperparameters.prior = prior_arguments(signal_variance_prior, length_scale_prior, optimize);
  const std::size_t n = std::size_t(y.shape(0));
  std::optional<Result<gpprobe::ClassifierFit>> fitted;
  {
    py::gil_scoped_release unlocked;
    fitted.emplace(gpprobe::fit_classifier(x.view, y.data(), n, settings));
  }
  raise_if_failed(fitted->status());
  return ClassifierHandle{std::move(fitted->value().classifier), std::move(fitted->value().optimum)};
}

py::dict predict_classifier(const ClassifierHandle& self, const py::handle& points) {
  const MatrixArgument x = matrix_argument(points, "test inputs");
  const std::size_t m = x.view.rows();
  py::array_t<double> mean = new_column(m), variance = new_column(m), probability = new_column(m);
  PredictionReport report;
  Status predicted;
  {
    py::gil_scoped_release unlocked;
    predicted = self.gpc.predict(x.view, {mean.mutable_data(), variance.mutable_data(), probability.mutable_data()}, {},
                                 &report);
  }
  raise_if_failed(predicted);
  py::dict out;
  out["latent_mean"] = mean;
  out["latent_variance"] = variance;
  out["probability"] = probability;
  out["clamped_variances"] = report.clamped_variances;
  return out;
}

// A fitted multi-class (softmax, Laplace) classifier, fitted as `gpprobe gpc --likelihood softmax` fits it
// (the core's fit_multiclass_classifier, classifier_fit.h): C = `classes` kernels built from 1 or C signal
// variances and 1 or C length-scale lists (one shared kernel when both are given once), each expanded to d;
// with `optimize`, type-II maximum likelihood (tied when shared), then the fit warm-started from the
// optimizer's weights. `warm_start` (n by C) is those weights, kept so that a pickled model is refitted
// along the same Newton path to the same bits.
struct MulticlassHandle {
  MulticlassLaplace model;
  std::optional<MulticlassHyperparameterFit> fit;
  RowMatrix warm_start;  // empty when the fit started cold
};

MulticlassHandle fit_multiclass(const py::handle& inputs, const py::handle& labels, std::size_t classes,
                                const std::vector<double>& signal_variances,
                                const std::vector<std::vector<double>>& length_scales, bool optimize,
                                std::size_t restarts, std::uint64_t seed, std::size_t newton_iterations,
                                std::size_t optimizer_iterations, const py::object& start_alpha,
                                const std::string& signal_variance_prior, const std::string& length_scale_prior) {
  const MatrixArgument x = matrix_argument(inputs, "training inputs");
  const py::array_t<double> y = vector_argument(labels, "training labels");
  const std::size_t n = std::size_t(y.shape(0));
  const auto invalid = [](const std::string& message) {
    raise_if_failed(Status(StatusCode::invalid_argument, message));
  };
  if (classes < 2) invalid("softmax classification needs at least 2 classes, got " + std::to_string(classes));
  if (newton_iterations < 1) invalid("max_iterations must be at least 1, got 0");
  RowMatrix start;
  if (!start_alpha.is_none()) {
    const MatrixArgument a = matrix_argument(start_alpha, "start_alpha");
    if (a.view.rows() != n || a.view.cols() != classes) invalid("start_alpha must be n by C");
    start.resize(Eigen::Index(n), Eigen::Index(classes));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c < classes; ++c) start(Eigen::Index(i), Eigen::Index(c)) = a.view.at(i, c);
  }
  MulticlassFitSettings settings;
  settings.signal_variances = signal_variances;
  settings.length_scales = length_scales;
  settings.classes = classes;
  settings.newton_iterations = newton_iterations;
  settings.optimize = optimize;
  settings.hyperparameters.shared = signal_variances.size() == 1 && length_scales.size() == 1;
  settings.hyperparameters.restarts = restarts;
  settings.hyperparameters.seed = seed;
  settings.hyperparameters.max_iterations = optimizer_iterations;
  settings.hyperparameters.prior = prior_arguments(signal_variance_prior, length_scale_prior, optimize);
  settings.start_alpha = std::move(start);
  settings.signal_variances_name = "signal_variance";
  settings.length_scales_name = "length_scales";
  std::optional<Result<MulticlassFit>> fitted;
  {
    py::gil_scoped_release unlocked;
    fitted.emplace(fit_multiclass_classifier(x.view, y.data(), n, settings));
  }
  raise_if_failed(fitted->status());
  MulticlassFit& f = fitted->value();
  return MulticlassHandle{std::move(f.model), std::move(f.optimum), std::move(f.warm_start)};
}

py::array_t<double> matrix_copy(const RowMatrix& m) {
  py::array_t<double> out = new_matrix(std::size_t(m.rows()), std::size_t(m.cols()));
  if (m.size() > 0) std::copy(m.data(), m.data() + m.size(), out.mutable_data());
  return out;
}

py::dict predict_multiclass(const MulticlassHandle& self, const py::handle& points) {
  const MatrixArgument x = matrix_argument(points, "test inputs");
  std::optional<Result<MulticlassPrediction>> predicted;
  {
    py::gil_scoped_release unlocked;
    predicted.emplace(self.model.predict(x.view));
  }
  raise_if_failed(predicted->status());
  const MulticlassPrediction& p = predicted->value();
  const std::size_t m = p.latent.size(), C = self.model.classes();
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t c = 0; c < C; ++c)
      if (!std::isfinite(p.probability(Eigen::Index(i), Eigen::Index(c)))) {
        raise_if_failed(Status(StatusCode::numerical_failure, "the probability of class " + std::to_string(c) +
                                                                  " at row " + std::to_string(i) + " is not finite"));
      }
  py::array_t<double> covariance({py::ssize_t(m), py::ssize_t(C), py::ssize_t(C)});
  if (m > 0) std::copy(p.latent.covariance.begin(), p.latent.covariance.end(), covariance.mutable_data());
  py::array_t<double> errors = new_column(m);
  std::vector<std::string> rules(m);
  std::size_t unconverged = 0;
  for (std::size_t i = 0; i < m; ++i) {
    errors.mutable_data()[i] = p.quadrature[i].error_estimate;
    rules[i] = softmax_rule_name(p.quadrature[i].rule);
    unconverged += !p.quadrature[i].converged;
  }
  py::dict out;
  out["latent_mean"] = matrix_copy(p.latent.mean);
  out["latent_covariance"] = covariance;
  out["probability"] = matrix_copy(p.probability);
  out["probability_error_estimate"] = errors;
  out["probability_rule"] = py::module_::import("numpy").attr("array")(py::cast(rules), "U");
  out["probability_unconverged"] = unconverged;
  return out;
}

py::list pair(Interval i) {
  py::list out;
  out.append(i.lower);
  out.append(i.upper);
  return out;
}

py::dict extreme_fields(const ProbabilityExtreme& x) {
  py::dict d;
  d["lower"] = x.lower;
  d["upper"] = x.upper;
  d["witness"] = x.witness;
  d["iterations"] = x.iterations;
  d["status"] = std::string(search_status_name(x.status));
  return d;
}

// Certified robustness at one point (classifier_robustness.h), as `gpprobe robustness --gamma`: the
// certificate's fields under the names of the CLI's JSON (robustness_json.cpp).
py::dict certify_classifier(const ClassifierHandle& self, const std::vector<double>& point, double gamma,
                            const std::optional<std::vector<std::size_t>>& dims,
                            const std::optional<std::pair<double, double>>& valid_range, double tolerance,
                            std::size_t max_iterations, double time_limit_seconds, const std::string& search) {
  RobustnessOptions options;
  options.gamma = gamma;
  if (dims) options.dims = *dims;
  if (valid_range) options.valid_range = Interval{valid_range->first, valid_range->second};
  options.tolerance = tolerance;
  options.max_iterations = max_iterations;
  options.time_limit_seconds = time_limit_seconds;
  Result<RobustnessSearch> parsed = parse_search(search);
  raise_if_failed(parsed.status());
  options.search = parsed.value();
  std::optional<Result<RobustnessCertificate>> certified;
  {
    py::gil_scoped_release unlocked;
    certified.emplace(certify_robustness(self.gpc.common_form(), point, options));
  }
  raise_if_failed(certified->status());
  const RobustnessCertificate& c = certified->value();
  py::dict box, root, gpfgs, out;
  box["lower"] = c.lower;
  box["upper"] = c.upper;
  root["mean"] = pair(c.mean);
  root["variance"] = pair(c.variance);
  root["probability"] = pair(c.probability);
  gpfgs["point"] = c.gpfgs.point;
  gpfgs["probability"] = c.gpfgs.probability;
  out["gamma"] = gamma;
  out["probability_at_point"] = c.probability_at_point;
  out["box"] = box;
  out["root"] = root;
  out["minimum"] = extreme_fields(c.minimum);
  out["maximum"] = extreme_fields(c.maximum);
  out["gpfgs"] = gpfgs;
  out["verdict_can_flip"] = std::string(verdict_flip_name(c.verdict_can_flip));
  return out;
}

py::dict class_extreme_fields(const ClassExtreme& x) {
  py::dict d;
  d["lower"] = x.lower;
  d["upper"] = x.upper;
  d["witness"] = x.witness;
  d["iterations"] = x.iterations;
  d["status"] = std::string(search_status_name(x.status));
  return d;
}

bool all_finite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

// Certified robustness of the multi-class classifier at one point (multiclass_robustness.h), as `gpprobe
// robustness --likelihood softmax`: the safety margin of the predicted class, then the extremes of class c's
// probability (c = class_index, or the predicted class), under the names of the CLI's JSON (the model's own
// fields are the estimator's attributes).
py::dict certify_multiclass(const MulticlassHandle& self, const std::vector<double>& point, double gamma,
                            const std::optional<std::vector<std::size_t>>& dims,
                            const std::optional<std::pair<double, double>>& valid_range,
                            std::optional<std::size_t> class_index, double tolerance, std::size_t max_iterations,
                            double time_limit_seconds) {
  const std::size_t C = self.model.classes();
  if (class_index && *class_index >= C) {
    raise_if_failed(Status(StatusCode::invalid_argument, "class is " + std::to_string(*class_index) +
                                                             "; the model has " + std::to_string(C) +
                                                             " classes (0 to " + std::to_string(C - 1) + ")"));
  }
  MulticlassRobustnessOptions options;
  options.gamma = gamma;
  if (dims) options.dims = *dims;
  if (valid_range) options.valid_range = Interval{valid_range->first, valid_range->second};
  options.tolerance = tolerance;
  options.max_iterations = max_iterations;
  options.time_limit_seconds = time_limit_seconds;
  std::optional<Result<MulticlassRobustnessCertificate>> certificate;
  {
    py::gil_scoped_release unlocked;
    // One clock for the three searches: time_limit_seconds is the wall time of the call.
    certificate.emplace(certify_multiclass_robustness(self.model, point, class_index, options));
  }
  raise_if_failed(certificate->status());
  const SafetyCertificate& s = certificate->value().safety;
  const ClassCertificate& k = certificate->value().extremes;
  if (!all_finite(k.probability_at_point) ||
      !all_finite({k.minimum.lower, k.minimum.upper, k.maximum.lower, k.maximum.upper, s.lower, s.upper}) ||
      !all_finite(k.minimum.witness) || !all_finite(k.maximum.witness) || !all_finite(s.witness)) {
    raise_if_failed(Status(StatusCode::numerical_failure, "the certificate of class " + std::to_string(k.class_index) +
                                                              " or the safety margin is not finite"));
  }
  std::vector<std::size_t> moving = options.dims;
  if (moving.empty())
    for (std::size_t j = 0; j < point.size(); ++j) moving.push_back(j);
  py::dict box, margin, out;
  box["lower"] = k.lower;
  box["upper"] = k.upper;
  margin["predicted_class"] = s.predicted_class;
  margin["margin_lower"] = s.lower;
  margin["margin_upper"] = s.upper;
  margin["witness"] = s.witness;
  margin["witness_probabilities"] = s.witness_probabilities;
  margin["status"] = std::string(safety_verdict_name(s.verdict));
  margin["stop"] = std::string(safety_stop_name(s.stop));
  margin["iterations"] = s.iterations;
  out["point"] = point;
  out["dims"] = moving;
  out["gamma"] = gamma;
  out["tolerance"] = tolerance;
  out["classes"] = C;
  out["probability_at_point"] = k.probability_at_point;
  out["class"] = k.class_index;
  out["box"] = box;
  out["root"] = pair(k.root);
  out["minimum"] = class_extreme_fields(k.minimum);
  out["maximum"] = class_extreme_fields(k.maximum);
  out["safety"] = margin;
  return out;
}

// Explain class c's probability (c = class_index, or the class predicted at the point), as `gpprobe explain
// --likelihood softmax`; the dict also names the class.
py::dict explain_multiclass(const MulticlassHandle& self, const std::vector<double>& point,
                            std::optional<std::size_t> class_index, const ExplainArguments& arguments) {
  const std::size_t C = self.model.classes();
  std::size_t c = 0;
  if (class_index) {
    if (*class_index >= C) {
      raise_if_failed(Status(StatusCode::invalid_argument, "class is " + std::to_string(*class_index) +
                                                               "; the model has " + std::to_string(C) +
                                                               " classes (0 to " + std::to_string(C - 1) + ")"));
    }
    c = *class_index;
  } else {
    if (point.size() != self.model.dimension()) {
      raise_if_failed(Status(StatusCode::dimension_mismatch, "the point has " + std::to_string(point.size()) +
                                                                 " values; the model has " +
                                                                 std::to_string(self.model.dimension()) + " features"));
    }
    if (!all_finite(point)) raise_if_failed(Status(StatusCode::non_finite, "the point has a value that is not finite"));
    std::vector<double> p;
    {
      py::gil_scoped_release unlocked;
      p = self.model.probability_at(point.data());
    }
    c = std::size_t(std::max_element(p.begin(), p.end()) - p.begin());
  }
  Result<MulticlassOutput> output = MulticlassOutput::make(self.model, c);
  raise_if_failed(output.status());
  py::dict out = explain_output(output.value(), point, arguments);
  out["class"] = c;
  return out;
}

struct RegressionHandle {
  GpRegression gp;
  std::optional<HyperparameterFit> fit;
};

// A named kernel (named_kernels.h) or a kernel expression (kernel_expression.h), with parameters set by name.
Kernel kernel_argument(const std::string& text, const std::map<std::string, double>& parameters) {
  Result<Kernel> kernel = named_kernel(text);
  if (!kernel.ok() && text.find('(') != std::string::npos) kernel = parse_kernel(text);
  raise_if_failed(kernel.status());
  std::vector<std::string> names;
  std::vector<double> values;
  for (const auto& [name, value] : parameters) {
    names.push_back(name);
    values.push_back(value);
  }
  Result<Kernel> set = set_parameters(kernel.value(), names, values);
  raise_if_failed(set.status());
  return set.value();
}

RegressionHandle fit_regressor(const py::handle& inputs, const py::handle& targets, const std::string& kernel_text,
                               const std::map<std::string, double>& parameters, double noise_variance,
                               std::optional<double> mean, bool optimize, std::size_t restarts, std::uint64_t seed,
                               const std::vector<std::string>& fixed, const std::optional<std::vector<double>>& values,
                               const std::string& signal_variance_prior, const std::string& length_scale_prior) {
  const MatrixArgument x = matrix_argument(inputs, "training inputs");
  const py::array_t<double> y = vector_argument(targets, "training targets");
  Kernel kernel = kernel_argument(kernel_text, parameters);
  if (values) {  // every parameter in theta order, bit for bit (what a pickled model was fitted with)
    if (values->size() != kernel.parameter_count()) {
      raise_if_failed(Status(StatusCode::dimension_mismatch,
                             "parameter_values has " + std::to_string(values->size()) + " values; the kernel has " +
                                 std::to_string(kernel.parameter_count()) + " parameters"));
    }
    kernel = kernel.with_values(values->data());
  }
  const double constant = mean ? *mean : std::numeric_limits<double>::quiet_NaN();
  const HyperparameterPrior prior = prior_arguments(signal_variance_prior, length_scale_prior, optimize);
  const std::size_t n = std::size_t(y.shape(0));
  std::optional<Result<RegressionHandle>> fitted;
  {
    py::gil_scoped_release unlocked;
    fitted.emplace([&]() -> Result<RegressionHandle> {
      std::optional<HyperparameterFit> fit;
      Kernel chosen = kernel;
      double noise = noise_variance;
      if (optimize) {
        HyperparameterFitOptions options;
        options.restarts = restarts;
        options.seed = seed;
        options.mean = constant;
        options.fixed = fixed;
        options.prior = prior;
        Result<HyperparameterFit> optimum = fit_hyperparameters(x.view, y.data(), n, kernel, noise_variance, options);
        if (!optimum.ok()) return optimum.status();
        fit = optimum.value();
        chosen = fit->kernel;
        noise = fit->noise_variance;
      }
      Result<GpRegression> gp = GpRegression::fit(x.view, y.data(), n, chosen, noise, constant);
      if (!gp.ok()) return gp.status();
      return RegressionHandle{std::move(gp).value(), std::move(fit)};
    }());
  }
  raise_if_failed(fitted->status());
  return std::move(*fitted).value();
}

py::dict predict_regressor(const RegressionHandle& self, const py::handle& points) {
  const MatrixArgument x = matrix_argument(points, "test inputs");
  const std::size_t m = x.view.rows();
  const char* names[] = {"mean",         "latent_variance", "observation_variance", "knowledge",
                         "latent_lower", "latent_upper",    "observation_lower",    "observation_upper"};
  std::vector<py::array_t<double>> columns;
  for (std::size_t k = 0; k < std::size(names); ++k) columns.push_back(new_column(m));
  const PredictionColumns out{columns[0].mutable_data(), columns[1].mutable_data(), columns[2].mutable_data(),
                              columns[3].mutable_data(), columns[4].mutable_data(), columns[5].mutable_data(),
                              columns[6].mutable_data(), columns[7].mutable_data()};
  PredictionReport report;
  Status predicted;
  {
    py::gil_scoped_release unlocked;
    predicted = self.gp.predict(x.view, out, {}, &report);
  }
  raise_if_failed(predicted);
  py::dict result;
  for (std::size_t k = 0; k < std::size(names); ++k) result[names[k]] = columns[k];
  result["clamped_variances"] = report.clamped_variances;
  result["most_negative_variance"] = report.most_negative_variance;
  return result;
}

std::map<std::string, double> parameters_of(const Kernel& kernel) {
  std::map<std::string, double> out;
  for (const KernelParameter& p : kernel.parameters()) out[p.name] = p.value;
  return out;
}

}  // namespace

void register_models(py::module_& m) {
  py::class_<ClassifierHandle>(m, "ClassifierHandle", "A fitted binary GP classifier of the core.")
      .def("predict", &predict_classifier, py::arg("points"))
      .def("certify", &certify_classifier, py::arg("point"), py::arg("gamma"), py::arg("dims") = py::none(),
           py::arg("valid_range") = py::none(), py::arg("tolerance") = 1e-2, py::arg("max_iterations") = 10000,
           py::arg("time_limit_seconds") = 0.0, py::arg("search") = "both")
      .def(
          "explain",
          [](const ClassifierHandle& h, const std::vector<double>& point, double gamma,
             const std::optional<std::vector<std::size_t>>& dims,
             const std::optional<std::pair<double, double>>& valid_range, double tolerance, std::size_t max_iterations,
             double time_limit_seconds, const std::string& baseline, std::size_t lime_samples, std::uint64_t seed,
             bool include_constant, double nearly_constant_share) {
            const ClassifierOutput output(h.gpc.common_form());
            return explain_output(
                output, point,
                explain_arguments(gamma, dims, valid_range, tolerance, max_iterations, time_limit_seconds, baseline,
                                  lime_samples, seed, include_constant, nearly_constant_share));
          },
          py::arg("point"), GPPROBE_EXPLAIN_ARGS)
      .def_property_readonly("method",
                             [](const ClassifierHandle& h) { return std::string(method_name(h.gpc.method())); })
      .def_property_readonly("likelihood",
                             [](const ClassifierHandle& h) { return std::string(likelihood_name(h.gpc.likelihood())); })
      .def_property_readonly("signal_variance",
                             [](const ClassifierHandle& h) { return h.gpc.kernel().signal_variance; })
      .def_property_readonly("length_scales", [](const ClassifierHandle& h) { return h.gpc.kernel().length_scales; })
      .def_property_readonly("log_marginal_likelihood",
                             [](const ClassifierHandle& h) { return h.gpc.log_marginal_likelihood(); })
      .def_property_readonly("log_marginal_likelihood_gradient",
                             [](const ClassifierHandle& h) { return h.gpc.log_marginal_likelihood_gradient(); })
      .def_property_readonly("iterations", [](const ClassifierHandle& h) { return h.gpc.iterations(); })
      .def_property_readonly("training_points", [](const ClassifierHandle& h) { return h.gpc.common_form().size(); })
      .def_property_readonly("optimizer", [](const ClassifierHandle& h) -> py::object {
        if (!h.fit) return py::none();
        py::dict d;
        d["iterations"] = h.fit->iterations;
        d["converged"] = h.fit->converged;
        d["start_log_marginal_likelihood"] = h.fit->start_log_marginal_likelihood;
        d["run_values"] = h.fit->run_values;
        d["log_prior"] = h.fit->log_prior;
        return d;
      });
  m.def("fit_classifier", &fit_classifier, py::arg("inputs"), py::arg("labels"), py::arg("method") = "laplace",
        py::arg("likelihood") = "probit", py::arg("signal_variance") = 1.0,
        py::arg("length_scales") = std::vector<double>{1.0}, py::arg("optimize") = false, py::arg("restarts") = 0,
        py::arg("seed") = 0, py::arg("shared_length_scale") = false, py::arg("max_iterations") = 100,
        py::arg("signal_variance_prior") = "none", py::arg("length_scale_prior") = "none");

  py::class_<MulticlassHandle>(m, "MulticlassHandle", "A fitted multi-class (softmax) GP classifier of the core.")
      .def("predict", &predict_multiclass, py::arg("points"))
      .def("certify", &certify_multiclass, py::arg("point"), py::arg("gamma"), py::arg("dims") = py::none(),
           py::arg("valid_range") = py::none(), py::arg("class_index") = py::none(), py::arg("tolerance") = 2e-2,
           py::arg("max_iterations") = 2000, py::arg("time_limit_seconds") = 0.0)
      .def(
          "explain",
          [](const MulticlassHandle& h, const std::vector<double>& point, double gamma,
             const std::optional<std::vector<std::size_t>>& dims,
             const std::optional<std::pair<double, double>>& valid_range, double tolerance, std::size_t max_iterations,
             double time_limit_seconds, const std::string& baseline, std::size_t lime_samples, std::uint64_t seed,
             bool include_constant, double nearly_constant_share, std::optional<std::size_t> class_index) {
            return explain_multiclass(
                h, point, class_index,
                explain_arguments(gamma, dims, valid_range, tolerance, max_iterations, time_limit_seconds, baseline,
                                  lime_samples, seed, include_constant, nearly_constant_share));
          },
          py::arg("point"), GPPROBE_EXPLAIN_ARGS, py::arg("class_index") = py::none())
      .def_property_readonly("classes", [](const MulticlassHandle& h) { return h.model.classes(); })
      .def_property_readonly("shared_kernel", [](const MulticlassHandle& h) { return h.model.shared_kernel(); })
      .def_property_readonly("signal_variances",
                             [](const MulticlassHandle& h) {
                               std::vector<double> out;
                               for (const SeArdKernel& k : h.model.kernels()) out.push_back(k.signal_variance);
                               return out;
                             })
      .def_property_readonly("length_scales",
                             [](const MulticlassHandle& h) {
                               std::vector<std::vector<double>> out;
                               for (const SeArdKernel& k : h.model.kernels()) out.push_back(k.length_scales);
                               return out;
                             })
      .def_property_readonly("log_marginal_likelihood",
                             [](const MulticlassHandle& h) { return h.model.log_marginal_likelihood(); })
      .def_property_readonly("log_marginal_likelihood_gradient",
                             [](const MulticlassHandle& h) { return h.model.gradient(); })
      .def_property_readonly("iterations", [](const MulticlassHandle& h) { return h.model.iterations(); })
      .def_property_readonly("training_points", [](const MulticlassHandle& h) { return h.model.size(); })
      .def_property_readonly("warm_start",
                             [](const MulticlassHandle& h) -> py::object {
                               if (h.warm_start.size() == 0) return py::none();
                               return matrix_copy(h.warm_start);
                             })
      .def_property_readonly("optimizer", [](const MulticlassHandle& h) -> py::object {
        if (!h.fit) return py::none();
        py::dict d;
        d["iterations"] = h.fit->iterations;
        d["evaluations"] = h.fit->evaluations;
        d["converged"] = h.fit->converged;
        d["start_log_marginal_likelihood"] = h.fit->start_log_marginal_likelihood;
        d["run_values"] = h.fit->run_values;
        d["log_prior"] = h.fit->log_prior;
        return d;
      });
  m.def("fit_multiclass_classifier", &fit_multiclass, py::arg("inputs"), py::arg("labels"), py::arg("classes"),
        py::arg("signal_variances") = std::vector<double>{1.0},
        py::arg("length_scales") = std::vector<std::vector<double>>{{1.0}}, py::arg("optimize") = false,
        py::arg("restarts") = 0, py::arg("seed") = 0, py::arg("max_iterations") = 100,
        py::arg("optimizer_iterations") = 200, py::arg("start_alpha") = py::none(),
        py::arg("signal_variance_prior") = "none", py::arg("length_scale_prior") = "none");

  py::class_<RegressionHandle>(m, "RegressionHandle", "A fitted GP regression of the core.")
      .def("predict", &predict_regressor, py::arg("points"))
      .def_property_readonly("kernel", [](const RegressionHandle& h) { return h.gp.kernel().describe(); })
      .def_property_readonly("parameters", [](const RegressionHandle& h) { return parameters_of(h.gp.kernel()); })
      .def_property_readonly("parameter_values",
                             [](const RegressionHandle& h) {
                               std::vector<double> out;
                               for (const KernelParameter& p : h.gp.kernel().parameters()) out.push_back(p.value);
                               return out;
                             })
      .def_property_readonly("noise_variance", [](const RegressionHandle& h) { return h.gp.noise_variance(); })
      .def_property_readonly("mean", [](const RegressionHandle& h) { return h.gp.mean(); })
      .def_property_readonly("log_marginal_likelihood",
                             [](const RegressionHandle& h) { return h.gp.log_marginal_likelihood(); })
      .def_property_readonly("optimizer", [](const RegressionHandle& h) -> py::object {
        if (!h.fit) return py::none();
        py::dict d;
        d["iterations"] = h.fit->iterations;
        d["evaluations"] = h.fit->evaluations;
        d["run_values"] = h.fit->run_values;
        d["log_prior"] = h.fit->log_prior;
        return d;
      });
  m.def("fit_regressor", &fit_regressor, py::arg("inputs"), py::arg("targets"), py::arg("kernel") = "rbf",
        py::arg("parameters") = std::map<std::string, double>{}, py::arg("noise_variance") = kDefaultNoiseVariance,
        py::arg("mean") = py::none(), py::arg("optimize") = false, py::arg("restarts") = 0, py::arg("seed") = 0,
        py::arg("fixed") = std::vector<std::string>{}, py::arg("parameter_values") = py::none(),
        py::arg("signal_variance_prior") = "none", py::arg("length_scale_prior") = "none");
  m.def("named_kernels", [] {
    std::vector<std::string> names;
    for (const NamedKernel& k : named_kernels()) names.push_back(k.name);
    return names;
  });
}

}  // namespace gpprobe::python
