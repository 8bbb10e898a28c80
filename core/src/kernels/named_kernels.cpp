#include "gpprobe/kernels/named_kernels.h"

namespace gpprobe {

const std::vector<NamedKernel>& named_kernels() {
  static const std::vector<NamedKernel> kernels = [] {
    const Kernel variance = Kernel::constant(1.0);
    return std::vector<NamedKernel>{
        {"rbf", "RBF (squared exponential)", variance * Kernel::rbf({1.0})},
        {"matern12", "Matérn 1/2", variance * Kernel::matern12({1.0})},
        {"matern32", "Matérn 3/2", variance * Kernel::matern32({1.0})},
        {"matern52", "Matérn 5/2", variance * Kernel::matern52({1.0})},
        {"periodic", "Periodic", variance * Kernel::periodic(1.0, 1.0)},
        {"locally-periodic", "Locally periodic (periodic × RBF)", variance * Kernel::locally_periodic(1.0, 1.0, 10.0)},
        {"linear", "Linear", variance * Kernel::linear(1.0)},
        {"cosine", "Cosine (the probe's kernel)", variance * Kernel::cosine()},
    };
  }();
  return kernels;
}

Result<Kernel> named_kernel(const std::string& name) {
  std::string names;
  const std::vector<NamedKernel>& all = named_kernels();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].name == name) return all[i].kernel;
    names += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i].name;
  }
  return Status(StatusCode::invalid_argument, "kernel must be " + names + ", got '" + name + "'");
}

}  // namespace gpprobe
