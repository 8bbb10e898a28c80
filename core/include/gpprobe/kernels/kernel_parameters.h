// Kernel parameters by name: the names of Kernel::parameters() ("constant.value", "rbf.length_scale",
// "periodic.period", "linear.offset", "rbf.length_scale[1]" for ARD) are how every face sets and holds
// them, so a value typed in the app or given on the command line reaches the kernel bit for bit and
// under one name, and a learned value is read back the same way.
//
//   set_parameters(k, names, values)  k with each named parameter set to its value (the double as given)
//   fix_parameters(k, names)          k with each named parameter held at its value (lower = upper)
//
// A name the kernel does not have is invalid_argument naming it and listing the kernel's:
// "the kernel has no parameter 'variance' (it has: constant.value, rbf.length_scale)".
#pragma once

#include <string>
#include <vector>

#include "gpprobe/common/fields.h"
#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"

namespace gpprobe {

// names.size() == values.size(); names may be any subset of the kernel's, in any order.
Result<Kernel> set_parameters(const Kernel& kernel, const std::vector<std::string>& names,
                              const std::vector<double>& values);

Result<Kernel> fix_parameters(const Kernel& kernel, const std::vector<std::string>& names);

// A kernel as the other faces show it: its form `name` (a named kernel, named_kernels.h, or a kernel
// expression) and every parameter's name and value.
struct KernelValues {
  std::string name;
  std::vector<std::string> parameters;
  std::vector<double> values;
};
GPPROBE_DESCRIBE(KernelValues, "KernelValue", GPPROBE_FIELD(name), GPPROBE_FIELD(parameters), GPPROBE_FIELD(values));

inline KernelValues kernel_values(const std::string& name, const Kernel& kernel) {
  KernelValues out{name, {}, {}};
  for (const KernelParameter& p : kernel.parameters()) {
    out.parameters.push_back(p.name);
    out.values.push_back(p.value);
  }
  return out;
}

}  // namespace gpprobe
