// Baselines and metrics for JavaScript (the paper's experiments are in experiments.ts):
//
//   const engine = await createProbeEngine();
//   const lp = runBaseline(engine, { method: 'lp', observations, labels, queries });  // lp.score, lp.probability
//   const area = auroc(engine, queryLabels, lp.score);
//
// Every number comes from the C++ core (wasm/bindings_evaluation.cpp); this file only checks shapes and
// moves whole arrays in and out of the wasm heap.
import type { GpprobeModule } from './generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from './errors.ts';
import { dtypeOf, HeapScope } from './heap.ts';
import { checkCount, checkLabels, checkMatrix, type Matrix } from './matrix.ts';
import type { ProbeEngine } from './probe_engine.ts';

export type BaselineMethod = 'lp' | 'svm' | 'lpe' | 'msp' | 'maha' | 'knn';

export interface BaselineOptions {
  method: BaselineMethod;
  /** O by d embeddings of the labelled examples. */
  observations: Matrix;
  /** O labels, 0 or 1. */
  labels: Uint8Array;
  /** n by d embeddings to score. */
  queries: Matrix;
  /** kNN: the k-th nearest observation; default 1. */
  k?: number;
  /** LPE: the seed of the bootstrap resamples; default 0. */
  seed?: number;
  /** LPE: the number of linear probes; default 100. */
  members?: number;
  /** LPE reports after each member; returning false cancels (GpprobeError "cancelled"). */
  onProgress?: (done: number, total: number) => boolean | void;
}

/**
 * Per-query results (Float64Array of length queries.rows). `score` is what the method ranks by:
 * lp/svm the decision value; msp, maha, knn and lpe an OOD score (higher = more in-distribution).
 */
export interface BaselineScores {
  score: Float64Array;
  /** lp, msp: sigmoid of the LP decision; lpe: the ensemble mean (judged probability). */
  probability?: Float64Array;
  /** lpe only. */
  episteme?: Float64Array;
  /** lpe only. */
  alea?: Float64Array;
}

function checkSameLength(name: string, values: Float64Array, other: string, n: number): void {
  if (!(values instanceof Float64Array)) throw new GpprobeError('invalid_argument', `${name} must be a Float64Array`);
  if (values.length !== n) {
    throw new GpprobeError('dimension_mismatch', `${name} have ${values.length} values, ${other} have ${n}`);
  }
}

function withProgress(listener?: (done: number, total: number) => boolean | void) {
  return listener ? (done: number, total: number) => listener(done, total) !== false : null;
}

/** Fits a baseline of the GPP paper on the observations and scores the queries. */
export function runBaseline(engine: ProbeEngine, options: BaselineOptions): BaselineScores {
  const module = engine.module;
  const { observations, labels, queries } = options;
  checkMatrix('observations', observations);
  checkMatrix('queries', queries);
  checkLabels('labels', labels);
  const k = options.k ?? 1, seed = options.seed ?? 0, members = options.members ?? 100;
  checkCount('k', k);
  checkCount('seed', seed);
  checkCount('members', members);
  const n = queries.rows;
  const heap = new HeapScope(module);
  try {
    const x = heap.copyIn(observations.data, 'observations');
    const y = heap.copyIn(labels, 'labels');
    const q = heap.copyIn(queries.data, 'queries');
    const out = heap.allocate(4 * n * 8, 'baseline scores');
    throwIfFailed(module.runBaseline(
      options.method, x, observations.rows, observations.cols, dtypeOf(observations.data), y, labels.length,
      q, n, queries.cols, dtypeOf(queries.data), k, seed, members, out,
      withProgress(options.onProgress),
    ));
    const columns = module.baselineColumns(options.method).split(',');
    const result: BaselineScores = { score: heap.readFloat64(out, n) };
    (['probability', 'episteme', 'alea'] as const).forEach((name, k) => {
      if (columns.includes(name)) result[name] = heap.readFloat64(out + (k + 1) * n * 8, n);
    });
    return result;
  } finally {
    heap.free();
  }
}

/** Runs a metric binding that writes one double, on labels and equally many values. */
function scalar(
  engine: ProbeEngine, labels: Uint8Array, values: Float64Array, valuesName: string,
  call: (module: GpprobeModule, labels: number, values: number, n: number, out: number) => { code: string; message: string },
): number {
  checkLabels('labels', labels);
  checkSameLength(valuesName, values, 'labels', labels.length);
  const heap = new HeapScope(engine.module);
  try {
    const out = heap.allocate(8, 'metric');
    throwIfFailed(call(engine.module, heap.copyIn(labels, 'labels'), heap.copyIn(values, valuesName), labels.length, out));
    return heap.readFloat64(out, 1)[0];
  } finally {
    heap.free();
  }
}

/** = scikit-learn's roc_auc_score (ties count ½). */
export function auroc(engine: ProbeEngine, labels: Uint8Array, scores: Float64Array): number {
  return scalar(engine, labels, scores, 'scores', (m, y, s, n, out) => m.auroc(y, s, n, out));
}

/** = scikit-learn's average_precision_score. */
export function auprc(engine: ProbeEngine, labels: Uint8Array, scores: Float64Array): number {
  return scalar(engine, labels, scores, 'scores', (m, y, s, n, out) => m.auprc(y, s, n, out));
}

/** The fraction of labels equal to (probability > threshold). */
export function accuracy(engine: ProbeEngine, labels: Uint8Array, probability: Float64Array, threshold = 0.5): number {
  return scalar(engine, labels, probability, 'probability', (m, y, p, n, out) => m.accuracy(y, p, n, threshold, out));
}

/** Pearson's r of x and y (= scipy.stats.pearsonr). */
export function pearson(engine: ProbeEngine, x: Float64Array, y: Float64Array): number {
  if (!(x instanceof Float64Array)) throw new GpprobeError('invalid_argument', 'x must be a Float64Array');
  checkSameLength('y', y, 'x', x.length);
  const heap = new HeapScope(engine.module);
  try {
    const out = heap.allocate(8, 'metric');
    throwIfFailed(engine.module.pearson(heap.copyIn(x, 'x'), heap.copyIn(y, 'y'), x.length, out));
    return heap.readFloat64(out, 1)[0];
  } finally {
    heap.free();
  }
}

export interface RocCurve {
  falsePositiveRate: Float64Array;
  truePositiveRate: Float64Array;
  /** Decreasing; the first is +Infinity (the point (0, 0)). */
  thresholds: Float64Array;
}

/** = scikit-learn's roc_curve(drop_intermediate=False), with +Infinity as the first threshold. */
export function rocCurve(engine: ProbeEngine, labels: Uint8Array, scores: Float64Array): RocCurve {
  checkLabels('labels', labels);
  checkSameLength('scores', scores, 'labels', labels.length);
  const n = labels.length;
  const heap = new HeapScope(engine.module);
  try {
    const out = heap.allocate((1 + 3 * (n + 1)) * 8, 'roc curve');
    throwIfFailed(engine.module.rocCurve(heap.copyIn(labels, 'labels'), heap.copyIn(scores, 'scores'), n, out));
    const points = heap.readFloat64(out, 1)[0];
    const column = (k: number) => heap.readFloat64(out + 8 + k * (n + 1) * 8, points);
    return { falsePositiveRate: column(0), truePositiveRate: column(1), thresholds: column(2) };
  } finally {
    heap.free();
  }
}
