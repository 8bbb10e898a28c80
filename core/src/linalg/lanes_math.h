// exp and log1p on four lanes (lanes.h) for the probe's quadrature, accurate to a few ulps without a
// call per value: the wasm build has no vector libm, and its scalar exp/log1p cost ~20 ns each.
//
//   exp_nonpositive(x)  e^x for x <= 0: x = k ln2 + r, |r| <= ln2/2, a degree-13 Taylor polynomial of
//                       e^r (error < 3e-17) times 2^k built in the exponent bits; x < -708 gives 0
//                       (libm's denormals below e^-708 ~ 3e-308 are flushed, as no sum can tell)
//   log1p_unit(e)       log(1 + e) for 0 <= e <= 1 as 2 atanh(s), s = e / (2 + e) <= 1/3: the odd
//                       series 2 (s + s^3/3 + ... + s^35/35), truncation < 2e-18 relative
// Private to core/src.
#pragma once

#include "linalg/lanes.h"

namespace gpprobe {

inline Lanes exp_nonpositive(Lanes x) {
  constexpr double kLog2e = 1.4426950408889634;
  constexpr double kLn2Hi = 0.6931471803691238, kLn2Lo = 1.9082149292705877e-10;
  constexpr double kRound = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to an integer
  const Lanes floor_x = splat(-708.0);
  const LaneMask in_range = x >= floor_x;
  x = keep(in_range, x) + keep(~in_range, floor_x);
  const Lanes shifted = x * splat(kLog2e) + splat(kRound);
  const Lanes k = shifted - splat(kRound);
  const Lanes r = (x - k * splat(kLn2Hi)) - k * splat(kLn2Lo);
  Lanes p = splat(1.0 / 6227020800.0);  // 1/13!
  constexpr double kInverseFactorials[] = {1.0 / 479001600.0,
                                           1.0 / 39916800.0,
                                           1.0 / 3628800.0,
                                           1.0 / 362880.0,
                                           1.0 / 40320.0,
                                           1.0 / 5040.0,
                                           1.0 / 720.0,
                                           1.0 / 120.0,
                                           1.0 / 24.0,
                                           1.0 / 6.0,
                                           0.5,
                                           1.0,
                                           1.0};
  for (double c : kInverseFactorials) p = madd(p, r, splat(c));
  // 2^k: k + 1023 in the exponent field. The low bits of `shifted` hold k as a two's-complement integer.
  const LaneMask integer_k = (LaneMask)shifted - (LaneMask)splat(kRound);
  const LaneMask bits = (integer_k + 1023) << 52;
  return keep(in_range, p * (Lanes)bits);
}

inline Lanes log1p_unit(Lanes e) {
  const Lanes s = e / (splat(2.0) + e);
  const Lanes z = s * s;
  Lanes p = splat(1.0 / 35.0);
  for (int n = 33; n >= 1; n -= 2) p = madd(p, z, splat(1.0 / n));
  return splat(2.0) * s * p;
}

}  // namespace gpprobe
