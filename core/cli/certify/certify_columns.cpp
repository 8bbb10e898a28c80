#include "certify/certify_columns.h"

#include "csv_output.h"

namespace gpprobe::cli {

const std::set<std::string>& certify_flags() {
  static const std::set<std::string> flags = {"certify-gamma", "norm", "certify-dims", "tolerance", "max-iterations"};
  return flags;
}

Result<std::optional<CertifyOptions>> certify_options(const Arguments& args) {
  if (!args.has("certify-gamma")) {
    for (const std::string& flag : certify_flags())
      if (args.has(flag)) return Status(StatusCode::invalid_argument, "--" + flag + " needs --certify-gamma");
    return std::optional<CertifyOptions>();
  }
  CertifyOptions options;
  Result<double> gamma = args.number("certify-gamma", 0.0);
  if (!gamma.ok()) return gamma.status();
  if (gamma.value() < 0.0) {
    return Status(StatusCode::invalid_argument, "--certify-gamma must be >= 0, got " + format_number(gamma.value()));
  }
  options.gamma = gamma.value();
  const std::string norm = args.get("norm", "inf");
  Result<QueryNorm> parsed = parse_norm(norm);
  if (!parsed.ok()) {
    return Status(StatusCode::invalid_argument, "--norm expects " + names_of(kQueryNormNames) + ", got '" + norm + "'");
  }
  options.norm = parsed.value();
  if (args.has("certify-dims")) {
    Result<std::vector<std::size_t>> dims = args.indices("certify-dims", "");
    if (!dims.ok()) return dims.status();
    options.dims = dims.value();
    options.search = true;
  } else {
    for (const char* flag : {"tolerance", "max-iterations"})
      if (args.has(flag)) {
        return Status(
            StatusCode::invalid_argument,
            std::string("--") + flag + " needs --certify-dims: branch and bound runs over chosen coordinates");
      }
  }
  Result<double> tolerance = args.number("tolerance", 0.01);
  if (!tolerance.ok()) return tolerance.status();
  if (tolerance.value() < 0.0) {
    return Status(StatusCode::invalid_argument, "--tolerance must be >= 0, got " + format_number(tolerance.value()));
  }
  options.tolerance = tolerance.value();
  Result<long long> iterations = args.integer("max-iterations", 10000);
  if (!iterations.ok()) return iterations.status();
  options.max_iterations = std::size_t(iterations.value());
  return std::optional<CertifyOptions>(options);
}

Status name_certify_flag(const Status& status) {
  if (status.message().rfind("coordinate ", 0) == 0)
    return Status(status.code(), "--certify-dims: " + status.message());
  return status;
}

std::string certify_header() {
  return ",judged_probability_lower,judged_probability_lowest_found,judged_probability_highest_found,"
         "judged_probability_upper,latent_mean_lower,latent_mean_upper,latent_variance_lower,latent_variance_upper,"
         "episteme_lower,episteme_upper,verdict_can_flip,certify_status,certify_iterations";
}

void write_certificate(std::ostream& os, const ProbeCertificate& c) {
  for (double v :
       {c.judged_probability_bounds.lower, c.lowest_found, c.highest_found, c.judged_probability_bounds.upper,
        c.latent_mean.lower, c.latent_mean.upper, c.latent_variance.lower, c.latent_variance.upper}) {
    os << ',' << format_number(v);
  }
  // The episteme is unbounded above where the variance may reach 0 (measure_bounds.h).
  os << ',' << format_bound(c.episteme.lower) << ',' << format_bound(c.episteme.upper);
  os << ',' << verdict_flip_name(c.verdict_can_flip) << ','
     << (c.status ? search_status_name(*c.status) : "bounds_only") << ',' << c.iterations;
}

}  // namespace gpprobe::cli
