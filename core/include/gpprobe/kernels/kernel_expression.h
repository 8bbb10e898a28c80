// Kernels written as text by people (the CLI's and the TS API's kernel expressions), in the form
// Kernel::describe() prints:
//
//   expression := term ('+' term)*        term := factor ('*' factor)*
//   factor     := name '(' [number (',' number)*] ')' | '(' expression ')'
//   names      constant(c)  rbf(l...)  matern12(l...)  matern32(l...)  matern52(l...)  periodic(l, p)
//              locally-periodic(l, p, m)  linear(offset)  cosine()      (several l: ARD)
//              (locally_periodic, the name before it matched the app's, is read too)
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

#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"
#include "gpprobe/kernels/kernel_parameters.h"

namespace gpprobe {

constexpr std::size_t kMaxKernelExpressionLength = 65536;
constexpr std::size_t kMaxKernelNesting = 256;
constexpr std::size_t kMaxKernelTerms = 256;

Result<Kernel> parse_kernel(const std::string& text);

}  // namespace gpprobe
