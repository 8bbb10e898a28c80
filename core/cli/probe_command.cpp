// gpprobe probe --observations FILE --labels FILE --queries FILE [--epsilon E] [--strength S]
//               [--space automatic|function|weight] [--out FILE]
#include <ostream>

#include "arguments.h"
#include "commands.h"
#include "csv_output.h"
#include "gpprobe/probe.h"
#include "loaded_matrix.h"

namespace gpprobe::cli {

namespace {

Result<PosteriorSpace> parse_space(const std::string& name) {
  if (name == "automatic") return PosteriorSpace::automatic;
  if (name == "function") return PosteriorSpace::function;
  if (name == "weight") return PosteriorSpace::weight;
  return Status(StatusCode::invalid_argument, "--space expects automatic, function or weight, got '" + name + "'");
}

// Messages from the core name "observations"/"queries"; say which file that was.
Status with_files(const Status& s, const std::string& observations, const std::string& queries) {
  std::string m = s.message();
  if (m.rfind("observations", 0) == 0) m = observations + ": " + m;
  else if (m.rfind("queries", 0) == 0) m = queries + ": " + m;
  else if (m.rfind("labels", 0) == 0 || m.rfind("label ", 0) == 0) m = "labels: " + m;
  return Status(s.code(), m);
}

Status run(const Args& raw, std::ostream& out) {
  Result<Arguments> parsed =
      Arguments::parse(raw, {"observations", "labels", "queries", "epsilon", "strength", "space", "out"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<std::string> observations_path = args.required("observations");
  Result<std::string> labels_path = args.required("labels");
  Result<std::string> queries_path = args.required("queries");
  for (const auto* r : {&observations_path, &labels_path, &queries_path})
    if (!r->ok()) return r->status();
  Result<double> epsilon = args.number("epsilon", 0.1);
  if (!epsilon.ok()) return epsilon.status();
  Result<double> strength = args.number("strength", 5.0);
  if (!strength.ok()) return strength.status();
  Result<PosteriorSpace> space = parse_space(args.get("space", "automatic"));
  if (!space.ok()) return space.status();

  Result<LoadedMatrix> observations = read_matrix(observations_path.value());
  if (!observations.ok()) return observations.status();
  Result<std::vector<std::uint8_t>> labels = read_labels(labels_path.value());
  if (!labels.ok()) return labels.status();
  Result<LoadedMatrix> queries = read_matrix(queries_path.value());
  if (!queries.ok()) return queries.status();

  ProbeOptions options;
  options.epsilon = epsilon.value();
  options.strength = strength.value();
  options.space = space.value();
  options.expected_queries = queries.value().rows;
  const MatrixView obs = observations.value().view();
  const std::vector<std::uint8_t>& y = labels.value();
  if (y.size() != obs.rows()) {
    return Status(StatusCode::dimension_mismatch,
                  labels_path.value() + ": " + std::to_string(y.size()) + " labels for " +
                      std::to_string(obs.rows()) + " observation rows in " + observations_path.value());
  }
  Result<Probe> probe = Probe::fit(obs, y.data(), y.size(), options);
  if (!probe.ok()) return with_files(probe.status(), observations_path.value(), queries_path.value());

  const std::size_t n = queries.value().rows;
  std::vector<double> judged(n), episteme(n), alea(n), mean(n), variance(n), knowledge(n), ood(n);
  ProbeScoreColumns columns{judged.data(), episteme.data(), alea.data(), mean.data(),
                            variance.data(), knowledge.data(), ood.data()};
  const Status scored = probe.value().score(queries.value().view(), columns);
  if (!scored.ok()) return with_files(scored, observations_path.value(), queries_path.value());

  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  os << "query,judged_probability,episteme,alea,latent_mean,latent_variance,knowledge,ood_score\n";
  for (std::size_t q = 0; q < n; ++q) {
    os << q << ',' << format_number(judged[q]) << ',' << format_number(episteme[q]) << ','
       << format_number(alea[q]) << ',' << format_number(mean[q]) << ',' << format_number(variance[q]) << ','
       << format_number(knowledge[q]) << ',' << format_number(ood[q]) << '\n';
  }
  os.flush();
  if (!os) return Status(StatusCode::io_error, args.get("out", "stdout") + ": write failed");
  return Status::success();
}

}  // namespace

int probe_command(const Args& args, std::ostream& out, std::ostream& err) {
  const Status s = run(args, out);
  if (s.ok()) return 0;
  err << "gpprobe probe: " << s.message() << '\n';
  return s.code() == StatusCode::invalid_argument && s.message().rfind("--", 0) == 0 ? 2 : 1;
}

}  // namespace gpprobe::cli
