// Baselines and metrics for JavaScript (the paper's experiments are in experiments.ts):
//
//   const engine = await createProbeEngine();
//   const lp = runBaseline(engine, { method: 'lp', observations, labels, queries });  // lp.score, lp.probability
//   const area = auroc(engine, queryLabels, lp.score);
//
// Every number comes from the C++ core (wasm/bindings_baselines.cpp); this file only checks shapes and
// moves whole arrays in and out of the wasm heap.
import type { GpprobeModule, Metric } from '../generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from '../errors.ts';
import { dtypeOf, HeapScope } from '../heap.ts';
import { checkCount, checkLabels, checkMatrix, type Matrix } from '../matrix.ts';
import type { ProbeEngine } from '../probe/probe_engine.ts';
import { coreProgress, type ProgressListener } from '../progress.ts';
import { DEFAULTS } from '../vocabulary.ts';

export type BaselineMethod = 'lp' | 'svm' | 'lpe' | 'msp' | 'maha' | 'knn';

export interface BaselineOptions {
  method: BaselineMethod;
  /** O by d embeddings of the labelled examples. */
  observations: Matrix;
  /** O labels, 0 or 1. */
  labels: Uint8Array;
  /** n by d embeddings to score. */
  queries: Matrix;
  /** kNN: the k-th nearest observation; default DEFAULTS.k (1). */
  k?: number;
  /** LPE: the seed of the bootstrap resamples; default DEFAULTS.seed (0). */
  seed?: number;
  /** LPE: the number of linear probes; default DEFAULTS.members (100). */
  members?: number;
  /** LPE reports after each member (stage "fitting lpe"); returning false cancels (GpprobeError "cancelled"). */
  onProgress?: ProgressListener;
  /** Checked at every progress report: an aborted signal cancels. */
  signal?: AbortSignal;
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

/** Fits a baseline of the GPP paper on the observations and scores the queries. */
export function runBaseline(engine: ProbeEngine, options: BaselineOptions): BaselineScores {
  const module = engine.module;
  const { observations, labels, queries } = options;
  checkMatrix('observations', observations);
  checkMatrix('queries', queries);
  checkLabels('labels', labels);
  const k = options.k ?? DEFAULTS.k,
    seed = options.seed ?? DEFAULTS.seed,
    members = options.members ?? DEFAULTS.members;
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
    const { columns } = throwIfFailed(
      module.runBaseline(
        options.method,
        x,
        observations.rows,
        observations.cols,
        dtypeOf(observations.data),
        y,
        labels.length,
        q,
        n,
        queries.cols,
        dtypeOf(queries.data),
        k,
        seed,
        members,
        out,
        coreProgress(`fitting ${options.method}`, options.onProgress, options.signal),
      ),
    );
    const result: BaselineScores = { score: heap.readFloat64(out, n) };
    (['probability', 'episteme', 'alea'] as const).forEach((name, k) => {
      if (columns.includes(name)) result[name] = heap.readFloat64(out + (k + 1) * n * 8, n);
    });
    return result;
  } finally {
    heap.free();
  }
}

/** Runs a metric binding on labels and equally many values. */
function scalar(
  engine: ProbeEngine,
  labels: Uint8Array,
  values: Float64Array,
  valuesName: string,
  call: (module: GpprobeModule, labels: number, values: number, n: number) => Metric,
): number {
  checkLabels('labels', labels);
  checkSameLength(valuesName, values, 'labels', labels.length);
  const heap = new HeapScope(engine.module);
  try {
    return throwIfFailed(
      call(engine.module, heap.copyIn(labels, 'labels'), heap.copyIn(values, valuesName), labels.length),
    ).value;
  } finally {
    heap.free();
  }
}

/** = scikit-learn's roc_auc_score (ties count ½). */
export function auroc(engine: ProbeEngine, labels: Uint8Array, scores: Float64Array): number {
  return scalar(engine, labels, scores, 'scores', (m, y, s, n) => m.auroc(y, s, n));
}

/** = scikit-learn's average_precision_score. */
export function auprc(engine: ProbeEngine, labels: Uint8Array, scores: Float64Array): number {
  return scalar(engine, labels, scores, 'scores', (m, y, s, n) => m.auprc(y, s, n));
}

/** The fraction of labels equal to (probability > threshold). */
export function accuracy(engine: ProbeEngine, labels: Uint8Array, probability: Float64Array, threshold = 0.5): number {
  return scalar(engine, labels, probability, 'probability', (m, y, p, n) => m.accuracy(y, p, n, threshold));
}

/** Pearson's r of x and y (= scipy.stats.pearsonr). */
export function pearson(engine: ProbeEngine, x: Float64Array, y: Float64Array): number {
  if (!(x instanceof Float64Array)) throw new GpprobeError('invalid_argument', 'x must be a Float64Array');
  checkSameLength('y', y, 'x', x.length);
  const heap = new HeapScope(engine.module);
  try {
    return throwIfFailed(engine.module.pearson(heap.copyIn(x, 'x'), heap.copyIn(y, 'y'), x.length)).value;
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
  const heap = new HeapScope(engine.module);
  try {
    const r = throwIfFailed(
      engine.module.rocCurve(heap.copyIn(labels, 'labels'), heap.copyIn(scores, 'scores'), labels.length),
    );
    return { falsePositiveRate: r.falsePositiveRate, truePositiveRate: r.truePositiveRate, thresholds: r.thresholds };
  } finally {
    heap.free();
  }
}
