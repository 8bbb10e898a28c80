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
// "kernel expression 'rbf(0.5' at character 8: expected ')'".
#pragma once

#include <string>

#include "gpprobe/kernel.h"
#include "gpprobe/kernel_parameters.h"
#include "gpprobe/status.h"

namespace gpprobe {

Result<Kernel> parse_kernel(const std::string& text);

}  // namespace gpprobe
