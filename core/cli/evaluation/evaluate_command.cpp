// gpprobe evaluate --embeddings FILE --labels FILE [--ood FILE] --experiment probing|fuzzy|ood
//                  [--query-mask FILE] [--trials T] [--seed N] [--max-observations M] [--max-queries Q]
//                  [--members M] [--k K] [--epsilon E] [--strength S] [--gpc [--gpc-max-observations M]]
//                  [--out FILE] [--clouds FILE]
// CSV of the curve points: method,metric,observations,mean,sd,trials (gpprobe/gpprobe/evaluation/experiment.h); a method's
// rows stop where it did not run. The fuzzy experiment's per-query clouds go to --clouds FILE when given.
// --gpc adds the GP classification probes (gpc-laplace, gpc-ep) to the probing experiment, up to
// --gpc-max-observations (default 128).
#include <cmath>
#include <ostream>

#include "gpprobe/evaluation/experiment.h"

#include "arguments.h"
#include "commands.h"
#include "csv_output.h"
#include "readers/file_messages.h"
#include "readers/loaded_matrix.h"

namespace gpprobe::cli {

namespace {

struct Files {
  std::string embeddings, labels, ood, query_mask;
};

// `options` arrives with the core's defaults (experiment.h); a flag overrides its field.
Status read_options(const Arguments& args, ExperimentOptions* options) {
  const auto count = [&](const char* flag, std::size_t fallback) { return args.integer(flag, (long long)fallback); };
  Result<long long> trials = count("trials", options->trials), seed = count("seed", options->seed),
                    max_observations = count("max-observations", options->max_observations),
                    gpc_max_observations = count("gpc-max-observations", options->gpc.max_observations),
                    max_queries = count("max-queries", options->max_queries),
                    members = count("members", options->members), k = count("k", options->k);
  for (const auto* r : {&trials, &seed, &max_observations, &gpc_max_observations, &max_queries, &members, &k})
    if (!r->ok()) return r->status();
  Result<double> epsilon = args.number("epsilon", options->probe.epsilon),
                 strength = args.number("strength", options->probe.strength);
  for (const auto* r : {&epsilon, &strength})
    if (!r->ok()) return r->status();
  options->trials = std::size_t(trials.value());
  options->seed = std::uint64_t(seed.value());
  options->max_observations = std::size_t(max_observations.value());
  options->max_queries = std::size_t(max_queries.value());
  options->members = std::size_t(members.value());
  options->k = std::size_t(k.value());
  options->probe.epsilon = epsilon.value();
  options->probe.strength = strength.value();
  options->gpc.enabled = args.has("gpc");
  options->gpc.max_observations = std::size_t(gpc_max_observations.value());
  return Status::success();
}

Status write_curves(const ExperimentResult& r, const std::string& path, std::ostream& fallback) {
  CsvOutput csv(path, fallback);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  os << "method,metric,observations,mean,sd,trials\n";
  for (const ExperimentCurve& c : r.curves) {
    for (std::size_t j = 0; j < r.observation_counts.size(); ++j) {
      if (std::isnan(c.mean[j])) continue;  // not run at this O
      os << c.method << ',' << c.metric << ',' << r.observation_counts[j] << ',' << format_number(c.mean[j]) << ','
         << format_number(c.sd[j]) << ',' << r.trials << '\n';
    }
  }
  return csv.finish();
}

Status write_clouds(const ExperimentResult& r, const std::string& path, std::ostream& fallback) {
  CsvOutput csv(path, fallback);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  os << "method,label_probability,observations,row,judged_probability,episteme,alea\n";
  for (const ExperimentCloud& c : r.clouds) {
    for (std::size_t i = 0; i < c.rows.size(); ++i) {
      os << c.method << ',' << format_number(c.label_probability) << ',' << c.observations << ',' << c.rows[i] << ','
         << format_number(c.judged_probability[i]) << ',' << format_number(c.episteme[i]) << ','
         << format_number(c.alea[i]) << '\n';
    }
  }
  return csv.finish();
}

Status run(const Args& raw, std::ostream& out, std::ostream& err) {
  Result<Arguments> parsed =
      Arguments::parse(raw,
                       {"embeddings", "labels", "ood", "experiment", "query-mask", "trials", "seed", "max-observations",
                        "max-queries", "members", "k", "epsilon", "strength", "gpc-max-observations", "out", "clouds"},
                       {"gpc"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Files files;
  for (auto [flag, path] : {std::pair{"embeddings", &files.embeddings}, std::pair{"labels", &files.labels}}) {
    Result<std::string> value = args.required(flag);
    if (!value.ok()) return value.status();
    *path = value.value();
  }
  Result<std::string> experiment_name = args.required("experiment");
  if (!experiment_name.ok()) return experiment_name.status();
  Result<ExperimentKind> kind = parse_experiment(experiment_name.value());
  if (!kind.ok()) return Status(kind.status().code(), "--" + kind.status().message());
  files.ood = args.get("ood", "");
  files.query_mask = args.get("query-mask", "");
  if (kind.value() == ExperimentKind::ood && files.ood.empty()) {
    return Status(StatusCode::invalid_argument, "--experiment ood needs --ood FILE");
  }
  ExperimentOptions options;
  GPPROBE_RETURN_IF_ERROR(read_options(args, &options));
  if (options.gpc.enabled && kind.value() != ExperimentKind::probing) {
    return Status(StatusCode::invalid_argument, "--gpc applies to --experiment probing only");
  }
  if (args.has("gpc-max-observations") && !options.gpc.enabled) {
    return Status(StatusCode::invalid_argument, "--gpc-max-observations only applies with --gpc");
  }

  Result<LoadedMatrix> embeddings = read_matrix(files.embeddings);
  if (!embeddings.ok()) return embeddings.status();
  Result<std::vector<std::uint8_t>> labels = read_labels(files.labels);
  if (!labels.ok()) return labels.status();
  LoadedMatrix ood;
  if (!files.ood.empty()) {
    Result<LoadedMatrix> read = read_matrix(files.ood);
    if (!read.ok()) return read.status();
    ood = std::move(read.value());
  }
  std::vector<std::uint8_t> mask;
  if (!files.query_mask.empty()) {
    Result<std::vector<std::uint8_t>> read = read_labels(files.query_mask);
    if (!read.ok()) return read.status();
    mask = std::move(read.value());
  }

  ExperimentData data;
  data.embeddings = embeddings.value().view();
  data.labels = labels.value().data();
  data.label_count = labels.value().size();
  data.ood = ood.view();
  data.query_mask = files.query_mask.empty() ? nullptr : mask.data();
  data.query_mask_count = mask.size();
  Result<ExperimentResult> result = run_experiment(kind.value(), data, options);
  if (!result.ok()) {
    const std::string& m = result.status().message();
    for (auto [option, flag] :
         {std::pair{"trials must", "--trials must"}, std::pair{"max_observations must", "--max-observations must"},
          std::pair{"max_queries must", "--max-queries must"}}) {
      if (m.rfind(option, 0) == 0) return Status(result.status().code(), flag + m.substr(std::string(option).size()));
    }
    return with_file_names(result.status(), {{"embeddings", files.embeddings},
                                             {"labels", files.labels},
                                             {"label ", files.labels},
                                             {"ood embeddings", files.ood},
                                             {"the ood experiment", "--ood"},
                                             {"the query mask", files.query_mask},
                                             {"query mask", files.query_mask}});
  }
  GPPROBE_RETURN_IF_ERROR(write_curves(result.value(), args.get("out", ""), out));
  if (args.has("clouds")) GPPROBE_RETURN_IF_ERROR(write_clouds(result.value(), args.get("clouds", ""), out));
  // What ended the schedule early, in the core's words (the app shows the same line).
  if (!result.value().schedule_limit.empty()) err << "gpprobe evaluate: " << result.value().schedule_limit << '\n';
  return Status::success();
}

}  // namespace

int evaluate_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("evaluate", run(args, out, err), err);
}

}  // namespace gpprobe::cli
