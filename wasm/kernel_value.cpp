// Kernels across the boundary as values (binding_support.h KernelValue): built from a named kernel or
// an expression and parameter values by name, read back as every parameter's name and double. The
// vocabulary binding (the named kernels, the examples' models) and the regression bindings use them.
#include "gpprobe/kernels/kernel_expression.h"
#include "gpprobe/kernels/kernel_parameters.h"
#include "gpprobe/kernels/named_kernels.h"

#include "binding_support.h"

namespace gpprobe::wasm {

Result<Kernel> kernel_of(const KernelValue& value) {
  Result<Kernel> form = named_kernel(value.name);
  if (!form.ok() && value.name.find('(') != std::string::npos) form = parse_kernel(value.name);
  if (!form.ok()) return form.status();
  return set_parameters(form.value(), strings_of(value.parameters),
                        emscripten::convertJSArrayToNumberVector<double>(value.values));
}

KernelValue kernel_value(const std::string& name, const Kernel& kernel) {
  std::vector<std::string> names;
  std::vector<double> values;
  for (const KernelParameter& p : kernel.parameters()) {
    names.push_back(p.name);
    values.push_back(p.value);
  }
  return {name, array_of(names), copy_out(values)};
}

}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_kernel_value) {
  using gpprobe::wasm::KernelValue;
  emscripten::value_object<KernelValue>("KernelValue")
      .field("name", &KernelValue::name)
      .field("parameters", &KernelValue::parameters)
      .field("values", &KernelValue::values);
}
