// Types of the Emscripten module built from wasm/*.cpp (copied next to web/src/engine/generated/gpprobe.mjs by CMake).
// Keep in step with the EMSCRIPTEN_BINDINGS blocks: one interface per bindings file.

/** What every binding returns: code "ok" or an error code, and a message naming the problem. */
export interface BindingStatus {
  code: string;
  message: string;
}

/** A fitted Gaussian process probe living in the wasm heap (bindings.cpp). Call delete() when done. */
export interface ProbeHandle {
  fit(
    observations: number, rows: number, cols: number, dtype: 32 | 64,
    labels: number, labelCount: number, epsilon: number, strength: number,
    space: string, expectedQueries: number,
  ): BindingStatus;
  /** Writes 7 columns of `rows` doubles at `out`; progress(done, total) may return false to cancel. */
  score(
    queries: number, rows: number, cols: number, dtype: 32 | 64, out: number,
    progress: ((done: number, total: number) => boolean) | null,
  ): BindingStatus;
  addObservation(row: number, cols: number, dtype: 32 | 64, label: number): BindingStatus;
  removeObservation(index: number): BindingStatus;
  observationCount(): number;
  dimension(): number;
  space(): string;
  copyLabels(out: number): void;
  delete(): void;
}

export interface ProbeBindings {
  ProbeHandle: new () => ProbeHandle;
  syntheticEmbeddings(rows: number, dimension: number, seed: number, x: number, labels: number): BindingStatus;
  backend(): string;
}

/** The analyses behind the app's views (bindings_analysis.cpp). */
export interface AnalysisBindings {
  principalComponents(
    x: number, rows: number, cols: number, dtype: 32 | 64, k: number, seed: number,
    scores: number, components: number, explained: number,
    progress: ((done: number, total: number) => boolean) | null,
  ): BindingStatus;
  beliefDensities(
    grid: number, n: number, mean: number, variance: number, a: number, b: number,
    logitNormal: number, beta: number,
  ): BindingStatus;
  beliefAtObservedPoint(epsilon: number, strength: number, positives: number, negatives: number, out: number): BindingStatus;
  beliefEnvelope(epsilon: number, points: number, maxJudged: number, out: number): BindingStatus;
}

export interface HeapAccess {
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
  HEAPF64: Float64Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}

export interface GpprobeModule extends HeapAccess, ProbeBindings, AnalysisBindings {}

export interface ModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

export default function createGpprobeModule(options?: ModuleOptions): Promise<GpprobeModule>;
