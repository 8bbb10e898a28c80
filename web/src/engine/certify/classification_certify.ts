// Certified robustness of a fitted GP classifier at a point, for JavaScript (the core's
// gpc_robustness.h; Blaas et al., AISTATS 2020; docs/design/certify.md): over the box T = x* ± gamma on the moving
// coordinates `dims` (all by default; the others stay at x*; optionally clipped to `validRange`),
//
//   root      bounds of the latent mean, latent variance and probability over all of T at once
//   minimum   [lower, upper] holding min_T p(y = 1 | x), with a witness x in T where p = upper
//   maximum   [lower, upper] holding max_T p, with a witness where p = lower
//   gpfgs     the one-step GPFGS attack the paper compares with
//   verdictCanFlip  'yes' (the adversarial witness is classified the other way), 'no' (certified), 'unknown'
//
//   const c = gpc.certifyRobustness(point, { gamma: 0.2, onProgress: (p) => plot(p.detail) });
//   const rows = gpc.robustnessSweep(point, [0, 0.5, 1], { search: 'adversarial' });   // the paper's Fig. 2
//
// Branch and bound reports after each split: { stage, done, total, detail: { kind: 'interval', extremum,
// iterations, lower, upper } }, the searched extreme's current interval; returning false (or an aborted
// signal) stops it with status 'cancelled' and the valid intervals reached. All numbers are the core's;
// this file moves them across (the CLI's `gpprobe robustness` JSON, in camelCase).
import type {
  ClassifierHandle,
  IntervalValue,
  ProbabilityExtremeValue,
  RobustnessCertificateValue,
  RobustnessSettings,
} from '../generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from '../errors.ts';
import type { IntervalDetail, ProgressListener } from '../progress.ts';
import { CERTIFY_DEFAULTS } from '../vocabulary.ts';

export type RobustnessSearch = 'both' | 'adversarial';
/** The variance bounds of every box: ours ('both': the reference's relaxation and a centred form), or
 * the reference's relaxation alone (the paper's algorithm, for comparison), or the centred form alone. */
export type VarianceBounds = 'both' | 'centred' | 'relaxation';
/** Why a search stopped: U − L ≤ tolerance, or a limit, or cancel (the interval reached is valid). */
export type SearchStatus = 'converged' | 'iteration_limit' | 'time_limit' | 'min_box' | 'cancelled';
export type VerdictFlip = 'yes' | 'no' | 'unknown';

export type Interval = IntervalValue;

/** [lower, upper] holding an extreme of p over T; `witness` (d values in T) is where the attained end was
 * found (upper for the minimum, lower for the maximum); `iterations`: boxes split. */
export type ProbabilityExtreme = Omit<ProbabilityExtremeValue, 'status'> & { status: SearchStatus };

/** x*'s p(y = 1) (`probabilityAtPoint`; class 1 above ½), the ends of T (`box`; fixed coordinates have
 * lower = upper = x*), the `root` bounds over all of T at once, both extremes, GPFGS, and the verdict. */
export type RobustnessCertificate = Omit<
  RobustnessCertificateValue,
  'code' | 'message' | 'minimum' | 'maximum' | 'verdictCanFlip'
> & {
  minimum: ProbabilityExtreme;
  maximum: ProbabilityExtreme;
  verdictCanFlip: VerdictFlip;
};

/** The box and the stopping rule of a branch-and-bound search over it: a certificate's (robustness) and each
 * feature's in an explanation (explain.ts). Their defaults differ; each says its own. */
export interface BoxSearchOptions {
  /** Half-width of the L∞ box (each side's length from x*), ≥ 0. */
  gamma: number;
  /** Moving coordinates (distinct, 0-based); default all. */
  dims?: ArrayLike<number>;
  /** Clip the moving coordinates to [lo, hi] (e.g. [0, 1] for pixels); x* must lie inside. */
  validRange?: readonly [number, number] | null;
  /** Each search stops when U − L ≤ tolerance. */
  tolerance?: number;
  /** Boxes split per search. */
  maxIterations?: number;
  /** Seconds per search; 0 (the default): none. */
  timeLimitSeconds?: number;
}

/** gamma is ignored by robustnessSweep; tolerance defaults to CERTIFY_DEFAULTS.robustness.tolerance (0.01),
 * maxIterations to 10,000. */
export interface RobustnessOptions extends BoxSearchOptions {
  /** Refine both extremes (the default) or only the adversarial one (π_min if p(x*) > ½, else π_max). */
  search?: RobustnessSearch;
  variance?: VarianceBounds;
  /** Stage "branch and bound: minimum" / "…: maximum" after each split, with the interval as `detail`
   * (robustnessSweep: stage "gamma sweep", done = gammas finished, no detail). Returning false cancels. */
  onProgress?: ProgressListener;
  signal?: AbortSignal;
}

function settings(options: RobustnessOptions, gamma: number): RobustnessSettings {
  const d = CERTIFY_DEFAULTS.robustness;
  if (typeof gamma !== 'number')
    throw new GpprobeError('invalid_argument', `gamma must be a number, got ${String(gamma)}`);
  const range = options.validRange ?? null;
  if (range !== null && !(Array.isArray(range) && range.length === 2)) {
    throw new GpprobeError('invalid_argument', 'validRange must be [lo, hi] or null');
  }
  return {
    gamma,
    dims: Float64Array.from(options.dims ?? []),
    validRange: range ? [range[0], range[1]] : null,
    tolerance: options.tolerance ?? d.tolerance,
    maxIterations: options.maxIterations ?? d.maxIterations,
    timeLimitSeconds: options.timeLimitSeconds ?? d.timeLimitSeconds,
    search: options.search ?? d.search,
    variance: options.variance ?? d.variance,
  };
}

function certificate(v: RobustnessCertificateValue): RobustnessCertificate {
  const { code: _code, message: _message, ...c } = v;
  return {
    ...c,
    minimum: { ...c.minimum, status: c.minimum.status as SearchStatus },
    maximum: { ...c.maximum, status: c.maximum.status as SearchStatus },
    verdictCanFlip: c.verdictCanFlip as VerdictFlip,
  };
}

/** The core's (done, total) callback and its interval callback, reporting one progress per split. */
function searchProgress(options: RobustnessOptions) {
  const { onProgress: listener, signal } = options;
  if (!listener && !signal) return { progress: null, onInterval: null };
  let pending: IntervalDetail | null = null;
  return {
    progress: (done: number, total: number) => {
      const detail = pending;
      pending = null;
      const stage = `branch and bound: ${detail?.extremum ?? 'searching'}`;
      return listener?.({ stage, done, total, ...(detail ? { detail } : {}) }) !== false && !signal?.aborted;
    },
    onInterval: listener
      ? (extremum: 'minimum' | 'maximum', iterations: number, lower: number, upper: number) => {
          pending = { kind: 'interval', extremum, iterations, lower, upper };
        }
      : null,
  };
}

/** @internal GpClassifier.certifyRobustness. */
export function certifyWith(
  handle: ClassifierHandle,
  point: ArrayLike<number>,
  options: RobustnessOptions,
): RobustnessCertificate {
  const { progress, onInterval } = searchProgress(options);
  return certificate(
    throwIfFailed(
      handle.certifyRobustness(Float64Array.from(point), settings(options, options.gamma), progress, onInterval),
    ),
  );
}

/** @internal GpClassifier.robustnessSweep. */
export function sweepWith(
  handle: ClassifierHandle,
  point: ArrayLike<number>,
  gammas: ArrayLike<number>,
  options: Omit<RobustnessOptions, 'gamma'>,
): RobustnessCertificate[] {
  const { onProgress: listener, signal } = options;
  const progress =
    listener || signal
      ? (done: number, total: number) => listener?.({ stage: 'gamma sweep', done, total }) !== false && !signal?.aborted
      : null;
  const r = throwIfFailed(
    handle.robustnessSweep(
      Float64Array.from(point),
      Float64Array.from(gammas),
      settings({ ...options, gamma: 0 }, 0),
      progress,
    ),
  );
  return r.certificates.map(certificate);
}
