#include "certify/robustness_json.h"

#include <sstream>

#include "classification/gpc_model_flags.h"
#include "csv_output.h"

namespace gpprobe::cli {

namespace {

std::string interval(Interval i) { return json_array({i.lower, i.upper}); }

std::string extreme(const ProbabilityExtreme& x) {
  std::ostringstream os;
  os << "{\"lower\":" << format_number(x.lower) << ",\"upper\":" << format_number(x.upper)
     << ",\"witness\":" << json_array(x.witness) << ",\"iterations\":" << x.iterations << ",\"status\":\""
     << search_status_name(x.status) << "\"}";
  return os.str();
}

}  // namespace

std::string certificate_fields(double gamma, const RobustnessCertificate& c) {
  std::ostringstream os;
  os << "\"gamma\":" << format_number(gamma) << ",\"probability_at_point\":" << format_number(c.probability_at_point)
     << ",\"box\":{\"lower\":" << json_array(c.lower) << ",\"upper\":" << json_array(c.upper) << "}"
     << ",\"root\":{\"mean\":" << interval(c.mean) << ",\"variance\":" << interval(c.variance)
     << ",\"probability\":" << interval(c.probability) << "}"
     << ",\"minimum\":" << extreme(c.minimum) << ",\"maximum\":" << extreme(c.maximum)
     << ",\"gpfgs\":{\"point\":" << json_array(c.gpfgs.point)
     << ",\"probability\":" << format_number(c.gpfgs.probability) << "}"
     << ",\"verdict_can_flip\":\"" << verdict_flip_name(c.verdict_can_flip) << "\"";
  return os.str();
}

}  // namespace gpprobe::cli
