// Loads the Emscripten module the same way in the browser (Vite turns the URL into an asset) and in
// Node (we read the .wasm ourselves: the 3.1.6 ES module cannot locate files under Node).
import createGpprobeModule, { type GpprobeModule } from './generated/gpprobe.mjs';

const wasmUrl = new URL('./generated/gpprobe.wasm', import.meta.url);

function isNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string' && typeof window === 'undefined'
    && typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'undefined';
}

export interface LoadOptions {
  /** The .wasm bytes, when the caller has them (skips fetching). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where the .wasm lives, when it is not beside this module (e.g. a CDN path of the host page). */
  wasmUrl?: string | URL;
}

export async function loadModule(options: LoadOptions = {}): Promise<GpprobeModule> {
  let wasmBinary = options.wasmBinary;
  if (!wasmBinary && isNode()) {
    const fsName = 'node:fs/promises';  // kept out of the browser bundle
    const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs/promises');
    wasmBinary = await fs.readFile(options.wasmUrl ?? wasmUrl);
  }
  const url = String(options.wasmUrl ?? wasmUrl);
  return createGpprobeModule({ wasmBinary, locateFile: () => url });
}
