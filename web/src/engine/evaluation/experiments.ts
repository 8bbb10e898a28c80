// The GPP paper's experiments for JavaScript:
//
//   const r = await runExperiment(engine, { experiment: 'probing', embeddings, labels }, { onProgress, signal });
//   // r.observationCounts, r.curves[i].mean / .sd / .values (trials × points), r.clouds (fuzzy)
//
// The protocol is the core's (core/include/gpprobe/evaluation/experiment.h). An experiment runs one trial per wasm
// call (as many as the engine has threads, run side by side) and yields to the event loop between calls,
// so a worker stays responsive and an AbortSignal can stop it; the core adds the trials up (append_trials) and computes the mean and standard deviation, so
// nothing but the finished result crosses back. Embeddings already resident in the wasm heap
// (engine.upload) are used in place, not copied.
import type {
  CloudValue as ExperimentCloud,
  CurveValue as ExperimentCurve,
  ExperimentSettings as TrialSettings,
} from '../generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from '../errors.ts';
import { HeapScope } from '../heap.ts';
import { checkCount, checkLabels } from '../matrix.ts';
import type { ProbeEngine } from '../probe/probe_engine.ts';
import { yieldToEventLoop, type ProgressListener } from '../progress.ts';
import { ResidentMatrix, type MatrixInput } from '../resident_matrix.ts';
import { DEFAULTS } from '../vocabulary.ts';

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
  /** Defaults of every option below: DEFAULTS (the core's, vocabulary.ts). */
  trials?: number;
  seed?: number;
  /** Largest observation count of the schedule 2, 4, 8, .... */
  maxObservations?: number;
  /** At most this many queries (and OOD rows) per trial. */
  maxQueries?: number;
  /** LPE members. */
  members?: number;
  /** kNN's k. */
  k?: number;
  /** GPP prior Beta(epsilon, epsilon). */
  epsilon?: number;
  /** GPP observation strength. */
  strength?: number;
  /** Probing: also GP classification (Laplace and EP, RBF with learned hyperparameters) as probes ... */
  gpc?: boolean;
  /** ... at observation counts up to this (their curves hold NaN above it: not run). */
  gpcMaxObservations?: number;
}

export interface RunExperimentOptions {
  /** Aborting stops the run with a GpprobeError of code "cancelled" (checked between steps). */
  signal?: AbortSignal;
  /** Stage "trial t of T" (on threads "trials t–u of T"); done counts pieces of work (one per trial and observation count, two with the GPC probes) of the total. */
  onProgress?: ProgressListener;
}

/** The results' parts and the options of a run, as the core's bindings define them (gpprobe.d.mts). */
export type { CloudValue as ExperimentCloud, CurveValue as ExperimentCurve } from '../generated/gpprobe.mjs';
/** Every option of a run (experiment.h), the trials included. */
export type ExperimentSettings = TrialSettings & { trials: number };

export interface ExperimentResult {
  experiment: ExperimentKind;
  observationCounts: number[];
  /** Why the counts stop short of maxObservations, in the core's words ("stopped at O = 16 ..."), or "". */
  scheduleLimit: string;
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

/**
 * Runs an experiment of the GPP paper (probing, fuzzy, ood; see core/include/gpprobe/evaluation/experiment.h for the
 * protocol), one trial per wasm call (one per thread). Trial t gives the same numbers as in the CLI's run with the same seed.
 */
export async function runExperiment(
  engine: ProbeEngine,
  options: ExperimentOptions,
  run: RunExperimentOptions = {},
): Promise<ExperimentResult> {
  const module = engine.module;
  const { experiment, embeddings, labels, ood, queryMask } = options;
  checkLabels('labels', labels);
  if (queryMask !== undefined) checkLabels('queryMask', queryMask);
  const trials = options.trials ?? DEFAULTS.trials;
  if (!Number.isInteger(trials) || trials < 1) {
    throw new GpprobeError('invalid_argument', `trials must be at least 1, got ${trials}`);
  }
  const settings = {
    seed: options.seed ?? DEFAULTS.seed,
    maxObservations: options.maxObservations ?? DEFAULTS.maxObservations,
    maxQueries: options.maxQueries ?? DEFAULTS.maxQueries,
    members: options.members ?? DEFAULTS.members,
    k: options.k ?? DEFAULTS.k,
    epsilon: options.epsilon ?? DEFAULTS.epsilon,
    strength: options.strength ?? DEFAULTS.strength,
    gpc: options.gpc ?? DEFAULTS.gpc,
    gpcMaxObservations: options.gpcMaxObservations ?? DEFAULTS.gpcMaxObservations,
  };
  for (const key of ['seed', 'maxObservations', 'maxQueries', 'members', 'k', 'gpcMaxObservations'] as const)
    checkCount(key, settings[key]);
  const heap = new HeapScope(module);
  const handle = new module.ExperimentHandle();
  try {
    const x = placed(heap, embeddings, 'embeddings');
    const y = heap.copyIn(labels, 'labels');
    const o = ood ? placed(heap, ood, 'ood') : null;
    const mask = queryMask ? heap.copyIn(queryMask, 'query mask') : 0;
    // As many trials per call as the engine has threads: the core runs their steps side by side.
    const perCall = Math.max(1, engine.threads);
    for (let t = 0; t < trials; t += perCall) {
      if (run.signal?.aborted) {
        throw new GpprobeError('cancelled', `${experiment} experiment cancelled after ${t} of ${trials} trials`);
      }
      const count = Math.min(perCall, trials - t);
      const stage = count === 1 ? `trial ${t + 1} of ${trials}` : `trials ${t + 1}–${t + count} of ${trials}`;
      // Addresses of resident matrices are taken per call: one disposed meanwhile throws, never dangles.
      throwIfFailed(
        handle.runTrial(
          experiment,
          x.pointer(),
          x.rows,
          x.cols,
          x.dtype,
          y,
          labels.length,
          o?.pointer() ?? 0,
          o?.rows ?? 0,
          o?.cols ?? x.cols,
          o?.dtype ?? 64,
          mask,
          queryMask?.length ?? 0,
          t,
          count,
          settings,
          (done, total) =>
            run.onProgress?.({ stage, done: t * (total / count) + done, total: trials * (total / count) }) !== false &&
            !run.signal?.aborted,
        ),
      );
      if (t + count < trials) await yieldToEventLoop();
    }
    const r = throwIfFailed(handle.result());
    return {
      experiment,
      observationCounts: Array.from(r.observationCounts),
      scheduleLimit: r.scheduleLimit,
      trials: r.trials,
      curves: r.curves.map(({ method, metric, values, mean, sd }) => ({ method, metric, values, mean, sd })),
      clouds: r.clouds.map(({ method, labelProbability, observations, rows, judgedProbability, episteme, alea }) => ({
        method,
        labelProbability,
        observations,
        rows,
        judgedProbability,
        episteme,
        alea,
      })),
    };
  } finally {
    handle.delete();
    heap.free();
  }
}
