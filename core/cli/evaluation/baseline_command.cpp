// gpprobe baseline --method lp|svm|lpe|msp|maha|knn --observations FILE --labels FILE --queries FILE
//                  [--k K] [--seed N] [--members M] [--out FILE]
// One CSV row per query: query,score and the method's other columns (gpprobe/gpprobe/baselines/baselines.h).
#include <ostream>

#include "gpprobe/baselines/baselines.h"

#include "arguments.h"
#include "commands.h"
#include "csv_output.h"
#include "readers/labelled_inputs.h"

namespace gpprobe::cli {

namespace {

Status run(const Args& raw, std::ostream& out) {
  Result<Arguments> parsed =
      Arguments::parse(raw, {"method", "observations", "labels", "queries", "k", "seed", "members", "out"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<std::string> method_name = args.required("method");
  if (!method_name.ok()) return method_name.status();
  Result<LabelledInputs> inputs = LabelledInputs::paths(args);
  if (!inputs.ok()) return inputs.status();
  Result<BaselineMethod> method = parse_baseline(method_name.value());
  if (!method.ok()) return Status(method.status().code(), "--" + method.status().message());
  BaselineOptions options;  // the core's defaults, overridden by flags
  Result<long long> k = args.integer("k", (long long)options.k), seed = args.integer("seed", (long long)options.seed),
                    members = args.integer("members", (long long)options.members);
  for (const auto* r : {&k, &seed, &members})
    if (!r->ok()) return r->status();
  options.k = std::size_t(k.value());
  options.seed = std::uint64_t(seed.value());
  options.members = std::size_t(members.value());

  LabelledInputs& in = inputs.value();
  GPPROBE_RETURN_IF_ERROR(in.read());
  Result<BaselineScores> scores = run_baseline(method.value(), in.observations.view(), in.labels.data(),
                                               in.labels.size(), in.queries.view(), options);
  if (!scores.ok()) {
    // "lp needs observations of both classes; ..." is about the labels file.
    for (const char* method : {"lp", "svm", "lpe"}) {
      if (scores.status().message().rfind(std::string(method) + " needs observations", 0) == 0) {
        return Status(scores.status().code(), in.labels_path + ": " + scores.status().message());
      }
    }
    return in.name_files(scores.status());
  }

  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  const BaselineScores& s = scores.value();
  const std::vector<const std::vector<double>*> columns = {&s.score, &s.probability, &s.episteme, &s.alea};
  const std::vector<std::string> names = baseline_columns(method.value());
  os << "query";
  for (const std::string& name : names) os << ',' << name;
  os << '\n';
  for (std::size_t q = 0; q < s.score.size(); ++q) {
    os << q;
    for (std::size_t c = 0; c < names.size(); ++c) os << ',' << format_number((*columns[c])[q]);
    os << '\n';
  }
  return csv.finish();
}

}  // namespace

int baseline_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("baseline", run(args, out), err);
}

}  // namespace gpprobe::cli
