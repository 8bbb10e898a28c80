// gpprobe loo --observations FILE --labels FILE [--epsilon E] [--strength S] [--space ...] [--out FILE]
// gpprobe loo --probe FILE.probe.json [--space ...] [--out FILE]
//   Leave-one-out judged probability of every observation in closed form (gpprobe/gpprobe/probe/leave_one_out.h):
//   CSV observation,label,judged_probability,latent_mean,latent_variance; the verdict as one JSON line
//   on stderr: {"observations":O,"positives":..,"negatives":..,"auroc":..,"auroc_standard_error":..,
//   "log_loss":..,"log_loss_standard_error":..,"confidence":0.99,"auroc_lower":..,"auroc_upper":..,
//   "auroc_delong_lower":..,"auroc_delong_upper":..,"log_loss_lower":..,"log_loss_upper":..,
//   "verdict":"separates"|"chance"|"too_few"} (null where undefined; the intervals are the ones the verdict
//   judges at confidence: auroc_ the honest one, delong_ DeLong's alone, log_loss_ value -/+ z se;
//   leave_one_out.h).
#include <cmath>
#include <ostream>
#include <sstream>

#include "gpprobe/probe/leave_one_out.h"
#include "gpprobe/probe/probe_file.h"

#include "arguments.h"
#include "commands.h"
#include "csv_output.h"
#include "readers/file_messages.h"
#include "readers/loaded_matrix.h"

namespace gpprobe::cli {

namespace {

std::string json_number(double v) { return std::isfinite(v) ? format_number(v) : "null"; }

std::string summary(const LeaveOneOut& r) {
  std::ostringstream os;
  os << "{\"observations\":" << r.judged_probability.size() << ",\"positives\":" << r.positives
     << ",\"negatives\":" << r.negatives << ",\"auroc\":" << json_number(r.auroc)
     << ",\"auroc_standard_error\":" << json_number(r.auroc_standard_error)
     << ",\"log_loss\":" << json_number(r.log_loss)
     << ",\"log_loss_standard_error\":" << json_number(r.log_loss_standard_error)
     << ",\"confidence\":" << json_number(r.confidence) << ",\"auroc_lower\":" << json_number(r.auroc_interval.lower)
     << ",\"auroc_upper\":" << json_number(r.auroc_interval.upper)
     << ",\"auroc_delong_lower\":" << json_number(r.auroc_normal_interval.lower)
     << ",\"auroc_delong_upper\":" << json_number(r.auroc_normal_interval.upper)
     << ",\"log_loss_lower\":" << json_number(r.log_loss_interval.lower)
     << ",\"log_loss_upper\":" << json_number(r.log_loss_interval.upper) << ",\"verdict\":\"" << verdict_name(r.verdict)
     << "\"}";
  return os.str();
}

struct LooInputs {
  LoadedMatrix observations;
  std::vector<std::uint8_t> labels;
  ProbeOptions options;
  std::vector<std::pair<std::string, std::string>> files;  // (message prefix, file)
};

Result<LooInputs> inputs(const Arguments& args) {
  LooInputs in;
  if (args.has("probe")) {
    for (const char* flag : {"observations", "labels", "epsilon", "strength"}) {
      if (args.has(flag)) {
        return Status(StatusCode::invalid_argument,
                      std::string("--probe holds the observations, labels, epsilon and strength; remove --") + flag);
      }
    }
    const std::string path = args.get("probe", "");
    Result<ProbeFile> file = read_probe_file(path);
    if (!file.ok()) return file.status();
    in.options = file.value().options;
    in.observations = std::move(file.value().observations);
    in.labels = std::move(file.value().labels);
    in.files = {{"observations", path}, {"labels", path}, {"label ", path}};
    return in;
  }
  Result<std::string> observations = args.required("observations");
  if (!observations.ok()) return observations.status();
  Result<std::string> labels = args.required("labels");
  if (!labels.ok()) return labels.status();
  for (auto [flag, value] : {std::pair{"epsilon", &in.options.epsilon}, std::pair{"strength", &in.options.strength}}) {
    Result<double> v = args.number(flag, *value);
    if (!v.ok()) return v.status();
    *value = v.value();
  }
  Result<LoadedMatrix> x = read_matrix(observations.value());
  if (!x.ok()) return x.status();
  Result<std::vector<std::uint8_t>> y = read_labels(labels.value());
  if (!y.ok()) return y.status();
  if (y.value().size() != x.value().rows) {
    return Status(StatusCode::dimension_mismatch, labels.value() + ": " + std::to_string(y.value().size()) +
                                                      " labels for " + std::to_string(x.value().rows) +
                                                      " observation rows in " + observations.value());
  }
  in.observations = std::move(x.value());
  in.labels = std::move(y.value());
  in.files = {{"observations", observations.value()}, {"labels", labels.value()}, {"label ", labels.value()}};
  return in;
}

Status run(const Args& raw, std::ostream& out, std::ostream& err) {
  Result<Arguments> parsed =
      Arguments::parse(raw, {"observations", "labels", "epsilon", "strength", "space", "out", "probe"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<PosteriorSpace> space = parse_space(args.get("space", "automatic"));
  if (!space.ok()) return Status(space.status().code(), "--" + space.status().message());
  Result<LooInputs> read = inputs(args);
  if (!read.ok()) return read.status();
  LooInputs& in = read.value();
  Result<Probe> probe = Probe::fit(in.observations.view(), in.labels.data(), in.labels.size(), in.options);
  if (!probe.ok()) return with_file_names(probe.status(), in.files);
  Result<LeaveOneOut> loo = leave_one_out(probe.value(), space.value());
  if (!loo.ok()) return loo.status();
  const LeaveOneOut& r = loo.value();

  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  os << "observation,label,judged_probability,latent_mean,latent_variance\n";
  for (std::size_t i = 0; i < r.judged_probability.size(); ++i) {
    os << i << ',' << int(in.labels[i]) << ',' << format_number(r.judged_probability[i]) << ','
       << format_number(r.latent_mean[i]) << ',' << format_number(r.latent_variance[i]) << '\n';
  }
  GPPROBE_RETURN_IF_ERROR(csv.finish());
  err << summary(r) << '\n';
  return Status::success();
}

}  // namespace

int loo_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("loo", run(args, out, err), err);
}

}  // namespace gpprobe::cli
