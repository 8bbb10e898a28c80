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

/** A ROC curve of the anomaly score over the points with knowledge >= rho (bindings_regression.cpp). */
export interface RocCurveData {
  rho: number;
  points: number;
  positives: number;
  negatives: number;
  /** false when the kept points lack positives or negatives: then the arrays are empty and auc is 0. */
  defined: boolean;
  auc: number;
  falsePositiveRate: Float64Array;
  truePositiveRate: Float64Array;
}

/** What a fitted regression reports about itself. */
export interface RegressionState {
  kernel: string;
  names: string[];
  values: Float64Array;
  noiseVariance: number;
  mean: number;
  logMarginalLikelihood: number;
  size: number;
  dimension: number;
  runValues: Float64Array;
  iterations: number;
  clampedVariances: number;
  jitter: number;
}

/** One fitted GP regression living in the wasm heap (bindings_regression.cpp). Call delete() when done. */
export interface RegressionHandle {
  fit(x: number, rows: number, cols: number, y: number, kernel: string, noiseVariance: number, mean: number): BindingStatus;
  optimize(
    x: number, rows: number, cols: number, y: number, kernel: string, noiseVariance: number, mean: number,
    fixed: string, restarts: number, seed: number, maxIterations: number,
    progress: ((done: number, total: number) => boolean) | null,
  ): BindingStatus;
  /** Writes 8 columns of `rows` doubles at `out`. */
  predict(
    test: number, rows: number, cols: number, out: number,
    progress: ((done: number, total: number) => boolean) | null,
  ): BindingStatus;
  sample(test: number, rows: number, cols: number, count: number, seed: number, out: number): BindingStatus;
  state(): RegressionState | null;
  delete(): void;
}

export interface ExampleData {
  status: BindingStatus;
  name: string;
  x: Float64Array;
  y: Float64Array;
  heldOutX: Float64Array;
  heldOutY: Float64Array;
  lower: number;
  upper: number;
  noiseSd: number;
}

export interface AnomalyExperimentData {
  status: BindingStatus;
  trainX: Float64Array;
  trainY: Float64Array;
  trainAnomaly: Uint8Array;
  testX: Float64Array;
  testY: Float64Array;
  testAnomaly: Uint8Array;
  mean: Float64Array;
  latentVariance: Float64Array;
  observationVariance: Float64Array;
  knowledge: Float64Array;
  score: Float64Array;
  statuses: Uint8Array;
  kernel: string;
  noiseVariance: number;
  logMarginalLikelihood: number;
  ungated: RocCurveData;
  gated: RocCurveData[];
}

export interface RegressionBindings {
  RegressionHandle: new () => RegressionHandle;
  samplePrior(
    kernel: string, mean: number, test: number, rows: number, cols: number, count: number, seed: number, out: number,
  ): BindingStatus;
  classifyPoints(
    y: number, mean: number, observationVariance: number, knowledge: number, n: number, rho: number, theta: number,
    out: number, scores: number,
  ): BindingStatus;
  rocSweep(scores: number, isPositive: number, knowledge: number, n: number, rhos: number, rhoCount: number): RocCurveData[];
  regressionExample(name: string, seed: number): ExampleData;
  exampleTruth(name: string, x: number, n: number, out: number): BindingStatus;
  anomalyExperiment(
    seed: number, statusRho: number, theta: number, rhos: number, rhoCount: number,
    progress: ((done: number, total: number) => boolean) | null,
  ): AnomalyExperimentData;
  kernelText(
    name: string, variance: number, lengthScale: number, period: number, decay: number, offset: number,
  ): { status: BindingStatus; kernel?: string };
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

export interface GpprobeModule extends HeapAccess, ProbeBindings, AnalysisBindings, RegressionBindings, EvaluationBindings {}

export interface ModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

export default function createGpprobeModule(options?: ModuleOptions): Promise<GpprobeModule>;
