// Baselines, metrics and the GPP paper's experiments for JavaScript:
//
//   const engine = await createProbeEngine();
//   const lp = runBaseline(engine, { method: 'lp', observations, labels, queries });  // lp.score, lp.probability
//   const area = auroc(engine, queryLabels, lp.score);
//   const r = await runExperiment(engine, { experiment: 'probing', embeddings, labels }, { onProgress, signal });
//   // r.observationCounts, r.curves[i].mean / .sd / .values (trials × points)
//
// Every number comes from the C++ core (wasm/bindings_evaluation.cpp); this file only checks shapes and
// moves whole arrays in and out of the wasm heap. Experiments run one trial per wasm call and yield to
// the event loop between trials, so a worker stays responsive and an AbortSignal can stop them.
import type { ExperimentHandle, GpprobeModule } from './generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from './errors.ts';
import { dtypeOf, HeapScope } from './heap.ts';
import { checkMatrix, type Matrix } from './matrix.ts';
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

export type ExperimentKind = 'probing' | 'fuzzy' | 'ood';

export interface ExperimentOptions {
  experiment: ExperimentKind;
  /** n by d embeddings. */
  embeddings: Matrix;
  /** n labels of the concept, 0 or 1. */
  labels: Uint8Array;
  /** m by d out-of-distribution embeddings (required for "ood"). */
  ood?: Matrix;
  /** n values: 1 = the row may be a query (never an observation); default: a random half per trial. */
  queryMask?: Uint8Array;
  /** Default 10. */
  trials?: number;
  /** Default 0. */
  seed?: number;
  /** Largest observation count of the schedule 2, 4, 8, ...; default 512. */
  maxObservations?: number;
  /** At most this many queries (and OOD rows) per trial; default 1000. */
  maxQueries?: number;
  /** LPE members; default 100. */
  members?: number;
  /** kNN's k; default 1. */
  k?: number;
  /** GPP prior Beta(epsilon, epsilon); default 0.1. */
  epsilon?: number;
  /** GPP observation strength; default 5. */
  strength?: number;
}

export interface RunExperimentOptions {
  /** Aborting stops the run with a GpprobeError of code "cancelled" (checked between steps). */
  signal?: AbortSignal;
  /** Steps done (one per trial and observation count) and the total. */
  onProgress?: (done: number, total: number) => void;
}

/** One metric of one method at each observation count. */
export interface ExperimentCurve {
  method: string;
  /** "auroc" or "pearson". */
  metric: string;
  /** trials × points, row-major: values[t * points + j]. */
  values: Float64Array;
  mean: Float64Array;
  /** Sample standard deviation over the trials (0 for one trial). */
  sd: Float64Array;
}

/** The fuzzy experiment's per-query measures for one (label probability, observation count), trial 0. */
export interface ExperimentCloud {
  method: string;
  labelProbability: number;
  observations: number;
  /** The embedding row of each (originally positive) query. */
  rows: Uint32Array;
  judgedProbability: Float64Array;
  episteme: Float64Array;
  alea: Float64Array;
}

export interface ExperimentResult {
  experiment: ExperimentKind;
  observationCounts: number[];
  trials: number;
  curves: ExperimentCurve[];
  clouds: ExperimentCloud[];
}

function checkLabels(name: string, labels: unknown): asserts labels is Uint8Array {
  if (!(labels instanceof Uint8Array)) {
    throw new GpprobeError('invalid_argument', `${name} must be a Uint8Array of 0/1 values`);
  }
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
  const n = queries.rows;
  const heap = new HeapScope(module);
  try {
    const x = heap.copyIn(observations.data, 'observations');
    const y = heap.copyIn(labels, 'labels');
    const q = heap.copyIn(queries.data, 'queries');
    const out = heap.allocate(4 * n * 8, 'baseline scores');
    throwIfFailed(module.runBaseline(
      options.method, x, observations.rows, observations.cols, dtypeOf(observations.data), y, labels.length,
      q, n, queries.cols, dtypeOf(queries.data), options.k ?? 1, options.seed ?? 0, options.members ?? 100, out,
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

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Copies the curves of one finished trial (handle) into the per-curve value arrays at row `trial`. */
function collectTrial(module: GpprobeModule, handle: ExperimentHandle, trial: number, curves: ExperimentCurve[]): void {
  const points = handle.pointCount();
  const heap = new HeapScope(module);
  try {
    const out = heap.allocate(3 * points * 8, 'experiment curve');
    curves.forEach((curve, c) => {
      handle.copyCurve(c, out);
      curve.values.set(heap.readFloat64(out, points), trial * points);
    });
  } finally {
    heap.free();
  }
}

function collectClouds(module: GpprobeModule, handle: ExperimentHandle): ExperimentCloud[] {
  const clouds: ExperimentCloud[] = [];
  const heap = new HeapScope(module);
  try {
    for (let i = 0; i < handle.cloudCount(); ++i) {
      const size = handle.cloudSize(i);
      const out = heap.allocate(4 * size * 8, 'experiment cloud');
      handle.copyCloud(i, out);
      const column = (k: number) => heap.readFloat64(out + k * size * 8, size);
      clouds.push({
        method: handle.cloudMethod(i), labelProbability: handle.cloudLabelProbability(i),
        observations: handle.cloudObservations(i), rows: Uint32Array.from(column(0)),
        judgedProbability: column(1), episteme: column(2), alea: column(3),
      });
    }
  } finally {
    heap.free();
  }
  return clouds;
}

/** Mean and sample standard deviation of each curve over the trials, by the core. */
function summarise(module: GpprobeModule, curves: ExperimentCurve[], trials: number, points: number): void {
  const heap = new HeapScope(module);
  try {
    for (const curve of curves) {
      const values = heap.copyIn(curve.values, 'experiment values');
      const mean = heap.allocate(points * 8, 'experiment mean');
      const sd = heap.allocate(points * 8, 'experiment sd');
      throwIfFailed(module.summariseTrials(values, trials, points, mean, sd));
      curve.mean = heap.readFloat64(mean, points);
      curve.sd = heap.readFloat64(sd, points);
    }
  } finally {
    heap.free();
  }
}

/**
 * Runs an experiment of the GPP paper (probing, fuzzy, ood; see core/include/gpprobe/experiment.h for the
 * protocol), one trial per wasm call. Trial t gives the same numbers as in the CLI's run with the same seed.
 */
export async function runExperiment(
  engine: ProbeEngine, options: ExperimentOptions, run: RunExperimentOptions = {},
): Promise<ExperimentResult> {
  const module = engine.module;
  const { experiment, embeddings, labels, ood, queryMask } = options;
  checkMatrix('embeddings', embeddings);
  checkLabels('labels', labels);
  if (ood) checkMatrix('ood', ood);
  if (queryMask !== undefined) checkLabels('queryMask', queryMask);
  const trials = options.trials ?? 10;
  if (!Number.isInteger(trials) || trials < 1) {
    throw new GpprobeError('invalid_argument', `trials must be at least 1, got ${trials}`);
  }
  const heap = new HeapScope(module);
  const handle = new module.ExperimentHandle();
  try {
    const x = heap.copyIn(embeddings.data, 'embeddings');
    const y = heap.copyIn(labels, 'labels');
    const o = ood ? heap.copyIn(ood.data, 'ood embeddings') : 0;
    const mask = queryMask ? heap.copyIn(queryMask, 'query mask') : 0;
    const settings = {
      firstTrial: 0, trials: 1, seed: options.seed ?? 0, maxObservations: options.maxObservations ?? 512,
      maxQueries: options.maxQueries ?? 1000, members: options.members ?? 100, k: options.k ?? 1,
      epsilon: options.epsilon ?? 0.1, strength: options.strength ?? 5,
    };
    let observationCounts: number[] = [];
    let curves: ExperimentCurve[] = [];
    let clouds: ExperimentCloud[] = [];
    for (let t = 0; t < trials; ++t) {
      if (run.signal?.aborted) {
        throw new GpprobeError('cancelled', `${experiment} experiment cancelled after ${t} of ${trials} trials`);
      }
      throwIfFailed(handle.run(
        experiment, x, embeddings.rows, embeddings.cols, dtypeOf(embeddings.data), y, labels.length,
        o, ood?.rows ?? 0, ood?.cols ?? embeddings.cols, ood ? dtypeOf(ood.data) : 64,
        mask, queryMask?.length ?? 0, { ...settings, firstTrial: t },
        (done, total) => {
          run.onProgress?.(t * total + done, trials * total);
          return !run.signal?.aborted;
        },
      ));
      const points = handle.pointCount();
      if (t === 0) {
        const counts = heap.allocate(points * 8, 'observation counts');
        handle.copyObservationCounts(counts);
        observationCounts = Array.from(heap.readFloat64(counts, points));
        curves = Array.from({ length: handle.curveCount() }, (_, c) => ({
          method: handle.curveMethod(c), metric: handle.curveMetric(c),
          values: new Float64Array(trials * points), mean: new Float64Array(points), sd: new Float64Array(points),
        }));
        clouds = collectClouds(module, handle);
      }
      collectTrial(module, handle, t, curves);
      if (t + 1 < trials) await yieldToEventLoop();
    }
    summarise(module, curves, trials, observationCounts.length);
    return { experiment, observationCounts, trials, curves, clouds };
  } finally {
    handle.delete();
    heap.free();
  }
}
