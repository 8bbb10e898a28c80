// The probe for Python (docs/design/probe.md): fit, score, certify (docs/design/certify.md), leave-one-out,
// and the probe file read by the core's one reader (gpprobe/probe/probe_file.h), so a file means the
// same here as to `gpprobe probe --probe FILE` and to the app. Registration and array bookkeeping only: every number is
// the core's. The GIL is released while the core works, so threads score in parallel.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "gpprobe/certify/probe_certificate.h"
#include "gpprobe/explain/probe_output.h"
#include "gpprobe/linalg/parallel_for.h"
#include "gpprobe/probe/knowledge_gain.h"
#include "gpprobe/probe/leave_one_out.h"
#include "gpprobe/probe/probe.h"
#include "gpprobe/probe/probe_file.h"

#include "arrays.h"
#include "bindings.h"
#include "described.h"
#include "sensitivity.h"

namespace gpprobe::python {

namespace {

// A fitted probe (the core's Probe is move-only and has no empty state).
struct ProbeHandle {
  explicit ProbeHandle(Probe fitted) : probe(std::move(fitted)) {}
  Probe probe;
};

PosteriorSpace space_argument(const std::string& name) {
  Result<PosteriorSpace> space = parse_space(name);
  raise_if_failed(space.status());
  return space.value();
}

ProbeHandle fit(const py::handle& observations, const py::handle& labels, double epsilon, double strength,
                const std::string& space, std::size_t expected_queries) {
  const MatrixArgument x = matrix_argument(observations, "observations");
  const std::vector<std::uint8_t> y = label_argument(labels, "labels");
  ProbeOptions options;
  options.epsilon = epsilon;
  options.strength = strength;
  options.space = space_argument(space);
  options.expected_queries = expected_queries;
  std::optional<Result<Probe>> fitted;
  {
    py::gil_scoped_release unlocked;
    fitted.emplace(Probe::fit(x.view, y.data(), y.size(), options));
  }
  raise_if_failed(fitted->status());
  return ProbeHandle(std::move(*fitted).value());
}

py::dict score(const ProbeHandle& self, const py::handle& queries) {
  const MatrixArgument q = matrix_argument(queries, "queries");
  const std::size_t n = q.view.rows();
  py::array_t<double> judged = new_column(n), episteme = new_column(n), alea = new_column(n), mean = new_column(n),
                      variance = new_column(n), knowledge = new_column(n), ood = new_column(n);
  const ProbeScoreColumns columns{judged.mutable_data(), episteme.mutable_data(), alea.mutable_data(),
                                  mean.mutable_data(),   variance.mutable_data(), knowledge.mutable_data(),
                                  ood.mutable_data()};
  Status scored;
  {
    py::gil_scoped_release unlocked;
    scored = self.probe.score(q.view, columns);
  }
  raise_if_failed(scored);
  py::dict out;
  out["judged_probability"] = judged;
  out["episteme"] = episteme;
  out["alea"] = alea;
  out["latent_mean"] = mean;
  out["latent_variance"] = variance;
  out["knowledge"] = knowledge;
  out["ood_score"] = ood;
  return out;
}

py::array strings(const std::vector<std::string>& values) {
  return py::module_::import("numpy").attr("array")(py::cast(values), "U");
}

py::dict certify(const ProbeHandle& self, const py::handle& queries, double gamma, const std::string& norm,
                 const std::optional<std::vector<std::size_t>>& dims, double tolerance, std::size_t max_iterations,
                 double time_limit_seconds) {
  const MatrixArgument q = matrix_argument(queries, "queries");
  CertifyOptions options;
  options.gamma = gamma;
  Result<QueryNorm> parsed = parse_norm(norm);
  raise_if_failed(parsed.status());
  options.norm = parsed.value();
  if (dims) {
    options.dims = *dims;
    options.search = true;  // as `gpprobe probe --certify-dims`: branch and bound over the chosen coordinates
  }
  options.tolerance = tolerance;
  options.max_iterations = max_iterations;
  options.time_limit_seconds = time_limit_seconds;
  std::optional<Result<std::vector<ProbeCertificate>>> certified;
  {
    py::gil_scoped_release unlocked;
    Result<ProbeCertifier> certifier = ProbeCertifier::make(self.probe, options);
    if (!certifier.ok()) certified.emplace(certifier.status());
    else certified.emplace(certifier.value().certify(q.view));
  }
  raise_if_failed(certified->status());
  const std::vector<ProbeCertificate>& c = certified->value();
  const std::size_t n = c.size(), d = q.view.cols();
  const char* names[] = {"judged_probability",
                         "judged_probability_lower",
                         "judged_probability_lowest_found",
                         "judged_probability_highest_found",
                         "judged_probability_upper",
                         "latent_mean_lower",
                         "latent_mean_upper",
                         "latent_variance_lower",
                         "latent_variance_upper",
                         "episteme_lower",
                         "episteme_upper"};
  std::vector<py::array_t<double>> columns;
  for (std::size_t k = 0; k < std::size(names); ++k) columns.push_back(new_column(n));
  py::array_t<std::int64_t> iterations{py::ssize_t(n)};
  std::vector<std::string> flips(n), statuses(n);
  py::array_t<double> lowest = new_matrix(options.search ? n : 0, d), highest = new_matrix(options.search ? n : 0, d);
  for (std::size_t i = 0; i < n; ++i) {
    const ProbeCertificate& r = c[i];
    const double values[] = {r.judged_probability,
                             r.judged_probability_bounds.lower,
                             r.lowest_found,
                             r.highest_found,
                             r.judged_probability_bounds.upper,
                             r.latent_mean.lower,
                             r.latent_mean.upper,
                             r.latent_variance.lower,
                             r.latent_variance.upper,
                             r.episteme.lower,
                             r.episteme.upper};
    for (std::size_t k = 0; k < std::size(names); ++k) columns[k].mutable_data()[i] = values[k];
    iterations.mutable_data()[i] = std::int64_t(r.iterations);
    flips[i] = verdict_flip_name(r.verdict_can_flip);
    statuses[i] = r.status ? search_status_name(*r.status) : "bounds_only";
    if (options.search) {
      std::copy(r.lowest_witness.begin(), r.lowest_witness.end(), lowest.mutable_data() + i * d);
      std::copy(r.highest_witness.begin(), r.highest_witness.end(), highest.mutable_data() + i * d);
    }
  }
  py::dict out;
  for (std::size_t k = 0; k < std::size(names); ++k) out[names[k]] = columns[k];
  out["verdict_can_flip"] = strings(flips);
  out["certify_status"] = strings(statuses);
  out["certify_iterations"] = iterations;
  if (options.search) {
    out["lowest_witness"] = lowest;
    out["highest_witness"] = highest;
  }
  return out;
}

py::array_t<double> copy_of(const std::vector<double>& values) {
  py::array_t<double> out = new_column(values.size());
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

py::dict leave_one_out(const ProbeHandle& self, const std::string& space) {
  const PosteriorSpace chosen = space_argument(space);
  std::optional<Result<LeaveOneOut>> loo;
  {
    py::gil_scoped_release unlocked;
    loo.emplace(gpprobe::leave_one_out(self.probe, chosen));
  }
  raise_if_failed(loo->status());
  return py_dict(loo->value());
}

// One more observation (a row of d values), updated in place (not refitted), as the app's labelling does.
// The GIL is held: the probe changes, so no other thread may score it meanwhile.
void add_observation(ProbeHandle& self, const py::handle& observation, const py::handle& label) {
  MatrixArgument x = matrix_argument(observation, "observation");
  if (x.view.rows() != 1) {
    raise_if_failed(Status(StatusCode::dimension_mismatch,
                           "observation: expected one row, got " + std::to_string(x.view.rows()) + " rows"));
  }
  const std::vector<std::uint8_t> y = label_argument(label, "label");
  if (y.size() != 1) {
    raise_if_failed(
        Status(StatusCode::dimension_mismatch, "label: expected one value, got " + std::to_string(y.size())));
  }
  raise_if_failed(self.probe.add_observation(x.view, y[0]));
}

void remove_observation(ProbeHandle& self, std::size_t index) {
  if (index >= self.probe.observation_count()) {
    raise_if_failed(Status(StatusCode::invalid_argument, "observation " + std::to_string(index) + " does not exist (" +
                                                             std::to_string(self.probe.observation_count()) +
                                                             " observations)"));
  }
  raise_if_failed(self.probe.remove_observation(index));
}

py::array_t<double> gain(const ProbeHandle& self, const py::handle& queries, const std::string& space) {
  const MatrixArgument q = matrix_argument(queries, "queries");
  const PosteriorSpace chosen = space_argument(space);
  py::array_t<double> out = new_column(q.view.rows());
  Status done;
  {
    py::gil_scoped_release unlocked;
    done = knowledge_gain(self.probe, q.view, out.mutable_data(), {}, chosen);
  }
  raise_if_failed(done);
  return out;
}

py::array_t<std::uint8_t> label_array(const std::vector<std::uint8_t>& labels) {
  py::array_t<std::uint8_t> out{py::ssize_t(labels.size())};
  std::copy(labels.begin(), labels.end(), out.mutable_data());
  return out;
}

// The file's fields as the core reads them: epsilon, strength, space, observations in the stored
// precision, labels, and the provenance (observation_rows, data) as None or as stored.
py::dict probe_file_fields(const Result<ProbeFile>& read) {
  raise_if_failed(read.status());
  const ProbeFile& file = read.value();
  const LoadedMatrix& x = file.observations;
  py::array observations;
  if (x.type == ScalarType::float32) {
    py::array_t<float> values({py::ssize_t(x.rows), py::ssize_t(x.cols)});
    std::copy(x.float32.begin(), x.float32.end(), values.mutable_data());
    observations = values;
  } else {
    py::array_t<double> values = new_matrix(x.rows, x.cols);
    std::copy(x.float64.begin(), x.float64.end(), values.mutable_data());
    observations = values;
  }
  py::dict out;
  out["epsilon"] = file.options.epsilon;
  out["strength"] = file.options.strength;
  out["space"] = space_name(file.options.space);
  out["observations"] = observations;
  out["labels"] = label_array(file.labels);
  out["observation_rows"] = file.observation_rows ? py::cast(*file.observation_rows) : py::none();
  if (file.data) {
    py::dict data;
    data["name"] = file.data->name;
    data["rows"] = file.data->rows;
    data["cols"] = file.data->cols;
    data["dtype"] = file.data->dtype == ScalarType::float32 ? "float32" : "float64";
    if (!file.data->sha256.empty()) data["sha256"] = file.data->sha256;
    out["data"] = data;
  } else {
    out["data"] = py::none();
  }
  return out;
}

py::dict read_probe_file(const std::string& path) {
  std::optional<Result<ProbeFile>> read;
  {
    py::gil_scoped_release unlocked;
    read.emplace(gpprobe::read_probe_file(path));
  }
  return probe_file_fields(*read);
}

// The same from the file's bytes already read; `name` names it in messages.
py::dict parse_probe_file(const py::bytes& content, const std::string& name) {
  const std::string text = content;
  std::optional<Result<ProbeFile>> read;
  {
    py::gil_scoped_release unlocked;
    read.emplace(gpprobe::parse_probe_file(text, name));
  }
  return probe_file_fields(*read);
}

}  // namespace

void register_probe(py::module_& m) {
  py::class_<ProbeHandle>(m, "ProbeHandle", "A fitted probe of the core (gpprobe.Probe wraps it).")
      .def_property_readonly("observation_count", [](const ProbeHandle& h) { return h.probe.observation_count(); })
      .def_property_readonly("dimension", [](const ProbeHandle& h) { return h.probe.dimension(); })
      .def_property_readonly("space", [](const ProbeHandle& h) { return std::string(space_name(h.probe.space())); })
      .def_property_readonly("epsilon", [](const ProbeHandle& h) { return h.probe.prior().epsilon; })
      .def_property_readonly("strength", [](const ProbeHandle& h) { return h.probe.prior().strength; })
      .def_property_readonly("prior_variance", [](const ProbeHandle& h) { return h.probe.prior().variance; })
      .def_property_readonly("condition", [](const ProbeHandle& h) { return h.probe.condition(); })
      .def_property_readonly("labels", [](const ProbeHandle& h) { return label_array(h.probe.labels()); })
      .def("score", &score, py::arg("queries"))
      .def("certify", &certify, py::arg("queries"), py::arg("gamma"), py::arg("norm") = "inf",
           py::arg("dims") = py::none(), py::arg("tolerance") = 0.01, py::arg("max_iterations") = 10000,
           py::arg("time_limit_seconds") = 0.0)
      .def("leave_one_out", &leave_one_out, py::arg("space") = "automatic")
      .def("add_observation", &add_observation, py::arg("observation"), py::arg("label"))
      .def("remove_observation", &remove_observation, py::arg("index"))
      .def("knowledge_gain", &gain, py::arg("queries"), py::arg("space") = "automatic")
      .def(
          "explain",
          [](const ProbeHandle& h, const std::vector<double>& point, double gamma,
             const std::optional<std::vector<std::size_t>>& dims,
             const std::optional<std::pair<double, double>>& valid_range, double tolerance, std::size_t max_iterations,
             double time_limit_seconds, const std::string& baseline, std::size_t lime_samples, std::uint64_t seed,
             bool include_constant, double nearly_constant_share) {
            Result<ProbeOutput> output = ProbeOutput::make(h.probe);
            raise_if_failed(output.status());
            return explain_output(
                output.value(), point,
                explain_arguments(gamma, dims, valid_range, tolerance, max_iterations, time_limit_seconds, baseline,
                                  lime_samples, seed, include_constant, nearly_constant_share));
          },
          py::arg("point"), GPPROBE_EXPLAIN_ARGS);
  m.def("fit_probe", &fit, py::arg("observations"), py::arg("labels"), py::arg("epsilon") = 0.1,
        py::arg("strength") = 5.0, py::arg("space") = "automatic", py::arg("expected_queries") = 10000);
  m.def("read_probe_file", &read_probe_file, py::arg("path"));
  m.def("parse_probe_file", &parse_probe_file, py::arg("content"), py::arg("name"));
  m.def("thread_count", &thread_count, "Threads the core's loops use (the caller and the pool's).");
  m.def("set_thread_count", &set_thread_count, py::arg("threads"),
        "Threads for the core's loops in this process; 0 restores the default (the hardware's, at most 16).");
}

}  // namespace gpprobe::python
