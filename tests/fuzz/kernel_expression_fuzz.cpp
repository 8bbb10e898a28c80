// Kernel expressions as the TS API and the app send them: any text. A parsed kernel prints a text that
// parses back to the same kernel, and evaluates (with its gradient) without undefined behaviour.
#include "gpprobe/kernels/kernel_expression.h"

#include "fuzz_support.h"

using namespace gpprobe;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Result<Kernel> kernel = parse_kernel(text);
  if (!kernel.ok()) {
    fuzz::require(kernel.status().code() == StatusCode::invalid_argument, "parse errors are invalid_argument");
    fuzz::require(kernel.status().message().size() < 400, "messages stay short",
                  double(kernel.status().message().size()));
    return 0;
  }
  const Kernel& k = kernel.value();
  const std::string described = k.describe();
  Result<Kernel> again = parse_kernel(described);
  fuzz::require(again.ok(), "describe() parses back");
  fuzz::require(again.value().describe() == described, "describe() round-trips");
  fuzz::require(again.value().parameter_count() == k.parameter_count(), "the same parameters");
  // Evaluate where the kernel accepts the dimension (ARD vectors fix it).
  const double a[] = {0.3, -1.2, 2.0}, b[] = {1.1, 0.4, -0.7};
  std::vector<double> grad(k.parameter_count());
  for (std::size_t d = 1; d <= 3; ++d) {
    if (!k.check(d).ok()) continue;
    const double value = k.evaluate(a, b, d, grad.data());
    fuzz::require(value == k(a, b, d) || std::isnan(value), "evaluate() and operator() agree", value);
  }
  return 0;
}
