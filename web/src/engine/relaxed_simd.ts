// Whether this engine runs relaxed SIMD: the probe every loader asks (engine/load_module.ts for the app
// and library, single/load_module_single.ts for the one-file page) before it picks a relaxed twin.

// The smallest module that uses f64x2.relaxed_madd (0xfd 0x87 0x02) in its shipped encoding:
// (func (param v128 v128 v128) (result v128) local.get 0 local.get 1 local.get 2 f64x2.relaxed_madd).
const RELAXED_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x01, 0x60, 0x03, 0x7b, 0x7b, 0x7b, 0x01, 0x7b, 0x03,
  0x02, 0x01, 0x00, 0x0a, 0x0d, 0x01, 0x0b, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0xfd, 0x87, 0x02, 0x0b,
]);

/** True where this engine runs relaxed SIMD (and so the relaxed twins). */
export function relaxedSimdSupported(): boolean {
  try {
    return WebAssembly.validate(RELAXED_PROBE);
  } catch {
    return false;
  }
}
