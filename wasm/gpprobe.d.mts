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

/** Experiment results held in the wasm heap (bindings_evaluation.cpp). Call delete() when done. */
export interface ExperimentHandle {
  /** Runs one experiment; `options` carries every field (the TS engine fills the defaults). */
  run(
    experiment: string, embeddings: number, rows: number, cols: number, dtype: 32 | 64,
    labels: number, labelCount: number, ood: number, oodRows: number, oodCols: number, oodDtype: 32 | 64,
    queryMask: number, queryMaskCount: number,
    options: {
      firstTrial: number; trials: number; seed: number; maxObservations: number; maxQueries: number;
      members: number; k: number; epsilon: number; strength: number;
    },
    progress: ((done: number, total: number) => boolean) | null,
  ): BindingStatus;
  pointCount(): number;
  trials(): number;
  /** pointCount() doubles. */
  copyObservationCounts(out: number): void;
  curveCount(): number;
  curveMethod(index: number): string;
  curveMetric(index: number): string;
  /** trials × points values, then points means, then points standard deviations (doubles). */
  copyCurve(index: number, out: number): void;
  cloudCount(): number;
  cloudMethod(index: number): string;
  cloudLabelProbability(index: number): number;
  cloudObservations(index: number): number;
  cloudSize(index: number): number;
  /** size rows, then size judged probabilities, epistemes and aleas (doubles). */
  copyCloud(index: number, out: number): void;
  delete(): void;
}

/** Baselines, metrics and experiments (bindings_evaluation.cpp). Labels are bytes, scores doubles. */
export interface EvaluationBindings {
  ExperimentHandle: new () => ExperimentHandle;
  /** "score,probability,..." for a method name; "" for an unknown one. */
  baselineColumns(method: string): string;
  /** Writes 4 columns of queryRows doubles at `out`: score, probability, episteme, alea. */
  runBaseline(
    method: string, observations: number, rows: number, cols: number, dtype: 32 | 64,
    labels: number, labelCount: number, queries: number, queryRows: number, queryCols: number,
    queryDtype: 32 | 64, k: number, seed: number, members: number, out: number,
    progress: ((done: number, total: number) => boolean) | null,
  ): BindingStatus;
  auroc(labels: number, scores: number, n: number, out: number): BindingStatus;
  auprc(labels: number, scores: number, n: number, out: number): BindingStatus;
  accuracy(labels: number, probability: number, n: number, threshold: number, out: number): BindingStatus;
  pearson(x: number, y: number, n: number, out: number): BindingStatus;
  /** out[0] = points, then fpr, tpr, thresholds at out + 8, each with a stride of n + 1 doubles. */
  rocCurve(labels: number, scores: number, n: number, out: number): BindingStatus;
  summariseTrials(values: number, trials: number, points: number, mean: number, sd: number): BindingStatus;
}

export interface HeapAccess {
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
  HEAPF64: Float64Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}

export interface GpprobeModule extends HeapAccess, ProbeBindings, EvaluationBindings {}

export interface ModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

export default function createGpprobeModule(options?: ModuleOptions): Promise<GpprobeModule>;
