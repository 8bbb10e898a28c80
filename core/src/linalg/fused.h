// a * b + c on SIMD vectors, in one fused instruction where the wasm module is built for relaxed SIMD
// (GPPROBE_RELAXED_SIMD with -mrelaxed-simd: f64x2/f32x4.relaxed_madd, an FMA on x86 with FMA3 and on
// ARM; the engine may also round the product first, so no result may depend on which). Elsewhere the
// product and the sum round separately, as before. The hot loops' products, dot products and polynomials
// use it: on x86 an FMA retires in one port-slot where a multiply and an add take two. Private to core/src.
#pragma once

#if defined(GPPROBE_RELAXED_SIMD)
#include <wasm_simd128.h>
// clang 14 (Debian's Emscripten 3.1.6) names the relaxed multiply-add after the proposal's prototype and
// emits its prototype opcode (scripts/make/relaxed_opcodes.mjs renumbers it after linking); clang 16 and later
// name it relaxed_madd and emit the shipped opcode, which the script then leaves as it is.
#if __has_builtin(__builtin_wasm_relaxed_madd_f64x2)
#define GPPROBE_MADD_F64X2 __builtin_wasm_relaxed_madd_f64x2
#define GPPROBE_MADD_F32X4 __builtin_wasm_relaxed_madd_f32x4
#else
#define GPPROBE_MADD_F64X2 __builtin_wasm_fma_f64x2
#define GPPROBE_MADD_F32X4 __builtin_wasm_fma_f32x4
#endif
#endif

namespace gpprobe {

typedef double Double2 __attribute__((vector_size(16)));
typedef float Float4 __attribute__((vector_size(16)));

// Whether madd fuses where the engine can (the relaxed build): tests and the benchmark report it.
#if defined(GPPROBE_RELAXED_SIMD)
constexpr bool kFusedMultiplyAdd = true;
#else
constexpr bool kFusedMultiplyAdd = false;
#endif

inline Double2 madd(Double2 a, Double2 b, Double2 c) {
#if defined(GPPROBE_RELAXED_SIMD)
  return (Double2)GPPROBE_MADD_F64X2((__f64x2)a, (__f64x2)b, (__f64x2)c);
#else
  return a * b + c;
#endif
}

inline Float4 madd(Float4 a, Float4 b, Float4 c) {
#if defined(GPPROBE_RELAXED_SIMD)
  return (Float4)GPPROBE_MADD_F32X4((__f32x4)a, (__f32x4)b, (__f32x4)c);
#else
  return a * b + c;
#endif
}

}  // namespace gpprobe
