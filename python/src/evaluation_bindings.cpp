// The OOD and probing baselines of the GPP paper (gpprobe/baselines/baselines.h) and its experiments
// (gpprobe/evaluation/experiment.h) for Python, as `gpprobe baseline` and `gpprobe evaluate` run them
// (core/cli/evaluation/). gpprobe.baseline and gpprobe.evaluate (evaluation.py) shape the results.
// Registration and bookkeeping only; the GIL is released while the core works.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "gpprobe/baselines/baselines.h"
#include "gpprobe/evaluation/experiment.h"

#include "arrays.h"
#include "bindings.h"
#include "described.h"

namespace gpprobe::python {

namespace {

py::array_t<double> copy_of(const std::vector<double>& values) {
  py::array_t<double> out = new_column(values.size());
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

py::dict baseline(const std::string& method_name, const py::handle& observations, const py::handle& labels,
                  const py::handle& queries, std::size_t k, std::uint64_t seed, std::size_t members, double C) {
  Result<BaselineMethod> method = parse_baseline(method_name);
  raise_if_failed(method.status());
  const MatrixArgument x = matrix_argument(observations, "observations");
  const std::vector<std::uint8_t> y = label_argument(labels, "labels");
  const MatrixArgument q = matrix_argument(queries, "queries");
  BaselineOptions options;
  options.k = k;
  options.seed = seed;
  options.members = members;
  options.C = C;
  std::optional<Result<BaselineScores>> scores;
  {
    py::gil_scoped_release unlocked;
    scores.emplace(run_baseline(method.value(), x.view, y.data(), y.size(), q.view, options));
  }
  raise_if_failed(scores->status());
  const BaselineScores& s = scores->value();
  const std::vector<const std::vector<double>*> columns = {&s.score, &s.probability, &s.episteme, &s.alea};
  const std::vector<std::string> names = baseline_columns(method.value());
  py::dict out;
  for (std::size_t c = 0; c < names.size(); ++c) out[py::str(names[c])] = copy_of(*columns[c]);
  return out;
}

py::dict evaluate(const std::string& experiment, const py::handle& embeddings, const py::handle& labels,
                  const py::object& ood, const py::object& query_mask, std::size_t trials, std::uint64_t seed,
                  std::size_t max_observations, std::size_t max_queries, std::size_t members, std::size_t k,
                  double epsilon, double strength, bool gpc, std::size_t gpc_max_observations) {
  Result<ExperimentKind> kind = parse_experiment(experiment);
  raise_if_failed(kind.status());
  const MatrixArgument x = matrix_argument(embeddings, "embeddings");
  const std::vector<std::uint8_t> y = label_argument(labels, "labels");
  std::optional<MatrixArgument> o;
  if (!ood.is_none()) o.emplace(matrix_argument(ood, "ood embeddings"));
  std::vector<std::uint8_t> mask;
  if (!query_mask.is_none()) mask = label_argument(query_mask, "query mask");
  if (kind.value() == ExperimentKind::ood && !o) {
    raise_if_failed(Status(StatusCode::invalid_argument, "the ood experiment needs ood embeddings (ood=...)"));
  }
  if (gpc && kind.value() != ExperimentKind::probing) {
    raise_if_failed(Status(StatusCode::invalid_argument, "gpc applies to the probing experiment only"));
  }
  ExperimentData data;
  data.embeddings = x.view;
  data.labels = y.data();
  data.label_count = y.size();
  if (o) data.ood = o->view;
  data.query_mask = query_mask.is_none() ? nullptr : mask.data();
  data.query_mask_count = mask.size();
  ExperimentOptions options;
  options.trials = trials;
  options.seed = seed;
  options.max_observations = max_observations;
  options.max_queries = max_queries;
  options.members = members;
  options.k = k;
  options.probe.epsilon = epsilon;
  options.probe.strength = strength;
  options.gpc.enabled = gpc;
  options.gpc.max_observations = gpc_max_observations;
  std::optional<Result<ExperimentResult>> result;
  {
    py::gil_scoped_release unlocked;
    result.emplace(run_experiment(kind.value(), data, options));
  }
  raise_if_failed(result->status());
  const ExperimentResult& r = result->value();
  py::dict out = py_dict(r);
  // Each curve's values as the trials-by-points matrix they are.
  for (std::size_t c = 0; c < r.curves.size(); ++c) {
    py::array_t<double> values = new_matrix(r.trials, r.observation_counts.size());
    std::copy(r.curves[c].values.begin(), r.curves[c].values.end(), values.mutable_data());
    out["curves"].cast<py::list>()[c]["values"] = values;
  }
  return out;
}

}  // namespace

void register_evaluation(py::module_& m) {
  m.def("run_baseline", &baseline, py::arg("method"), py::arg("observations"), py::arg("labels"), py::arg("queries"),
        py::arg("k") = 1, py::arg("seed") = 0, py::arg("members") = 100, py::arg("C") = 1.0,
        "A baseline of the GPP paper (lp, svm, lpe, msp, maha, knn), as `gpprobe baseline`: its columns.");
  m.def("run_experiment", &evaluate, py::arg("experiment"), py::arg("embeddings"), py::arg("labels"),
        py::arg("ood") = py::none(), py::arg("query_mask") = py::none(), py::arg("trials") = 10, py::arg("seed") = 0,
        py::arg("max_observations") = 512, py::arg("max_queries") = 1000, py::arg("members") = 100, py::arg("k") = 1,
        py::arg("epsilon") = 0.1, py::arg("strength") = 5.0, py::arg("gpc") = false,
        py::arg("gpc_max_observations") = 128,
        "An experiment of the GPP paper (probing, fuzzy, ood), as `gpprobe evaluate`.");
}

}  // namespace gpprobe::python
