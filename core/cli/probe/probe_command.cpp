// gpprobe probe --observations FILE --labels FILE --queries FILE [--epsilon E] [--strength S]
//               [--space automatic|function|weight] [--out FILE]
//               [--certify-gamma G [--norm inf|2] [--certify-dims i,j,...] [--tolerance E] [--max-iterations N]]
// gpprobe probe --probe FILE.probe.json --queries FILE [--space ...] [--out FILE] [--certify-gamma ...]
//   (the probe file, exported by the app, holds the observations, labels, epsilon, strength and space)
#include <ostream>

#include "gpprobe/probe/probe.h"
#include "gpprobe/probe/probe_file.h"

#include "arguments.h"
#include "certify/certify_columns.h"
#include "commands.h"
#include "csv_output.h"
#include "readers/file_messages.h"
#include "readers/labelled_inputs.h"

namespace gpprobe::cli {

namespace {

// What the probe is fitted on and what it scores, from either set of flags, and how core messages
// about each input get the name of the file it came from.
struct ProbeInputs {
  LoadedMatrix observations, queries;
  std::vector<std::uint8_t> labels;
  ProbeOptions options;
  std::vector<std::pair<std::string, std::string>> files;  // (message prefix, file)

  Status name_files(const Status& status) const { return with_file_names(status, files); }
};

Result<ProbeInputs> from_flags(const Arguments& args) {
  Result<LabelledInputs> paths = LabelledInputs::paths(args);
  if (!paths.ok()) return paths.status();
  ProbeInputs in;
  Result<double> epsilon = args.number("epsilon", in.options.epsilon);
  if (!epsilon.ok()) return epsilon.status();
  Result<double> strength = args.number("strength", in.options.strength);
  if (!strength.ok()) return strength.status();
  in.options.epsilon = epsilon.value();
  in.options.strength = strength.value();
  LabelledInputs& files = paths.value();
  GPPROBE_RETURN_IF_ERROR(files.read());
  in.observations = std::move(files.observations);
  in.queries = std::move(files.queries);
  in.labels = std::move(files.labels);
  in.files = {{"observations", files.observations_path},
              {"queries", files.queries_path},
              {"labels", files.labels_path},
              {"label ", files.labels_path}};
  return in;
}

Result<ProbeInputs> from_probe_file(const Arguments& args) {
  for (const char* flag : {"observations", "labels", "epsilon", "strength"}) {
    if (args.has(flag)) {
      return Status(StatusCode::invalid_argument,
                    std::string("--probe holds the observations, labels, epsilon and strength; remove --") + flag);
    }
  }
  Result<std::string> queries_path = args.required("queries");
  if (!queries_path.ok()) return queries_path.status();
  const std::string probe_path = args.get("probe", "");
  Result<ProbeFile> file = read_probe_file(probe_path);
  if (!file.ok()) return file.status();
  Result<LoadedMatrix> queries = read_matrix(queries_path.value());
  if (!queries.ok()) return queries.status();
  ProbeInputs in;
  in.options = file.value().options;
  in.observations = std::move(file.value().observations);
  in.labels = std::move(file.value().labels);
  in.queries = std::move(queries.value());
  in.files = {
      {"observations", probe_path}, {"queries", queries_path.value()}, {"labels", probe_path}, {"label ", probe_path}};
  return in;
}

Status run(const Args& raw, std::ostream& out) {
  std::set<std::string> flags = {"observations", "labels", "queries", "epsilon", "strength", "space", "out", "probe"};
  flags.insert(certify_flags().begin(), certify_flags().end());
  Result<Arguments> parsed = Arguments::parse(raw, flags);
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<std::optional<CertifyOptions>> certify = certify_options(args);
  if (!certify.ok()) return certify.status();
  const bool from_file = args.has("probe");
  Result<PosteriorSpace> space = parse_space(args.get("space", ""));
  if (args.has("space") && !space.ok()) return Status(space.status().code(), "--" + space.status().message());

  Result<ProbeInputs> inputs = from_file ? from_probe_file(args) : from_flags(args);
  if (!inputs.ok()) return inputs.status();
  ProbeInputs& in = inputs.value();
  // --space overrides the probe file's space (the same probe, fitted in the other space).
  if (args.has("space")) in.options.space = space.value();
  in.options.expected_queries = in.queries.rows;
  const std::vector<std::uint8_t>& y = in.labels;
  Result<Probe> probe = Probe::fit(in.observations.view(), y.data(), y.size(), in.options);
  if (!probe.ok()) return in.name_files(probe.status());

  const std::size_t n = in.queries.rows;
  std::vector<double> judged(n), episteme(n), alea(n), mean(n), variance(n), knowledge(n), ood(n);
  ProbeScoreColumns columns{judged.data(),   episteme.data(),  alea.data(), mean.data(),
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
    os << q << ',' << format_number(judged[q]) << ',' << format_number(episteme[q]) << ',' << format_number(alea[q])
       << ',' << format_number(mean[q]) << ',' << format_number(variance[q]) << ',' << format_number(knowledge[q])
       << ',' << format_number(ood[q]);
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
