// gpprobe compare --embeddings a.npy b.npy ... (or --config projector_config.json) --labels FILE
//   [--observations ROWS | --per-class N] [--seed S] [--concepts SPEC ...] [--ood a.npy b.npy ...]
//   [--epsilon E] [--strength S] [--decided P] [--episteme-threshold T] [--draws R] [--out FILE]
// The same concept, with the same observation rows, probed in every embedding of the same rows
// (gpprobe/compare/representation_comparison.h): one CSV row per (concept, embedding), the header
// starting embedding,width,loo_auroc,loo_auroc_lower,loo_auroc_upper,heldout_auroc,mean_episteme,mean_alea;
// per concept one JSON line on stderr with the basis of the paired tests, the best embedding and the
// sentence. Undefined numbers (a held-out AUROC without both classes, an OOD AUROC without an OOD set)
// are empty cells. With --draws R >= 2 (default 20) the comparison is repeated over R draws of the
// observations (gpprobe/compare/draw_comparison.h): the columns after `concept` give each embedding's numbers
// over the draws, and the sentence speaks of them.
#include <cmath>
#include <ostream>
#include <set>

#include <nlohmann/json.hpp>

#include "gpprobe/compare/draw_comparison.h"
#include "gpprobe/compare/representation_comparison.h"
#include "gpprobe/probe/observation_draw.h"

#include "arguments.h"
#include "commands.h"
#include "compare/concept_labels.h"
#include "csv_output.h"
#include "readers/loaded_matrix.h"
#include "readers/projector_config.h"

namespace gpprobe::cli {

namespace {

const char* kCompareUsage =
    "usage: gpprobe compare --embeddings A.npy B.npy ... (or --config projector_config.json) --labels FILE\n"
    "         [--observations ROWS | --per-class N] [--seed S] [--concepts SPEC ...] [--ood A.npy B.npy ...]\n"
    "         [--epsilon E] [--strength S] [--decided P] [--episteme-threshold T] [--draws R] [--out FILE]\n"
    "\n"
    "Probes the same concept with the same observation rows in every embedding of the same rows (one fit\n"
    "each, the same epsilon and strength) and writes one CSV row per embedding (per concept and embedding\n"
    "with several concepts):\n"
    "  embedding,width,loo_auroc,loo_auroc_lower,loo_auroc_upper,heldout_auroc,mean_episteme,mean_alea,\n"
    "  decided_fraction,ood_auroc,heldout_auroc_lower,heldout_auroc_upper,loo_verdict,observations,\n"
    "  heldout_rows,queries,separates,p_value_against_best,indistinguishable_from_best,concept,below_half,\n"
    "  draws,draw_mean_auroc,draw_sd_auroc,draw_min_auroc,draw_max_auroc,draw_auroc_lower,draw_auroc_upper,\n"
    "  draw_difference_from_best,draw_p_value_against_best,draw_holm_p_value,draw_indistinguishable_from_best,\n"
    "  draw_separates,draw_below_half,draw_highest_in,draw_claimed_best_in\n"
    "(99% intervals; held-out = every labelled row that is not an observation; queries = every row that is\n"
    "not an observation; decided_fraction = queries judged < P or > 1 - P (default 0.1) with episteme at\n"
    "least T (default: the episteme one observation gives at its own point); p_value_against_best: DeLong's\n"
    "paired test against the best embedding on the held-out rows, or on the observations' leave-one-out\n"
    "probabilities when the held-out rows lack a class; below_half: the AUROC interval lies below 1/2, the\n"
    "labels inverted or the concept anti-aligned). The columns up to below_half are the first draw's. The\n"
    "draw_ columns: the basis AUROC over R draws of the observations (mean, standard deviation, range, 99%\n"
    "interval of the mean), and a t-test across the draws of each embedding's paired AUROC differences from\n"
    "the best mean, Holm-corrected over the embeddings (draw_indistinguishable_from_best: adjusted p >= 0.01);\n"
    "draw_highest_in / draw_claimed_best_in: in how many draws it had the highest AUROC / its own DeLong tests\n"
    "put it above every other at 99%. stderr: one JSON line per concept with the sentence saying what the\n"
    "table supports and what it is conditional on.\n"
    "\n"
    "  --embeddings     .npy (float32 kept float32, or float64), .csv/.tsv/.txt; every file the same rows\n"
    "  --config         a Projector config: each tensor (.bytes float32 with tensorShape, or a matrix file)\n"
    "  --labels         0/1 per row (one concept); with --concepts a table of numbers (header optional)\n"
    "  --concepts       COLUMN (a 0/1 column) or COLUMN=VALUE (1 where it equals VALUE), several allowed\n"
    "  --observations   comma-separated row indices (0-based), the same for every concept\n"
    "  --per-class      N random labelled rows of each class per concept (gpprobe draw's rows; default 8)\n"
    "  --seed           the seed of the first draw and of the draws after it (default 0)\n"
    "  --draws          R, how many draws of the observations to compare over (default 20; 1: the one set\n"
    "                   of observations alone, the draw_ columns empty). With --per-class each draw takes N\n"
    "                   labelled rows of each class afresh (the first is --seed's) and is measured on the\n"
    "                   labelled rows it did not take; with --observations each draw after the first\n"
    "                   resamples the given rows with replacement within each class, which needs 2 other\n"
    "                   labelled rows of each class (without them and without --draws, the one set alone)\n"
    "  --ood            one OOD file per embedding, in the same order: adds ood_auroc\n";

// The values after --name up to the next flag, removed from `args`; empty when the flag is absent.
Result<std::vector<std::string>> take_list(Args* args, const std::string& name, bool* present) {
  std::vector<std::string> values;
  *present = false;
  for (std::size_t i = 0; i < args->size(); ++i) {
    if ((*args)[i] != "--" + name) continue;
    if (*present) return Status(StatusCode::invalid_argument, "--" + name + " is given twice");
    *present = true;
    std::size_t j = i + 1;
    while (j < args->size() && (*args)[j].rfind("--", 0) != 0) values.push_back((*args)[j++]);
    if (values.empty()) return Status(StatusCode::invalid_argument, "--" + name + " expects at least one value");
    args->erase(args->begin() + std::ptrdiff_t(i), args->begin() + std::ptrdiff_t(j));
    --i;
  }
  return values;
}

struct LoadedEmbedding {
  std::string name;
  LoadedMatrix matrix;
};

Result<std::vector<LoadedEmbedding>> load_embeddings(const std::vector<std::string>& files, const std::string& config) {
  std::vector<LoadedEmbedding> out;
  if (!config.empty()) {
    Result<std::vector<ProjectorTensor>> tensors = read_projector_config(config);
    if (!tensors.ok()) return tensors.status();
    for (ProjectorTensor& t : tensors.value()) out.push_back({t.name, std::move(t.matrix)});
    return out;
  }
  for (const std::string& file : files) {
    Result<LoadedMatrix> m = read_matrix(file);
    if (!m.ok()) return m.status();
    out.push_back({file, std::move(m.value())});
  }
  return out;
}

// `per_class` random rows of each class among the labelled rows (observation_draw.h over those rows).
Result<std::vector<std::size_t>> drawn_rows(const ConceptLabels& concept, std::size_t per_class, std::uint64_t seed) {
  std::vector<std::size_t> labelled;
  std::vector<std::uint8_t> compact;
  for (std::size_t i = 0; i < concept.labels.size(); ++i) {
    if (concept.labels[i] == kUnlabelled) continue;
    labelled.push_back(i);
    compact.push_back(concept.labels[i]);
  }
  Result<std::vector<std::size_t>> drawn = draw_observations(compact.data(), compact.size(), per_class, seed);
  if (!drawn.ok()) return drawn.status();
  std::vector<std::size_t> rows;
  for (std::size_t k : drawn.value()) rows.push_back(labelled[k]);
  return rows;
}

std::string cell(double v) { return std::isfinite(v) ? format_number(v) : ""; }

// RFC 4180: quoted when it holds a comma, a quote or a line break.
std::string text_cell(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

nlohmann::json json_number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

Status run(const Args& raw, std::ostream& out, std::ostream& err) {
  Args rest = raw;
  bool has_embeddings = false, has_ood = false, has_concepts = false;
  Result<std::vector<std::string>> files = take_list(&rest, "embeddings", &has_embeddings);
  if (!files.ok()) return files.status();
  Result<std::vector<std::string>> ood_files = take_list(&rest, "ood", &has_ood);
  if (!ood_files.ok()) return ood_files.status();
  Result<std::vector<std::string>> specs = take_list(&rest, "concepts", &has_concepts);
  if (!specs.ok()) return specs.status();
  Result<Arguments> parsed = Arguments::parse(rest,
                                              {"config", "labels", "observations", "per-class", "seed", "epsilon",
                                               "strength", "decided", "episteme-threshold", "draws", "out"},
                                              {"help"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  if (args.has("help")) {
    out << kCompareUsage;
    return Status::success();
  }
  if (has_embeddings == args.has("config")) {
    return Status(StatusCode::invalid_argument, has_embeddings
                                                    ? "--embeddings and --config exclude each other; give one"
                                                    : "missing --embeddings (or --config)");
  }
  Result<std::string> labels_path = args.required("labels");
  if (!labels_path.ok()) return labels_path.status();
  if (args.has("observations") && args.has("per-class")) {
    return Status(StatusCode::invalid_argument, "--observations and --per-class exclude each other; give one");
  }
  ComparisonOptions options;
  for (auto [flag, value] :
       {std::pair{"epsilon", &options.probe.epsilon}, std::pair{"strength", &options.probe.strength},
        std::pair{"decided", &options.decided}, std::pair{"episteme-threshold", &options.episteme_threshold}}) {
    Result<double> v = args.number(flag, *value);
    if (!v.ok()) return v.status();
    *value = v.value();
  }
  Result<long long> per_class = args.integer("per-class", 8), seed = args.integer("seed", 0),
                    draws = args.integer("draws", 20);
  for (const auto* r : {&per_class, &seed, &draws})
    if (!r->ok()) return r->status();
  if (draws.value() < 1 || draws.value() > 10000) {
    return Status(StatusCode::invalid_argument,
                  "--draws must be an integer from 1 to 10000 (1: the one set of observations alone), got " +
                      args.get("draws", ""));
  }
  Result<std::vector<std::size_t>> given_rows = std::vector<std::size_t>{};
  if (args.has("observations")) given_rows = args.indices("observations", "");
  if (!given_rows.ok()) return given_rows.status();

  Result<std::vector<LoadedEmbedding>> embeddings = load_embeddings(files.value(), args.get("config", ""));
  if (!embeddings.ok()) return embeddings.status();
  std::vector<LoadedMatrix> ood;
  if (has_ood) {
    if (ood_files.value().size() != embeddings.value().size()) {
      return Status(StatusCode::invalid_argument, "--ood names " + count_of(ood_files.value().size(), "file") +
                                                      " for " + count_of(embeddings.value().size(), "embedding") +
                                                      "; give one OOD file per embedding, in the same order");
    }
    for (const std::string& file : ood_files.value()) {
      Result<LoadedMatrix> m = read_matrix(file);
      if (!m.ok()) return m.status();
      ood.push_back(std::move(m.value()));
    }
  }
  std::vector<Representation> representations;
  for (std::size_t k = 0; k < embeddings.value().size(); ++k) {
    const LoadedEmbedding& e = embeddings.value()[k];
    representations.push_back({e.name, e.matrix.view(), has_ood ? ood[k].view() : MatrixView()});
  }

  Result<std::vector<ConceptLabels>> concepts = read_concepts(labels_path.value(), specs.value());
  if (!concepts.ok()) return concepts.status();
  const std::size_t n = representations.front().embeddings.rows();
  std::vector<ComparedConcept> compared;
  for (const ConceptLabels& c : concepts.value()) {
    if (c.labels.size() != n) {
      return Status(StatusCode::dimension_mismatch, labels_path.value() + ": " + count_of(c.labels.size(), "label") +
                                                        " for " + count_of(n, "row") + " in " +
                                                        representations.front().name);
    }
    ComparedConcept concept {c.name, c.labels.data(), c.labels.size(), given_rows.value()};
    if (!args.has("observations")) {
      Result<std::vector<std::size_t>> rows =
          drawn_rows(c, std::size_t(per_class.value()), std::uint64_t(seed.value()));
      if (!rows.ok()) return Status(rows.status().code(), labels_path.value() + ": " + rows.status().message());
      concept.observations = std::move(rows.value());
    }
    compared.push_back(std::move(concept));
  }

  // Resampling the given observations needs other labelled rows to measure each draw on; without --draws the
  // one set is compared alone (the JSON says why), with it the refusal names what is missing.
  std::string draws_skipped;
  DrawOptions draw_options;
  draw_options.draws = std::size_t(draws.value());
  draw_options.mode = args.has("observations") ? DrawMode::bootstrap : DrawMode::redraw;
  draw_options.per_class = std::size_t(per_class.value());
  draw_options.seed = std::uint64_t(seed.value());
  if (draw_options.mode == DrawMode::bootstrap && draw_options.draws > 1 && !args.has("draws")) {
    for (const ComparedConcept& c : compared) {
      std::vector<char> given(n, 0);
      for (std::size_t row : c.observations)
        if (row < n) given[row] = 1;
      std::size_t others[2] = {0, 0};
      for (std::size_t i = 0; i < n; ++i)
        if (!given[i] && c.labels[i] <= 1) ++others[c.labels[i]];
      if (others[0] < 2 || others[1] < 2) {
        draws_skipped = "concept '" + c.name +
                        "' has fewer than 2 labelled rows of each class besides the given observations to measure "
                        "resampled draws on";
        draw_options.draws = 1;
        break;
      }
    }
  }
  Result<ComparisonResult> result = draw_options.draws > 1
                                        ? compare_over_draws(representations, compared, options, draw_options)
                                        : compare_representations(representations, compared, options);
  if (!result.ok()) return result.status();

  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  os << "embedding,width,loo_auroc,loo_auroc_lower,loo_auroc_upper,heldout_auroc,mean_episteme,mean_alea,"
        "decided_fraction,ood_auroc,heldout_auroc_lower,heldout_auroc_upper,loo_verdict,observations,heldout_rows,"
        "queries,separates,p_value_against_best,indistinguishable_from_best,concept,below_half,draws,draw_mean_auroc,"
        "draw_sd_auroc,draw_min_auroc,draw_max_auroc,draw_auroc_lower,draw_auroc_upper,draw_difference_from_best,"
        "draw_p_value_against_best,draw_holm_p_value,draw_indistinguishable_from_best,draw_separates,"
        "draw_below_half,draw_highest_in,draw_claimed_best_in\n";
  for (const ConceptComparison& c : result.value().concepts) {
    const bool judged = c.basis != ComparisonBasis::none;
    const DrawnComparison& d = c.draws;
    const bool drawn = d.mode != DrawMode::none && d.probes.size() == c.probes.size();
    const bool drawn_judged = drawn && std::isfinite(d.probes.front().mean);
    for (std::size_t k = 0; k < c.probes.size(); ++k) {
      const RepresentationProbe& p = c.probes[k];
      os << text_cell(p.name) << ',' << p.width << ',' << cell(p.loo_auroc) << ',' << cell(p.loo_auroc_lower) << ','
         << cell(p.loo_auroc_upper) << ',' << cell(p.heldout_auroc) << ',' << cell(p.mean_episteme) << ','
         << cell(p.mean_alea) << ',' << cell(p.decided_fraction) << ',' << cell(p.ood_auroc) << ','
         << cell(p.heldout_auroc_lower) << ',' << cell(p.heldout_auroc_upper) << ',' << verdict_name(p.loo_verdict)
         << ',' << p.observations << ',' << p.heldout_rows << ',' << p.queries << ','
         << (judged ? (p.separates ? "yes" : "no") : "") << ',' << cell(p.p_value_against_best) << ','
         << (judged ? (p.indistinguishable_from_best ? "yes" : "no") : "") << ',' << text_cell(c.concept) << ','
         << (judged ? (p.below_half ? "yes" : "no") : "") << ',' << (drawn ? d.draws : 1);
      if (drawn) {
        const DrawnProbe& q = d.probes[k];
        os << ',' << cell(q.mean) << ',' << cell(q.standard_deviation) << ',' << cell(q.minimum) << ','
           << cell(q.maximum) << ',' << cell(q.lower) << ',' << cell(q.upper) << ',' << cell(q.difference_from_best)
           << ',' << cell(q.p_value_against_best) << ',' << cell(q.holm_p_value) << ','
           << (drawn_judged ? (q.indistinguishable_from_best ? "yes" : "no") : "") << ','
           << (drawn_judged ? (q.separates ? "yes" : "no") : "") << ','
           << (drawn_judged ? (q.below_half ? "yes" : "no") : "") << ',' << q.highest_in_draws << ','
           << q.claimed_in_draws << '\n';
      } else {
        os << ",,,,,,,,,,,,,,\n";
      }
    }
  }
  GPPROBE_RETURN_IF_ERROR(csv.finish());
  for (const ConceptComparison& c : result.value().concepts) {
    nlohmann::json line = {
        {"concept", c.concept},
        {"basis", basis_name(c.basis)},
        {"basis_rows", c.basis_rows},
        {"best", c.basis == ComparisonBasis::none ? nlohmann::json(nullptr) : nlohmann::json(c.probes[c.best].name)},
        {"episteme_threshold", json_number(result.value().episteme_threshold)},
        {"sentence", c.sentence}};
    const DrawnComparison& d = c.draws;
    if (d.mode != DrawMode::none && d.probes.size() == c.probes.size()) {
      line["draws"] = {{"mode", draw_mode_name(d.mode)},
                       {"draws", d.draws},
                       {"observations", d.observations},
                       {"labelled_rows", d.labelled_rows},
                       {"comparisons", d.comparisons},
                       {"best", std::isfinite(d.probes.front().mean) ? nlohmann::json(c.probes[d.best].name)
                                                                     : nlohmann::json(nullptr)}};
    } else {
      line["draws"] = {{"mode", "none"}, {"draws", 1}};
      if (!draws_skipped.empty()) line["draws"]["skipped"] = draws_skipped;
    }
    err << line.dump() << '\n';
  }
  return Status::success();
}

}  // namespace

int compare_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("compare", run(args, out, err), err);
}

}  // namespace gpprobe::cli
