// Kernels written as text, the form Kernel::describe() prints and the TS API and the app send:
//
//   expression := term ('+' term)*        term := factor ('*' factor)*
//   factor     := name '(' [number (',' number)*] ')' | '(' expression ')'
//   names      constant(c)  rbf(l...)  matern12(l...)  matern32(l...)  matern52(l...)  periodic(l, p)
//              locally_periodic(l, p, m)  linear(offset)  cosine()      (several l: ARD)
//
// e.g. "constant(1.3) * rbf(0.7) + constant(0.5) * periodic(1, 2)". Errors say where:
// "kernel expression 'rbf(0.5' at character 8: expected ')'" (a text over 80 characters is named by its
// length). Limits, so that no text can exhaust the stack: kMaxKernelExpressionLength characters,
// parentheses nested kMaxKernelNesting deep, kMaxKernelTerms kernels in all. describe() brackets every
// sum, so a sum of 256 kernels prints 255 levels: the nesting limit lets every kernel within the other
// limits round-trip through its text.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpprobe/kernel.h"
#include "gpprobe/status.h"

namespace gpprobe {

constexpr std::size_t kMaxKernelExpressionLength = 65536;
constexpr std::size_t kMaxKernelNesting = 256;
constexpr std::size_t kMaxKernelTerms = 256;

Result<Kernel> parse_kernel(const std::string& text);

// The kernel with each named parameter (KernelParameter::name) fixed at its value (lower = upper);
// invalid_argument naming an unknown parameter and listing the known ones.
Result<Kernel> fix_parameters(const Kernel& kernel, const std::vector<std::string>& names);

}  // namespace gpprobe
