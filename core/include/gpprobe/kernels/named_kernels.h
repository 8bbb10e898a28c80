// The kernels the CLI (`gpr --kernel NAME`) and the app's regression lab offer by name, each a signal
// variance times a base kernel, at these starting values:
//
//   rbf               constant(1) * rbf(1)                    RBF (squared exponential)
//   matern12          constant(1) * matern12(1)               Matérn 1/2
//   matern32          constant(1) * matern32(1)               Matérn 3/2
//   matern52          constant(1) * matern52(1)               Matérn 5/2
//   periodic          constant(1) * periodic(1, 1)            Periodic
//   locally-periodic  constant(1) * periodic(1, 1) * rbf(10)  Locally periodic (periodic × RBF)
//   linear            constant(1) * linear(1)                 Linear
//   cosine            constant(1) * cosine()                  Cosine (the probe's kernel)
//
// A named kernel's settable values are its Kernel::parameters() (names and starting values): the app
// builds its fields from this list and a caller sets them by name (kernel_parameters.h), so no face
// keeps its own copy of the names. A regression also has an observation noise variance, named
// kNoiseVariance wherever parameters are named (held while fitting, reported after).
#pragma once

#include <string>
#include <vector>

#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"

namespace gpprobe {

struct NamedKernel {
  std::string name;   // "rbf", "locally-periodic", ...
  std::string title;  // for people: "Locally periodic (periodic × RBF)"
  Kernel kernel;      // at its starting values
};

// In menu order.
const std::vector<NamedKernel>& named_kernels();

// The kernel called `name` at its starting values; invalid_argument "kernel must be rbf, matern12, ...,
// got 'x'" otherwise.
Result<Kernel> named_kernel(const std::string& name);

// The name of the observation noise variance among parameter names, and where a regression starts it.
inline constexpr char kNoiseVariance[] = "noise_variance";
inline constexpr double kDefaultNoiseVariance = 0.1;

}  // namespace gpprobe
