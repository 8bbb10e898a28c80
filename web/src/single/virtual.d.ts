// The modules scripts/make/build_single.mjs provides to the one-file page's bundle.
declare module 'virtual:gpprobe-inline-wasm' {
  /** The single-threaded module's .wasm, zlib-compressed, base64. */
  export const simd128Wasm: string;
  /** Its relaxed-SIMD twin, or null when the template was built without it. */
  export const relaxedWasm: string | null;
}
