// Four doubles as one value, for the hot loops of the certified bounds: the GCC/Clang vector extension,
// which the native build maps to AVX (or SSE) registers and the wasm build (-msimd128) to two f64x2
// registers. Loops over lanes keep every accumulator in a register without the reassociation flags
// (-ffast-math) that auto-vectorised reductions would need. Private to core/src.
#pragma once

#include <cstddef>
#include <cstring>

#include "linalg/fused.h"

namespace gpprobe {

typedef double Lanes __attribute__((vector_size(32)));
typedef long long LaneMask __attribute__((vector_size(32)));

constexpr std::size_t kLaneCount = 4;

inline Lanes load(const double* p) {
  Lanes v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store(double* p, Lanes v) { std::memcpy(p, &v, sizeof v); }

inline Lanes splat(double x) { return Lanes{x, x, x, x}; }

inline double sum(Lanes v) { return (v[0] + v[1]) + (v[2] + v[3]); }

// a * b + c lane by lane (fused.h): two f64x2 fused multiply-adds in the relaxed wasm build.
inline Lanes madd(Lanes a, Lanes b, Lanes c) {
#if defined(GPPROBE_RELAXED_SIMD)
  const Double2 low = madd((Double2)__builtin_shufflevector(a, a, 0, 1), (Double2)__builtin_shufflevector(b, b, 0, 1),
                           (Double2)__builtin_shufflevector(c, c, 0, 1));
  const Double2 high = madd((Double2)__builtin_shufflevector(a, a, 2, 3), (Double2)__builtin_shufflevector(b, b, 2, 3),
                            (Double2)__builtin_shufflevector(c, c, 2, 3));
  return (Lanes)__builtin_shufflevector(low, high, 0, 1, 2, 3);
#else
  return a * b + c;
#endif
}

// Lane by lane: `yes` where the mask is set, else 0.
inline Lanes keep(LaneMask mask, Lanes yes) { return (Lanes)(mask & (LaneMask)yes); }

// max(v, 0) lane by lane.
inline Lanes positive_part(Lanes v) { return keep(v > splat(0.0), v); }

// a . b over n values: four lanes at a time in two accumulators, the last n mod 4 values one by one.
inline double lanes_dot(const double* a, const double* b, std::size_t n) {
  Lanes even = splat(0.0), odd = splat(0.0);
  std::size_t i = 0;
  for (; i + 2 * kLaneCount <= n; i += 2 * kLaneCount) {
    even = madd(load(a + i), load(b + i), even);
    odd = madd(load(a + i + kLaneCount), load(b + i + kLaneCount), odd);
  }
  if (i + kLaneCount <= n) {
    even = madd(load(a + i), load(b + i), even);
    i += kLaneCount;
  }
  double s = sum(even + odd);
  for (; i < n; ++i) s += a[i] * b[i];
  return s;
}

// y += alpha x over n values.
inline void lanes_axpy(double alpha, const double* x, double* y, std::size_t n) {
  const Lanes a = splat(alpha);
  std::size_t i = 0;
  for (; i + kLaneCount <= n; i += kLaneCount) store(y + i, madd(a, load(x + i), load(y + i)));
  for (; i < n; ++i) y[i] += alpha * x[i];
}

}  // namespace gpprobe
