// gpprobe probe --observations FILE --labels FILE --queries FILE [--epsilon E] [--strength S]
//               [--space automatic|function|weight] [--out FILE]
//               [--certify-gamma G [--norm inf|2] [--certify-dims i,j,...] [--tolerance E] [--max-iterations N]]
#include <ostream>

#include "arguments.h"
#include "certify_columns.h"
#include "commands.h"
#include "csv_output.h"
#include "gpprobe/probe.h"
#include "labelled_inputs.h"

namespace gpprobe::cli {

namespace {

Status run(const Args& raw, std::ostream& out) {
  std::set<std::string> flags = {"observations", "labels", "queries", "epsilon", "strength", "space", "out"};
  flags.insert(certify_flags().begin(), certify_flags().end());
  Result<Arguments> parsed = Arguments::parse(raw, flags);
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<std::optional<CertifyOptions>> certify = certify_options(args);
  if (!certify.ok()) return certify.status();
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
  std::vector<ProbeCertificate> certificates;
  if (certify.value()) {
    Result<ProbeCertifier> certifier = ProbeCertifier::make(probe.value(), *certify.value());
    if (!certifier.ok()) return name_certify_flag(certifier.status());
    Result<std::vector<ProbeCertificate>> certified = certifier.value().certify(in.queries.view());
    if (!certified.ok()) return in.name_files(certified.status());
    certificates = std::move(certified).value();
  }

  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  os << "query,judged_probability,episteme,alea,latent_mean,latent_variance,knowledge,ood_score"
     << (certificates.empty() ? "" : certify_header()) << '\n';
  for (std::size_t q = 0; q < n; ++q) {
    os << q << ',' << format_number(judged[q]) << ',' << format_number(episteme[q]) << ','
       << format_number(alea[q]) << ',' << format_number(mean[q]) << ',' << format_number(variance[q]) << ','
       << format_number(knowledge[q]) << ',' << format_number(ood[q]);
    if (!certificates.empty()) write_certificate(os, certificates[q]);
    os << '\n';
  }
  return csv.finish();
}

}  // namespace

int probe_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("probe", run(args, out), err);
}

}  // namespace gpprobe::cli
