// The certified columns of `gpprobe probe`: its flags
//
//   --certify-gamma G [--norm inf|2] [--certify-dims i,j,...] [--tolerance E] [--max-iterations N]
//
// read into CertifyOptions (branch and bound runs when --certify-dims is given), and per query
//
//   judged_probability_lower, judged_probability_lowest_found, judged_probability_highest_found,
//   judged_probability_upper, latent_mean_lower, latent_mean_upper, latent_variance_lower,
//   latent_variance_upper, episteme_lower, episteme_upper, verdict_can_flip, certify_status,
//   certify_iterations
//
// (certify_status: a branch-and-bound stop reason, or bounds_only without --certify-dims).
#pragma once

#include <optional>
#include <ostream>
#include <set>
#include <string>

#include "gpprobe/certify/probe_certificate.h"
#include "gpprobe/common/status.h"

#include "arguments.h"

namespace gpprobe::cli {

// The flags above, for Arguments::parse.
const std::set<std::string>& certify_flags();

// nullopt without --certify-gamma; invalid_argument naming the flag for a bad value, or for a
// certify flag given without --certify-gamma (or --tolerance / --max-iterations without dims).
gpprobe::Result<std::optional<CertifyOptions>> certify_options(const Arguments& args);

// "--certify-dims: coordinate 9 is ..." for the core's messages about coordinates.
gpprobe::Status name_certify_flag(const gpprobe::Status& status);

// ",judged_probability_lower,..." (leading comma) and one row's fields likewise.
std::string certify_header();
void write_certificate(std::ostream& os, const ProbeCertificate& certificate);

}  // namespace gpprobe::cli
