// gpprobe probe --observations FILE --labels FILE --queries FILE [--epsilon E] [--strength S]
//               [--space automatic|function|weight] [--out FILE]
#include <ostream>

#include "arguments.h"
#include "commands.h"
#include "csv_output.h"
#include "gpprobe/probe.h"
#include "labelled_inputs.h"

namespace gpprobe::cli {

namespace {

Status run(const Args& raw, std::ostream& out) {
  Result<Arguments> parsed =
      Arguments::parse(raw, {"observations", "labels", "queries", "epsilon", "strength", "space", "out"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<LabelledInputs> inputs = LabelledInputs::paths(args);
  if (!inputs.ok()) return inputs.status();
  const ProbeOptions defaults;
  Result<double> epsilon = args.number("epsilon", defaults.epsilon);
  if (!epsilon.ok()) return epsilon.status();
  Result<double> strength = args.number("strength", defaults.strength);
  if (!strength.ok()) return strength.status();
  Result<PosteriorSpace> space = parse_space(args.get("space", space_name(defaults.space)));
  if (!space.ok()) return Status(space.status().code(), "--" + space.status().message());

  LabelledInputs& in = inputs.value();
  GPPROBE_RETURN_IF_ERROR(in.read());

  ProbeOptions options;
  options.epsilon = epsilon.value();
  options.strength = strength.value();
  options.space = space.value();
  options.expected_queries = in.queries.rows;
  const std::vector<std::uint8_t>& y = in.labels;
  Result<Probe> probe = Probe::fit(in.observations.view(), y.data(), y.size(), options);
  if (!probe.ok()) return in.name_files(probe.status());

  const std::size_t n = in.queries.rows;
  std::vector<double> judged(n), episteme(n), alea(n), mean(n), variance(n), knowledge(n), ood(n);
  ProbeScoreColumns columns{judged.data(), episteme.data(), alea.data(), mean.data(),
                            variance.data(), knowledge.data(), ood.data()};
  const Status scored = probe.value().score(in.queries.view(), columns);
  if (!scored.ok()) return in.name_files(scored);

  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  os << "query,judged_probability,episteme,alea,latent_mean,latent_variance,knowledge,ood_score\n";
  for (std::size_t q = 0; q < n; ++q) {
    os << q << ',' << format_number(judged[q]) << ',' << format_number(episteme[q]) << ','
       << format_number(alea[q]) << ',' << format_number(mean[q]) << ',' << format_number(variance[q]) << ','
       << format_number(knowledge[q]) << ',' << format_number(ood[q]) << '\n';
  }
  return csv.finish();
}

}  // namespace

int probe_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("probe", run(args, out), err);
}

}  // namespace gpprobe::cli
