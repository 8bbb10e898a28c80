// Comparing representations (docs/compare.md) and drawing observations for Python, as `gpprobe compare`
// and `gpprobe draw` do them (core/cli/compare/compare_command.cpp, core/cli/probe/draw_command.cpp): the
// same observation draw (observation_draw.h, over the labelled rows), the same comparison
// (representation_comparison.h), over the same draws of the observations (draw_comparison.h: redraw with
// per_class, bootstrap with given observations, the one set alone when a bootstrap is impossible and the
// draws were not asked for) and its numbers by the same names. gpprobe.compare and gpprobe.draw
// (compare.py) shape them as the CLI's table. Registration and bookkeeping only.
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "gpprobe/compare/draw_comparison.h"
#include "gpprobe/compare/representation_comparison.h"
#include "gpprobe/probe/observation_draw.h"

#include "arrays.h"
#include "bindings.h"

namespace gpprobe::python {

namespace {

// Labels as the comparison takes them: 0, 1, or kUnlabelled for NaN (a row with no label).
std::vector<std::uint8_t> concept_labels(const py::handle& value, const std::string& what) {
  const py::array_t<double> y = vector_argument(value, what.c_str());
  std::vector<std::uint8_t> out(std::size_t(y.shape(0)));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double v = y.data()[i];
    if (std::isnan(v)) {
      out[i] = kUnlabelled;
    } else if (v == 0.0 || v == 1.0) {
      out[i] = std::uint8_t(v);
    } else {
      raise_if_failed(Status(StatusCode::invalid_argument, what + " row " + std::to_string(i) + " is " +
                                                               py::str(py::float_(v)).cast<std::string>() +
                                                               "; labels must be 0, 1 or NaN (unlabelled)"));
    }
  }
  return out;
}

// `per_class` random rows of each class among the labelled rows, as `gpprobe compare --per-class` draws them.
std::vector<std::size_t> drawn_rows(const std::vector<std::uint8_t>& labels, std::size_t per_class, std::uint64_t seed,
                                    const std::string& what) {
  std::vector<std::size_t> labelled;
  std::vector<std::uint8_t> compact;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] == kUnlabelled) continue;
    labelled.push_back(i);
    compact.push_back(labels[i]);
  }
  Result<std::vector<std::size_t>> drawn = draw_observations(compact.data(), compact.size(), per_class, seed);
  if (!drawn.ok()) raise_if_failed(Status(drawn.status().code(), what + ": " + drawn.status().message()));
  std::vector<std::size_t> rows;
  for (std::size_t k : drawn.value()) rows.push_back(labelled[k]);
  return rows;
}

std::vector<std::size_t> draw(const py::handle& labels, std::size_t per_class, std::uint64_t seed) {
  const std::vector<std::uint8_t> y = label_argument(labels, "labels");
  std::optional<Result<std::vector<std::size_t>>> rows;
  {
    py::gil_scoped_release unlocked;
    rows.emplace(draw_observations(y.data(), y.size(), per_class, seed));
  }
  raise_if_failed(rows->status());
  return rows->value();
}

py::object number(double v) { return py::float_(v); }

const char* yes_no(bool defined, bool v) { return defined ? (v ? "yes" : "no") : ""; }

// Why the given observations cannot be resampled (draw_comparison.h's bootstrap needs 2 labelled rows of each
// class besides them), as `gpprobe compare` says it when --draws was not given; "" when they can.
std::string bootstrap_impossible(const std::vector<ComparedConcept>& concepts) {
  for (const ComparedConcept& c : concepts) {
    std::vector<char> given(c.label_count, 0);
    for (std::size_t row : c.observations)
      if (row < c.label_count) given[row] = 1;
    std::size_t others[2] = {0, 0};
    for (std::size_t i = 0; i < c.label_count; ++i)
      if (!given[i] && c.labels[i] <= 1) ++others[c.labels[i]];
    if (others[0] < 2 || others[1] < 2) {
      return "concept '" + c.name +
             "' has fewer than 2 labelled rows of each class besides the given observations to measure "
             "resampled draws on";
    }
  }
  return "";
}

py::dict probe_fields(const RepresentationProbe& p, bool judged) {
  py::dict d;
  d["embedding"] = p.name;
  d["width"] = p.width;
  d["loo_auroc"] = number(p.loo_auroc);
  d["loo_auroc_lower"] = number(p.loo_auroc_lower);
  d["loo_auroc_upper"] = number(p.loo_auroc_upper);
  d["heldout_auroc"] = number(p.heldout_auroc);
  d["mean_episteme"] = number(p.mean_episteme);
  d["mean_alea"] = number(p.mean_alea);
  d["decided_fraction"] = number(p.decided_fraction);
  d["ood_auroc"] = number(p.ood_auroc);
  d["heldout_auroc_lower"] = number(p.heldout_auroc_lower);
  d["heldout_auroc_upper"] = number(p.heldout_auroc_upper);
  d["loo_verdict"] = std::string(verdict_name(p.loo_verdict));
  d["observations"] = p.observations;
  d["heldout_rows"] = p.heldout_rows;
  d["queries"] = p.queries;
  d["separates"] = judged ? (p.separates ? "yes" : "no") : "";
  d["p_value_against_best"] = number(p.p_value_against_best);
  d["indistinguishable_from_best"] = judged ? (p.indistinguishable_from_best ? "yes" : "no") : "";
  d["below_half"] = yes_no(judged, p.below_half);
  return d;
}

// The columns over draws (the CLI's draws .. draw_claimed_best_in); NaN and "" when there were no draws.
void drawn_fields(py::dict& d, const DrawnComparison& draws, std::size_t k, bool drawn) {
  const bool judged = drawn && std::isfinite(draws.probes.front().mean);
  const DrawnProbe q = drawn ? draws.probes[k] : DrawnProbe{};
  const auto value = [drawn](double v) { return number(drawn ? v : NAN); };
  d["draws"] = drawn ? draws.draws : std::size_t(1);
  d["draw_mean_auroc"] = value(q.mean);
  d["draw_sd_auroc"] = value(q.standard_deviation);
  d["draw_min_auroc"] = value(q.minimum);
  d["draw_max_auroc"] = value(q.maximum);
  d["draw_auroc_lower"] = value(q.lower);
  d["draw_auroc_upper"] = value(q.upper);
  d["draw_difference_from_best"] = value(q.difference_from_best);
  d["draw_p_value_against_best"] = value(q.p_value_against_best);
  d["draw_holm_p_value"] = value(q.holm_p_value);
  d["draw_indistinguishable_from_best"] = yes_no(judged, q.indistinguishable_from_best);
  d["draw_separates"] = yes_no(judged, q.separates);
  d["draw_below_half"] = yes_no(judged, q.below_half);
  d["draw_highest_in"] = value(double(q.highest_in_draws));
  d["draw_claimed_best_in"] = value(double(q.claimed_in_draws));
}

// embeddings: K matrices of n rows; names: K; concepts: (name, labels with NaN unlabelled, rows or None);
// ood: K matrices or None; draws: R >= 1 (1: the one set of observations), draws_given: false for the CLI's
// default (a bootstrap that is impossible then falls back to the one set, saying why).
py::list compare(const py::list& embeddings, const std::vector<std::string>& names, const py::list& concepts,
                 const py::object& ood, std::size_t per_class, std::uint64_t seed, double epsilon, double strength,
                 double decided, double episteme_threshold, std::size_t draws, bool draws_given) {
  std::vector<MatrixArgument> matrices, ood_matrices;
  for (std::size_t k = 0; k < embeddings.size(); ++k) {
    const std::string what = "embedding " + names.at(k);
    matrices.push_back(matrix_argument(embeddings[k], what.c_str()));
  }
  if (!ood.is_none()) {
    const py::list sets = ood;
    for (std::size_t k = 0; k < sets.size(); ++k) {
      const std::string what = "ood of " + names.at(k);
      ood_matrices.push_back(matrix_argument(sets[k], what.c_str()));
    }
  }
  std::vector<Representation> representations;
  for (std::size_t k = 0; k < matrices.size(); ++k) {
    representations.push_back({names[k], matrices[k].view, ood_matrices.empty() ? MatrixView() : ood_matrices[k].view});
  }
  if (draws < 1 || draws > 10000) {
    raise_if_failed(Status(StatusCode::invalid_argument,
                           "draws must be a whole number from 1 to 10000 (1: the one set of observations alone), "
                           "got " +
                               std::to_string(draws)));
  }
  std::vector<std::vector<std::uint8_t>> labels;
  std::vector<ComparedConcept> compared;
  labels.reserve(concepts.size());
  bool given_rows = false;
  for (const py::handle& item : concepts) {
    const py::tuple c = py::reinterpret_borrow<py::tuple>(item);
    const std::string name = c[0].cast<std::string>();
    labels.push_back(concept_labels(c[1], "labels of " + name));
    given_rows = !c[2].is_none();
    std::vector<std::size_t> rows = c[2].is_none() ? drawn_rows(labels.back(), per_class, seed, "labels of " + name)
                                                   : c[2].cast<std::vector<std::size_t>>();
    compared.push_back({name, labels.back().data(), labels.back().size(), std::move(rows)});
  }
  ComparisonOptions options;
  options.probe.epsilon = epsilon;
  options.probe.strength = strength;
  options.decided = decided;
  options.episteme_threshold = episteme_threshold;
  DrawOptions draw_options;
  draw_options.draws = draws;
  draw_options.mode = given_rows ? DrawMode::bootstrap : DrawMode::redraw;
  draw_options.per_class = per_class;
  draw_options.seed = seed;
  std::string draws_skipped;
  if (draw_options.mode == DrawMode::bootstrap && draws > 1 && !draws_given) {
    draws_skipped = bootstrap_impossible(compared);
    if (!draws_skipped.empty()) draw_options.draws = 1;
  }
  std::optional<Result<ComparisonResult>> result;
  {
    py::gil_scoped_release unlocked;
    result.emplace(draw_options.draws > 1 ? compare_over_draws(representations, compared, options, draw_options)
                                          : compare_representations(representations, compared, options));
  }
  raise_if_failed(result->status());
  py::list out;
  for (std::size_t i = 0; i < result->value().concepts.size(); ++i) {
    const ConceptComparison& c = result->value().concepts[i];
    const bool judged = c.basis != ComparisonBasis::none;
    const DrawnComparison& dc = c.draws;
    const bool drawn = dc.mode != DrawMode::none && dc.probes.size() == c.probes.size();
    py::list rows;
    for (std::size_t k = 0; k < c.probes.size(); ++k) {
      py::dict row = probe_fields(c.probes[k], judged);
      drawn_fields(row, dc, k, drawn);
      rows.append(row);
    }
    py::dict d;
    d["concept"] = c.concept;
    d["rows"] = rows;
    d["basis"] = std::string(basis_name(c.basis));
    d["basis_rows"] = c.basis_rows;
    d["best"] = judged ? py::object(py::str(c.probes[c.best].name)) : py::object(py::none());
    d["episteme_threshold"] = result->value().episteme_threshold;
    d["sentence"] = c.sentence;
    py::dict over;  // the CLI's JSON "draws"
    if (drawn) {
      over["mode"] = std::string(draw_mode_name(dc.mode));
      over["draws"] = dc.draws;
      over["observations"] = dc.observations;
      over["labelled_rows"] = dc.labelled_rows;
      over["comparisons"] = dc.comparisons;
      over["best"] =
          std::isfinite(dc.probes.front().mean) ? py::object(py::str(c.probes[dc.best].name)) : py::object(py::none());
    } else {
      over["mode"] = "none";
      over["draws"] = 1;
      if (!draws_skipped.empty()) over["skipped"] = draws_skipped;
    }
    d["draws"] = over;
    // R by K: each draw's AUROC on its basis (empty without draws)
    const std::size_t R = drawn ? dc.draws : 0;
    py::array_t<double> draw_auroc({R, c.probes.size()});
    for (std::size_t r = 0; r < R; ++r)
      for (std::size_t k = 0; k < c.probes.size(); ++k)
        draw_auroc.mutable_data()[r * c.probes.size() + k] = dc.probes[k].auroc.at(r);
    d["draw_auroc"] = draw_auroc;
    d["observation_rows"] = compared[i].observations;
    const std::size_t K = c.probes.size();
    py::array_t<double> difference({K, K}), standard_error({K, K}), p_value({K, K});
    for (std::size_t j = 0; j < K * K; ++j) {
      difference.mutable_data()[j] = c.difference.size() == K * K ? c.difference[j] : NAN;
      standard_error.mutable_data()[j] = c.standard_error.size() == K * K ? c.standard_error[j] : NAN;
      p_value.mutable_data()[j] = c.p_value.size() == K * K ? c.p_value[j] : NAN;
    }
    d["difference"] = difference;
    d["standard_error"] = standard_error;
    d["p_value"] = p_value;
    out.append(d);
  }
  return out;
}

}  // namespace

void register_compare(py::module_& m) {
  m.def("draw_observations", &draw, py::arg("labels"), py::arg("per_class"), py::arg("seed") = 0,
        "N random observations per class (observation_draw.h), as `gpprobe draw`: row indices, ascending.");
  m.def("compare_representations", &compare, py::arg("embeddings"), py::arg("names"), py::arg("concepts"),
        py::arg("ood"), py::arg("per_class"), py::arg("seed"), py::arg("epsilon"), py::arg("strength"),
        py::arg("decided"), py::arg("episteme_threshold"), py::arg("draws"), py::arg("draws_given"),
        "The comparison of `gpprobe compare` (over draws of the observations with draws > 1): one dict per concept "
        "with its rows, basis, best, draws and sentence.");
}

}  // namespace gpprobe::python
