// The engine's loader in the one-file page (scripts/make/build_single.mjs puts it in place of
// engine/load_module.ts): the single-threaded module only, its .wasm inlined into the worker's script
// (zlib-compressed, base64), so nothing is fetched. Where the engine validates relaxed SIMD and the
// relaxed twin was inlined, that twin runs, as in the app; else the plain SIMD twin.
import createGpprobeModule, { type GpprobeModule } from '../engine/generated/gpprobe.mjs';
import { relaxedWasm, simd128Wasm } from 'virtual:gpprobe-inline-wasm';

export type SimdBuild = 'relaxed' | 'simd128';

// The same probe module as engine/load_module.ts: f64x2.relaxed_madd in its shipped encoding.
const RELAXED_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x01, 0x60, 0x03, 0x7b, 0x7b, 0x7b, 0x01, 0x7b, 0x03,
  0x02, 0x01, 0x00, 0x0a, 0x0d, 0x01, 0x0b, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0xfd, 0x87, 0x02, 0x0b,
]);

export function relaxedSimdSupported(): boolean {
  try {
    return WebAssembly.validate(RELAXED_PROBE);
  } catch {
    return false;
  }
}

export const MAX_DEFAULT_THREADS = 1;

export interface LoadOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  wasmUrl?: string | URL;
  threads?: number;
  simd?: SimdBuild;
}

/** Never: the one-file page runs one thread (threads need the hosted app, cross-origin isolated). */
export function threadsAllowed(): boolean {
  return false;
}

export function chosenThreads(): number {
  return 1;
}

async function inflate(base64: string): Promise<Uint8Array> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function loadModule(options: LoadOptions = {}): Promise<GpprobeModule> {
  const relaxed = relaxedWasm !== null && options.simd !== 'simd128' && relaxedSimdSupported();
  const wasmBinary = options.wasmBinary ?? (await inflate(relaxed ? relaxedWasm! : simd128Wasm));
  // No file is located: the bytes are given (locateFile is asked only for a name it will not fetch).
  return createGpprobeModule({ wasmBinary, locateFile: (path: string) => path });
}
