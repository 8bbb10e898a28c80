// The GPP paper's experiments for JavaScript:
//
//   const r = await runExperiment(engine, { experiment: 'probing', embeddings, labels }, { onProgress, signal });
//   // r.observationCounts, r.curves[i].mean / .sd / .values (trials × points), r.clouds (fuzzy)
//
// The protocol is the core's (core/include/gpprobe/experiment.h). An experiment runs one trial per wasm
// call and yields to the event loop between trials, so a worker stays responsive and an AbortSignal can
// stop it; the mean and standard deviation over trials come from the core (summariseTrials). Embeddings
// already resident in the wasm heap (engine.upload) are used in place, not copied.
import type { ExperimentHandle, GpprobeModule } from './generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from './errors.ts';
import { HeapScope } from './heap.ts';
import { checkCount, checkLabels } from './matrix.ts';
import type { ProbeEngine } from './probe_engine.ts';
import { ResidentMatrix, type MatrixInput } from './resident_matrix.ts';

export type ExperimentKind = 'probing' | 'fuzzy' | 'ood';

export interface ExperimentOptions {
  experiment: ExperimentKind;
  /** n by d embeddings (a resident matrix is used in place). */
  embeddings: MatrixInput;
  /** n labels of the concept, 0 or 1. */
  labels: Uint8Array;
  /** m by d out-of-distribution embeddings (required for "ood"). */
  ood?: MatrixInput;
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

/** Where a matrix is in the heap: a resident one in place (its address read when needed), a plain one copied in. */
function placed(heap: HeapScope, m: MatrixInput, what: string) {
  if (m instanceof ResidentMatrix) return { pointer: () => m.pointer(), rows: m.rows, cols: m.cols, dtype: m.dtype };
  const copy = heap.matrix(m, what);
  return { ...copy, pointer: () => copy.pointer };
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
  checkLabels('labels', labels);
  if (queryMask !== undefined) checkLabels('queryMask', queryMask);
  const trials = options.trials ?? 10;
  if (!Number.isInteger(trials) || trials < 1) {
    throw new GpprobeError('invalid_argument', `trials must be at least 1, got ${trials}`);
  }
  const settings = {
    firstTrial: 0, trials: 1, seed: options.seed ?? 0, maxObservations: options.maxObservations ?? 512,
    maxQueries: options.maxQueries ?? 1000, members: options.members ?? 100, k: options.k ?? 1,
    epsilon: options.epsilon ?? 0.1, strength: options.strength ?? 5,
  };
  for (const key of ['seed', 'maxObservations', 'maxQueries', 'members', 'k'] as const) checkCount(key, settings[key]);
  const heap = new HeapScope(module);
  const handle = new module.ExperimentHandle();
  try {
    const x = placed(heap, embeddings, 'embeddings');
    const y = heap.copyIn(labels, 'labels');
    const o = ood ? placed(heap, ood, 'ood') : null;
    const mask = queryMask ? heap.copyIn(queryMask, 'query mask') : 0;
    let observationCounts: number[] = [];
    let curves: ExperimentCurve[] = [];
    let clouds: ExperimentCloud[] = [];
    for (let t = 0; t < trials; ++t) {
      if (run.signal?.aborted) {
        throw new GpprobeError('cancelled', `${experiment} experiment cancelled after ${t} of ${trials} trials`);
      }
      // Addresses of resident matrices are taken per trial: one disposed meanwhile throws, never dangles.
      throwIfFailed(handle.run(
        experiment, x.pointer(), x.rows, x.cols, x.dtype, y, labels.length,
        o?.pointer() ?? 0, o?.rows ?? 0, o?.cols ?? x.cols, o?.dtype ?? 64,
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
