// The engine's loader in the one-file page (scripts/make/build_single.mjs puts it in place of
// engine/load_module.ts): the single-threaded module only, its .wasm inlined into the worker's script
// (zlib-compressed, base64), so nothing is fetched. Where the engine validates relaxed SIMD and the
// relaxed twin was inlined, that twin runs, as in the app; else the plain SIMD twin.
import createGpprobeModule, { type GpprobeModule } from '../engine/generated/gpprobe.mjs';
import { relaxedWasm, simd128Wasm } from 'virtual:gpprobe-inline-wasm';
import { relaxedSimdSupported } from '../engine/relaxed_simd.ts';

export type SimdBuild = 'relaxed' | 'simd128';

export { relaxedSimdSupported };

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
