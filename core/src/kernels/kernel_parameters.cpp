#include "gpprobe/kernels/kernel_parameters.h"

namespace gpprobe {

namespace {

// The index of parameter `name` in theta order, or the status naming it and the known ones.
Result<std::size_t> index_of(const std::vector<KernelParameter>& ps, const std::string& name) {
  for (std::size_t p = 0; p < ps.size(); ++p)
    if (ps[p].name == name) return p;
  std::string known;
  for (const KernelParameter& q : ps) known += (known.empty() ? "" : ", ") + q.name;
  return Status(StatusCode::invalid_argument,
                "the kernel has no parameter '" + name + "' (it has: " + (known.empty() ? "none" : known) + ")");
}

}  // namespace

Result<Kernel> set_parameters(const Kernel& kernel, const std::vector<std::string>& names,
                              const std::vector<double>& values) {
  if (names.size() != values.size()) {
    return Status(StatusCode::dimension_mismatch,
                  "kernel parameters: " + count_of(names.size(), "name") + " but " + count_of(values.size(), "value"));
  }
  const std::vector<KernelParameter> ps = kernel.parameters();
  std::vector<double> next(ps.size());
  for (std::size_t p = 0; p < ps.size(); ++p) next[p] = ps[p].value;
  for (std::size_t i = 0; i < names.size(); ++i) {
    Result<std::size_t> p = index_of(ps, names[i]);
    if (!p.ok()) return p.status();
    next[p.value()] = values[i];
  }
  return kernel.with_values(next.data());
}

Result<Kernel> fix_parameters(const Kernel& kernel, const std::vector<std::string>& names) {
  Kernel out = kernel;
  const std::vector<KernelParameter> ps = kernel.parameters();
  for (const std::string& name : names) {
    Result<std::size_t> p = index_of(ps, name);
    if (!p.ok()) return p.status();
    out = out.with_bounds(p.value(), ps[p.value()].value, ps[p.value()].value);
  }
  return out;
}

}  // namespace gpprobe
