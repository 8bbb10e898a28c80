// Loads the Emscripten module the same way in the browser (Vite turns the URL into an asset) and in
// Node (we read the .wasm ourselves: the 3.1.6 ES module cannot locate files under Node).
//
// Two builds of the same module: gpprobe (one thread, runs anywhere) and gpprobe-threads (pthreads),
// chosen at run time: the threaded one only where the page is cross-origin isolated (COOP/COEP headers,
// so SharedArrayBuffer exists) and more than one thread is wanted. Its files stay unbundled assets: its
// pool workers (gpprobe-threads.worker.js, classic scripts) import the module by its own URL.
import createGpprobeModule, { type GpprobeModule } from './generated/gpprobe.mjs';

const wasmUrl = new URL('./generated/gpprobe.wasm', import.meta.url);
const threadedUrls = {
  module: new URL('./generated/gpprobe-threads.mjs', import.meta.url),
  wasm: new URL('./generated/gpprobe-threads.wasm', import.meta.url),
  worker: new URL('./generated/gpprobe-threads.worker.js', import.meta.url),
};

/** Threads used by default where the threaded module can load: the cores, at most this many. */
export const MAX_DEFAULT_THREADS = 8;

function isNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string' && typeof window === 'undefined'
    && typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'undefined';
}

export interface LoadOptions {
  /** The .wasm bytes, when the caller has them (skips fetching; the single-threaded module). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where the .wasm lives, when it is not beside this module (e.g. a CDN path of the host page). */
  wasmUrl?: string | URL;
  /**
   * Threads for scoring. Default: the cores (navigator.hardwareConcurrency, at most 8) where the page
   * is cross-origin isolated, else 1. More than 1 needs isolation; 1 always loads the single-threaded
   * module.
   */
  threads?: number;
}

/** True where the threaded module can run: a cross-origin isolated browser context. */
export function threadsAllowed(): boolean {
  return !isNode() && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true
    && typeof SharedArrayBuffer !== 'undefined';
}

/** The threads loadModule will use with these options. */
export function chosenThreads(options: LoadOptions = {}): number {
  if (!threadsAllowed() || options.wasmBinary || options.wasmUrl) return 1;
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 1 : 1;
  const wanted = options.threads ?? Math.min(cores, MAX_DEFAULT_THREADS);
  return Math.max(1, Math.min(Math.floor(wanted), 16));
}

export async function loadModule(options: LoadOptions = {}): Promise<GpprobeModule> {
  const threads = chosenThreads(options);
  if (threads > 1) return loadThreaded(threads);
  let wasmBinary = options.wasmBinary;
  if (!wasmBinary && isNode()) {
    const fsName = 'node:fs/promises';  // kept out of the browser bundle
    const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs/promises');
    wasmBinary = await fs.readFile(options.wasmUrl ?? wasmUrl);
  }
  const url = String(options.wasmUrl ?? wasmUrl);
  return createGpprobeModule({ wasmBinary, locateFile: () => url });
}

async function loadThreaded(threads: number): Promise<GpprobeModule> {
  const moduleUrl = String(threadedUrls.module);
  const create = ((await import(/* @vite-ignore */ moduleUrl)) as { default: typeof createGpprobeModule }).default;
  const module = await create({
    // The caller's thread works too: one pool worker per further thread, started with the module.
    threadPoolSize: threads - 1,
    mainScriptUrlOrBlob: moduleUrl,
    locateFile: (path) => String(path.endsWith('.worker.js') ? threadedUrls.worker : threadedUrls.wasm),
  });
  module.setThreads(threads);
  return module;
}
