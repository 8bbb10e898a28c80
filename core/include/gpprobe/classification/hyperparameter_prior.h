// Hyperparameter priors for MAP fits (as GPstuff, GPflow and GPyTorch offer them): a density on
// u = log theta of a positive hyperparameter theta (a signal variance, a length-scale), added to the log
// marginal likelihood so that the fits (classification/hyperparameter_fit.h,
// multiclass_hyperparameter_fit.h, regression/hyperparameter_fit.h) maximise log q(theta) + sum log p(u).
//
//   none       p(u) = 1 (type-II maximum likelihood, the default)
//   lognormal  u ~ N(mu, sigma^2): theta is log-normal. log p = -log(2 pi)/2 - log sigma - z^2 / 2,
//              z = (u - mu) / sigma; d log p / du = -z / sigma
//   student_t  u ~ mu + sigma t_nu: log p = lgamma((nu+1)/2) - lgamma(nu/2) - log(nu pi)/2 - log sigma
//              - (nu+1)/2 log(1 + z^2/nu); d log p / du = -(nu+1) z / (sigma (nu + z^2))
//
// The density is on u, the coordinate the fits move in (GPflow's and GPstuff's priors on a positive
// parameter include the Jacobian of theta = exp(u), which makes them this density on u). A prior pulls a
// length-scale that the data give no gradient to (a feature constant in training) towards exp(mu)
// instead of leaving it at its start.
#pragma once

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "gpprobe/common/status.h"

namespace gpprobe {

inline constexpr double kPriorPi = 3.14159265358979323846;

enum class PriorFamily { none, lognormal, student_t };

struct LogPrior {
  PriorFamily family = PriorFamily::none;
  double mu = 0.0, sigma = 1.0;  // location and scale of u = log theta
  double nu = 4.0;               // student_t's degrees of freedom

  // invalid_argument naming `what` ("the length-scale prior", "--length-scale-prior") unless mu is finite,
  // sigma finite and > 0, nu finite and > 0.
  Status check(const std::string& what) const {
    if (family == PriorFamily::none) return Status::success();
    const auto text = [](double v) {
      std::ostringstream os;
      os << v;
      return os.str();
    };
    if (!std::isfinite(mu) || !std::isfinite(sigma) || !(sigma > 0.0)) {
      return Status(StatusCode::invalid_argument,
                    what + " needs a finite mu and a finite sigma > 0, got mu " + text(mu) + ", sigma " + text(sigma));
    }
    if (family == PriorFamily::student_t && (!std::isfinite(nu) || !(nu > 0.0))) {
      return Status(StatusCode::invalid_argument, what + " needs finite degrees of freedom nu > 0, got " + text(nu));
    }
    return Status::success();
  }

  // log p(u), and d log p / du into *derivative (when not null).
  double log_density(double u, double* derivative = nullptr) const {
    if (family == PriorFamily::none) {
      if (derivative) *derivative = 0.0;
      return 0.0;
    }
    const double z = (u - mu) / sigma;
    if (family == PriorFamily::lognormal) {
      if (derivative) *derivative = -z / sigma;
      return -0.5 * std::log(2.0 * kPriorPi) - std::log(sigma) - 0.5 * z * z;
    }
    if (derivative) *derivative = -(nu + 1.0) * z / (sigma * (nu + z * z));
    return std::lgamma(0.5 * (nu + 1.0)) - std::lgamma(0.5 * nu) - 0.5 * std::log(nu * kPriorPi) - std::log(sigma) -
           0.5 * (nu + 1.0) * std::log1p(z * z / nu);
  }
};

// The priors of an SE-ARD kernel's hyperparameters: one on log s2, one on each log l_j (the same for all).
struct HyperparameterPrior {
  LogPrior signal_variance, length_scale;
  bool empty() const { return signal_variance.family == PriorFamily::none && length_scale.family == PriorFamily::none; }
  Status check() const {
    GPPROBE_RETURN_IF_ERROR(signal_variance.check("the signal variance prior"));
    return length_scale.check("the length-scale prior");
  }
};

// "none", "lognormal:MU,SIGMA" or "student-t:MU,SIGMA,NU" (the CLI's and the bindings' form); invalid_argument
// naming `what` and the expected forms otherwise.
inline Result<LogPrior> parse_log_prior(const std::string& text, const std::string& what) {
  LogPrior p;
  if (text == "none") return p;
  const std::size_t colon = text.find(':');
  const std::string family = text.substr(0, colon);
  std::vector<double> values;
  bool numbers = colon != std::string::npos;
  if (numbers) {
    std::size_t at = colon + 1;
    while (numbers) {
      const std::size_t comma = text.find(',', at);
      const std::string cell = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      char* end = nullptr;
      const double v = std::strtod(cell.c_str(), &end);
      numbers = !cell.empty() && end == cell.c_str() + cell.size() && std::isfinite(v);
      values.push_back(v);
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
  }
  const Status bad(StatusCode::invalid_argument, what + " must be none, lognormal:MU,SIGMA or student-t:MU,SIGMA,NU " +
                                                     "(on the log of the parameter), got '" + text + "'");
  if (!numbers) return bad;
  if (family == "lognormal" && values.size() == 2) {
    p.family = PriorFamily::lognormal;
  } else if (family == "student-t" && values.size() == 3) {
    p.family = PriorFamily::student_t;
    p.nu = values[2];
  } else {
    return bad;
  }
  p.mu = values[0];
  p.sigma = values[1];
  GPPROBE_RETURN_IF_ERROR(p.check(what));
  return p;
}

}  // namespace gpprobe
