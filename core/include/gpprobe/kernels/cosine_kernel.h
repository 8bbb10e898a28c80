// The probe's cosine kernel on the augmented vector [a; 1]:
//
//   k(a, b) = v (a'b + 1) / sqrt((|a|^2 + 1)(|b|^2 + 1)),   so k(a, a) = v exactly,
//
// and its weight-space form k(a, b) = psi(a)' psi(b) with psi(a) = sqrt(v) [a; 1] / sqrt(|a|^2 + 1).
// (The paper prints (|a| + 1) in the denominator; that is a typo, see docs/design/probe.md, "Corrections to the source".)
#pragma once

#include <cstddef>

#include "gpprobe/common/matrix_view.h"

namespace gpprobe {

class CosineKernel {
 public:
  explicit CosineKernel(double variance) : variance_(variance) {}

  double variance() const { return variance_; }

  // k(a, b) for two vectors of length d.
  double operator()(const double* a, const double* b, std::size_t d) const;

  // Features psi of rows [first, first + count) of `x` (n by d) into `psi` (count by d+1, row-major).
  void features(const MatrixView& x, std::size_t first, std::size_t count, double* psi) const;

  // Features of every row: n by d+1.
  RowMatrix features(const MatrixView& x) const;

 private:
  double variance_;
};

}  // namespace gpprobe
