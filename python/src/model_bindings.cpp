// Binary GP classification (docs/design/classification.md) and GP regression (docs/design/regression.md)
// for Python, fitted the way `gpprobe gpc` and `gpprobe gpr` fit them (core/cli/classification/
// gpc_model_flags.cpp, core/cli/regression/gpr_command.cpp): the same checks, the optional type-II
// maximum likelihood, then the fit. gpprobe.GPClassifier and gpprobe.GPRegressor (models.py) give them
// scikit-learn's fit/predict. Registration and array bookkeeping only; the GIL is released while the core works.
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/hyperparameter_fit.h"
#include "gpprobe/kernels/kernel_expression.h"
#include "gpprobe/kernels/kernel_parameters.h"
#include "gpprobe/kernels/named_kernels.h"
#include "gpprobe/regression/gp_regression.h"
#include "gpprobe/regression/hyperparameter_fit.h"

#include "arrays.h"
#include "bindings.h"

namespace gpprobe::python {

namespace {

struct ClassifierHandle {
  GpClassifier gpc;
  std::optional<GpcHyperparameterFit> fit;  // when the hyperparameters were optimised
};

ClassifierHandle fit_classifier(const py::handle& inputs, const py::handle& labels, const std::string& method,
                                const std::string& likelihood, double signal_variance,
                                const std::vector<double>& length_scales, bool optimize, std::size_t restarts,
                                std::uint64_t seed, bool shared_length_scale, std::size_t max_iterations) {
  const MatrixArgument x = matrix_argument(inputs, "training inputs");
  const py::array_t<double> y = vector_argument(labels, "training labels");
  GpcOptions options;
  Result<GpcMethod> m = parse_method(method);
  raise_if_failed(m.status());
  Result<GpcLikelihood> l = parse_likelihood(likelihood);
  raise_if_failed(l.status());
  options.method = m.value();
  options.likelihood = l.value();
  options.max_iterations = max_iterations;
  raise_if_failed(check_options(options));
  const SeArdKernel kernel{signal_variance, length_scales};
  GpcHyperparameterOptions fit_options;
  fit_options.restarts = restarts;
  fit_options.seed = seed;
  fit_options.shared_length_scale = shared_length_scale;
  const std::size_t n = std::size_t(y.shape(0));
  std::optional<Result<ClassifierHandle>> fitted;
  {
    py::gil_scoped_release unlocked;
    fitted.emplace([&]() -> Result<ClassifierHandle> {
      GPPROBE_RETURN_IF_ERROR(kernel.check(x.view.cols()));
      Result<GpcTrainingData> data = make_gpc_training_data(x.view, y.data(), n);
      if (!data.ok()) return data.status();
      std::optional<GpcHyperparameterFit> fit;
      SeArdKernel chosen = kernel;
      if (optimize) {
        Result<GpcHyperparameterFit> optimum = fit_gpc_hyperparameters(data.value(), kernel, options, fit_options);
        if (!optimum.ok()) return optimum.status();
        fit = optimum.value();
        chosen = fit->kernel;
      }
      Result<GpClassifier> gpc = GpClassifier::fit(data.value(), chosen, options);
      if (!gpc.ok()) return gpc.status();
      return ClassifierHandle{std::move(gpc).value(), std::move(fit)};
    }());
  }
  raise_if_failed(fitted->status());
  return std::move(*fitted).value();
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
                               const std::vector<std::string>& fixed) {
  const MatrixArgument x = matrix_argument(inputs, "training inputs");
  const py::array_t<double> y = vector_argument(targets, "training targets");
  const Kernel kernel = kernel_argument(kernel_text, parameters);
  const double constant = mean ? *mean : std::numeric_limits<double>::quiet_NaN();
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
        return d;
      });
  m.def("fit_classifier", &fit_classifier, py::arg("inputs"), py::arg("labels"), py::arg("method") = "laplace",
        py::arg("likelihood") = "probit", py::arg("signal_variance") = 1.0,
        py::arg("length_scales") = std::vector<double>{1.0}, py::arg("optimize") = false, py::arg("restarts") = 0,
        py::arg("seed") = 0, py::arg("shared_length_scale") = false, py::arg("max_iterations") = 100);

  py::class_<RegressionHandle>(m, "RegressionHandle", "A fitted GP regression of the core.")
      .def("predict", &predict_regressor, py::arg("points"))
      .def_property_readonly("kernel", [](const RegressionHandle& h) { return h.gp.kernel().describe(); })
      .def_property_readonly("parameters", [](const RegressionHandle& h) { return parameters_of(h.gp.kernel()); })
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
        return d;
      });
  m.def("fit_regressor", &fit_regressor, py::arg("inputs"), py::arg("targets"), py::arg("kernel") = "rbf",
        py::arg("parameters") = std::map<std::string, double>{}, py::arg("noise_variance") = kDefaultNoiseVariance,
        py::arg("mean") = py::none(), py::arg("optimize") = false, py::arg("restarts") = 0, py::arg("seed") = 0,
        py::arg("fixed") = std::vector<std::string>{});
  m.def("named_kernels", [] {
    std::vector<std::string> names;
    for (const NamedKernel& k : named_kernels()) names.push_back(k.name);
    return names;
  });
}

}  // namespace gpprobe::python
