// Loads the Emscripten module the same way in the browser (Vite turns the URL into an asset) and in
// Node (we read the .wasm ourselves: the 3.1.6 ES module cannot locate files under Node).
//
// Two builds of the same module: gpprobe (one thread, runs anywhere) and gpprobe-threads (pthreads),
// chosen at run time: the threaded one only where the page is cross-origin isolated (COOP/COEP headers,
// so SharedArrayBuffer exists) and more than one thread is wanted. Its files stay unbundled assets: its
// pool workers (gpprobe-threads.worker.js, classic scripts) import the module by its own URL.
//
// Each has a relaxed-SIMD twin (gpprobe-relaxed.wasm, gpprobe-threads-relaxed.wasm: the same sources, the
// hot loops' multiply-adds fused, 10-20 % faster on x86 with FMA3 and on ARM) that loads wherever the
// engine validates relaxed SIMD: Chromium 114+, Node 22+, Node 20 with --experimental-wasm-relaxed-simd.
// Elsewhere, or when a twin's files do not load, the plain twin does, with the same results to rounding
// (1e-11 on the tests' data; the goldens hold to 1e-8 on both).
import createGpprobeModule, { type GpprobeModule } from './generated/gpprobe.mjs';
import { relaxedSimdSupported } from './relaxed_simd.ts';

const wasmUrls = {
  simd128: new URL('./generated/gpprobe.wasm', import.meta.url),
  relaxed: new URL('./generated/gpprobe-relaxed.wasm', import.meta.url),
};
// The threaded twins' JS differ (it holds addresses of the module's data): each keeps its own files.
const threadedUrls = {
  simd128: {
    module: new URL('./generated/gpprobe-threads.mjs', import.meta.url),
    wasm: new URL('./generated/gpprobe-threads.wasm', import.meta.url),
    worker: new URL('./generated/gpprobe-threads.worker.js', import.meta.url),
  },
  relaxed: {
    module: new URL('./generated/gpprobe-threads-relaxed.mjs', import.meta.url),
    wasm: new URL('./generated/gpprobe-threads-relaxed.wasm', import.meta.url),
    worker: new URL('./generated/gpprobe-threads-relaxed.worker.js', import.meta.url),
  },
};

/** Which SIMD build: 'relaxed' (fused multiply-adds) or 'simd128' (every engine with wasm SIMD). */
export type SimdBuild = 'relaxed' | 'simd128';

export { relaxedSimdSupported };

/** Threads used by default where the threaded module can load: the cores, at most this many. */
export const MAX_DEFAULT_THREADS = 8;

function isNode(): boolean {
  return (
    typeof process !== 'undefined' &&
    typeof process.versions?.node === 'string' &&
    typeof window === 'undefined' &&
    typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'undefined'
  );
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
  /**
   * The SIMD build: 'relaxed' where the engine supports relaxed SIMD (the default there), else
   * 'simd128' (the default elsewhere). Asking for 'relaxed' where it is unsupported is an error.
   */
  simd?: SimdBuild;
}

/** True where the threaded module can run: a cross-origin isolated browser context. */
export function threadsAllowed(): boolean {
  return (
    !isNode() &&
    (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true &&
    typeof SharedArrayBuffer !== 'undefined'
  );
}

/** The threads loadModule will use with these options. */
export function chosenThreads(options: LoadOptions = {}): number {
  if (!threadsAllowed() || options.wasmBinary || options.wasmUrl) return 1;
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 1 : 1;
  const wanted = options.threads ?? Math.min(cores, MAX_DEFAULT_THREADS);
  return Math.max(1, Math.min(Math.floor(wanted), 16));
}

/** The SIMD build loadModule will use with these options (the caller's own .wasm aside). */
export function chosenSimd(options: LoadOptions = {}): SimdBuild {
  const supported = relaxedSimdSupported();
  if (options.simd === 'relaxed' && !supported) {
    throw new Error(
      'this WebAssembly engine does not support relaxed SIMD (Chromium 114+, Node 22+ ' +
        "or Node 20 with --experimental-wasm-relaxed-simd); load with simd: 'simd128'",
    );
  }
  return options.simd ?? (supported ? 'relaxed' : 'simd128');
}

export async function loadModule(options: LoadOptions = {}): Promise<GpprobeModule> {
  const simd = chosenSimd(options);
  const threads = chosenThreads(options);
  const load = (build: SimdBuild) => (threads > 1 ? loadThreaded(threads, build) : loadSingle(options, build));
  // The caller's own .wasm, the plain twin, or the relaxed twin asked for by name: no second try.
  if (simd === 'simd128' || options.simd === 'relaxed' || options.wasmBinary || options.wasmUrl) return load(simd);
  try {
    return await load('relaxed');
  } catch (error) {
    // A host that did not copy the relaxed twin's files, or an engine that validates the probe module
    // but not the twin: the plain twin computes the same numbers (to rounding), a little slower.
    console.warn(
      `gpprobe: the relaxed-SIMD module did not load (${String(error).split('\n')[0]}); using the plain SIMD module`,
    );
    return load('simd128');
  }
}

async function loadSingle(options: LoadOptions, simd: SimdBuild): Promise<GpprobeModule> {
  let wasmBinary = options.wasmBinary;
  const ownUrl = options.wasmUrl ?? wasmUrls[simd];
  if (!wasmBinary && isNode()) {
    const fsName = 'node:fs/promises'; // kept out of the browser bundle
    const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs/promises');
    wasmBinary = await fs.readFile(ownUrl);
  }
  const url = String(ownUrl);
  return createGpprobeModule({ wasmBinary, locateFile: () => url });
}

async function loadThreaded(threads: number, simd: SimdBuild): Promise<GpprobeModule> {
  const urls = threadedUrls[simd];
  const moduleUrl = String(urls.module);
  const create = ((await import(/* @vite-ignore */ moduleUrl)) as { default: typeof createGpprobeModule }).default;
  const module = await create({
    // The caller's thread works too: one pool worker per further thread, started with the module.
    threadPoolSize: threads - 1,
    mainScriptUrlOrBlob: moduleUrl,
    locateFile: (path) => String(path.endsWith('.worker.js') ? urls.worker : urls.wasm),
  });
  module.setThreads(threads);
  return module;
}
