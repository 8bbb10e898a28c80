// gpprobe draw --labels FILE --per-class N [--seed S] [--out FILE]
// N random observations per class (observation_draw.h): one CSV row per chosen row index, ascending,
// the same rows the app's "draw N per class" picks for the same labels and seed.
#include <ostream>

#include "gpprobe/probe/observation_draw.h"

#include "arguments.h"
#include "commands.h"
#include "csv_output.h"
#include "readers/loaded_matrix.h"

namespace gpprobe::cli {

namespace {

Status run(const Args& raw, std::ostream& out) {
  Result<Arguments> parsed = Arguments::parse(raw, {"labels", "per-class", "seed", "out"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<std::string> labels_path = args.required("labels");
  if (!labels_path.ok()) return labels_path.status();
  if (!args.has("per-class")) return Status(StatusCode::invalid_argument, "missing --per-class");
  Result<long long> per_class = args.integer("per-class", 0), seed = args.integer("seed", 0);
  for (const auto* r : {&per_class, &seed})
    if (!r->ok()) return r->status();
  Result<std::vector<std::uint8_t>> labels = read_labels(labels_path.value());
  if (!labels.ok()) return labels.status();
  Result<std::vector<std::size_t>> rows = draw_observations(
      labels.value().data(), labels.value().size(), std::size_t(per_class.value()), std::uint64_t(seed.value()));
  if (!rows.ok()) return Status(rows.status().code(), labels_path.value() + ": " + rows.status().message());
  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  csv.stream() << "row\n";
  for (std::size_t row : rows.value()) csv.stream() << row << '\n';
  return csv.finish();
}

}  // namespace

int draw_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("draw", run(args, out), err);
}

}  // namespace gpprobe::cli
