// A fitted GP regression as the other faces show it: its kernel as a value (the form it was given in and
// every parameter's value), the kernel as text for reading, the noise variance, the prior mean, the log
// marginal likelihood and the training data's size.
#pragma once

#include <cstddef>
#include <string>

#include "gpprobe/common/fields.h"
#include "gpprobe/kernels/kernel_parameters.h"
#include "gpprobe/regression/gp_regression.h"

namespace gpprobe {

struct RegressionState {
  KernelValues kernel;      // the form `kernel_name` given to the fit, at the fitted values
  std::string description;  // Kernel::describe(), for reading only
  double noise_variance = 0.0, mean = 0.0, log_marginal_likelihood = 0.0;
  std::size_t size = 0, dimension = 0;  // training rows and columns
};
GPPROBE_DESCRIBE(RegressionState, "RegressionStateValue", GPPROBE_FIELD(kernel), GPPROBE_FIELD(description),
                 GPPROBE_FIELD(noise_variance), GPPROBE_FIELD(mean), GPPROBE_FIELD(log_marginal_likelihood),
                 GPPROBE_FIELD(size), GPPROBE_FIELD(dimension));

// `kernel_name`: the form the kernel was given in (a named kernel or a kernel expression).
inline RegressionState regression_state(const GpRegression& gp, const std::string& kernel_name) {
  return {kernel_values(kernel_name, gp.kernel()),
          gp.kernel().describe(),
          gp.noise_variance(),
          gp.mean(),
          gp.log_marginal_likelihood(),
          gp.size(),
          gp.dimension()};
}

}  // namespace gpprobe
