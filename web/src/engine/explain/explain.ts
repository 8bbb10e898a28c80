// Why did the model decide that, for JavaScript: the certified feature sensitivity Δ^i_γ (Blaas et al.,
// AISTATS 2020, eqs. 21–26; the core's feature_sensitivity.h) of a model's output at one or more points,
// beside LIME's local linear surrogate (lime.h). For feature i, over the one-sided boxes
// T+ = [x, x + γ e_i] and T− = [x − γ e_i, x] (clipped to `validRange`),
//
//   Δ_i = (π_max(T+) − π_max(T−)) + (π_min(T+) − π_min(T−))
//
// each extreme certified by branch and bound, so Δ comes as an interval [deltaLower, deltaUpper] with its
// value at the witnesses (`delta`); positive when raising feature i raises the output. Over several points
// the means are the global metric (eq. 26). The outputs:
//
//   gpc.explain(points, { gamma: 0.1 })                   GpClassifier: p(y = +1)
//   multiclass.explain(points, { gamma: 0.1, classIndex }) MulticlassGpClassifier: class c's probability
//   explainProbe(probe, queries, { gamma: 0.1 })          Probe: the judged probability over embedding dimensions
//
// Features constant in training (`constantInTraining`: their training values, or the probe's
// observations, span at most 1e-6 of their scale, max(1, largest |value|)) are left out of rankFeatures
// unless asked: moving such a feature (a border pixel that is 0 in every image) moves the point away from
// all the data, so the output drifts towards the prior (½ for a binary classifier, 1/C for a softmax one):
// its Δ measures distance from the data, not evidence. Their Δ is still computed and exported. So are the
// features nearly constant in training (`nearlyConstantInTraining`: off their most common training value
// in at least 1 and fewer than max(2, nearlyConstantShare × n) of the n rows, `varyingRows` counting them;
// default share 0.02): a length-scale learns only from pairs of rows that differ in its feature, so such a
// feature's length-scale hardly moves in training, and moving the feature takes the point where the data
// have hardly been. They are treated as the constant ones.
//
// Progress: stage "feature sensitivity", done = (point, feature) pairs finished of m × k; returning false
// (or an aborted signal) cancels with a GpprobeError 'cancelled'. In the threaded module the pairs run on
// the pool, with the same numbers on any thread count. All numbers are the core's (= `gpprobe explain`).
import type { ExplainSettings, ExplainValue } from '../generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from '../errors.ts';
import { coreProgress, type ProgressListener } from '../progress.ts';
import type { BoxSearchOptions } from '../certify/classification_certify.ts';
import type { Probe } from '../probe/probe_engine.ts';

/** The defaults of gpprobe explain: the authors' search tolerance and iteration budget, LIME's 5,000 samples. */
export const EXPLAIN_DEFAULTS = {
  tolerance: 1e-3,
  maxIterations: 1000,
  timeLimitSeconds: 0,
  limeSamples: 5000,
  seed: 0,
  nearlyConstantShare: 0.02,
} as const;

/** The CSV header of every explanation export, the same as `gpprobe explain`'s. */
export const EXPLAIN_CSV_HEADER =
  'feature,delta_lower,delta,delta_upper,lime,rank,constant_in_training,nearly_constant_in_training,varying_rows';

/** Why features constant in training are not ranked (for the app's and the CLI's words). */
export const CONSTANT_FEATURE_NOTE =
  'Features that never vary in the training data are not ranked: moving one moves the point away from all ' +
  'the data, so the output drifts towards the prior — distance from the data, not evidence.';

/** Why features nearly constant in training are not ranked either (varying in `rows` of `n` rows). */
export function nearlyConstantNote(share: number = EXPLAIN_DEFAULTS.nearlyConstantShare): string {
  return (
    `Features that vary in just one or fewer than ${share * 100} % of the training rows are not ranked either: their ` +
    'length-scale learns only from the few pairs of rows that differ in them, and moving one moves the point ' +
    'where the data have hardly been.'
  );
}

/** gamma > 0; dims: the features explained (default all), each point must lie inside validRange on them;
 * tolerance defaults to 0.001, maxIterations to 1,000 (EXPLAIN_DEFAULTS). timeLimitSeconds (0: none) is the
 * whole call's, one clock for every feature's and point's searches: a search reached after it bounds its box
 * without splitting it (sound, wider Delta; counted in `unconverged`). */
export interface ExplainOptions extends BoxSearchOptions {
  /** LIME's samples (the point included; default 5,000); 0: no LIME. */
  limeSamples?: number;
  /** LIME's sampling seed (default 0); point p uses seed + p. */
  seed?: number;
  /** Nearly constant: off the most common training value in fewer than max(2, share × n) rows (default
   * 0.02; 0 marks only constant features). In [0, 1]. */
  nearlyConstantShare?: number;
  /** What LIME switches a feature off to (d values): the training mean for tabular data, 0 for pixels.
   * Default: 0 for every feature. */
  baseline?: ArrayLike<number> | null;
  onProgress?: ProgressListener;
  signal?: AbortSignal;
}

/** m points, k features; the m × k arrays are row-major (point p's features at p·k … p·k + k − 1). */
export interface Explanation {
  features: number[];
  points: number;
  /** m: the output at each point. */
  values: Float64Array;
  deltaLower: Float64Array;
  delta: Float64Array;
  deltaUpper: Float64Array;
  /** k: the means over the points. */
  meanDeltaLower: Float64Array;
  meanDelta: Float64Array;
  meanDeltaUpper: Float64Array;
  /** k: whether each feature is constant in the model's training inputs (see above). */
  constantInTraining: boolean[];
  /** k: whether each feature is nearly constant in training (see above). */
  nearlyConstantInTraining: boolean[];
  /** k: the training rows off each feature's most common value. */
  varyingRows: Float64Array;
  /** m × k: LIME's coefficients (empty without LIME). */
  lime: Float64Array;
  limeIntercept: Float64Array;
  limeScore: Float64Array;
  limeKernelWidth: number;
  /** Searches that stopped at a limit (their intervals are valid but wider than the tolerance). */
  unconverged: number;
}

/** @internal The bindings' settings from the options. */
export function explainSettings(options: ExplainOptions): ExplainSettings {
  if (typeof options.gamma !== 'number' || !(options.gamma > 0) || !Number.isFinite(options.gamma)) {
    throw new GpprobeError('invalid_argument', `gamma must be a finite number > 0, got ${String(options.gamma)}`);
  }
  const range = options.validRange ?? null;
  if (range !== null && !(Array.isArray(range) && range.length === 2)) {
    throw new GpprobeError('invalid_argument', 'validRange must be [lo, hi] or null');
  }
  const d = EXPLAIN_DEFAULTS;
  return {
    gamma: options.gamma,
    dims: Float64Array.from(options.dims ?? []),
    validRange: range ? [range[0], range[1]] : null,
    tolerance: options.tolerance ?? d.tolerance,
    maxIterations: options.maxIterations ?? d.maxIterations,
    timeLimitSeconds: options.timeLimitSeconds ?? d.timeLimitSeconds,
    limeSamples: options.limeSamples ?? d.limeSamples,
    seed: options.seed ?? d.seed,
    nearlyConstantShare: options.nearlyConstantShare ?? d.nearlyConstantShare,
    baseline: options.baseline ? Float64Array.from(options.baseline) : null,
  };
}

/** @internal The bindings' progress callback. */
export function explainProgress(options: ExplainOptions) {
  return coreProgress('feature sensitivity', options.onProgress, options.signal);
}

/** @internal An explanation from the bindings' value. */
export function explanation(v: ExplainValue): Explanation {
  const {
    code: _code,
    message: _message,
    features,
    constantInTraining,
    nearlyConstantInTraining,
    ...rest
  } = throwIfFailed(v);
  return {
    ...rest,
    features: Array.from(features),
    constantInTraining: Array.from(constantInTraining, (c) => c !== 0),
    nearlyConstantInTraining: Array.from(nearlyConstantInTraining, (c) => c !== 0),
  };
}

/** @internal The rows of points as one Float64Array (m × d values). */
export function pointRows(points: ArrayLike<number> | readonly ArrayLike<number>[]): Float64Array {
  const list = points as readonly ArrayLike<number>[];
  if (list.length > 0 && typeof list[0] === 'object') {
    const d = list[0].length;
    const out = new Float64Array(list.length * d);
    list.forEach((row, p) => {
      if (row.length !== d)
        throw new GpprobeError('dimension_mismatch', `point ${p} has ${row.length} values, point 0 has ${d}`);
      out.set(Array.from(row), p * d);
    });
    return out;
  }
  return Float64Array.from(points as ArrayLike<number>);
}

/** Δ and LIME of the probe's judged probability over embedding dimensions at the queries (one row of the
 * probe's dimension each). */
export function explainProbe(
  probe: Probe,
  queries: ArrayLike<number> | readonly ArrayLike<number>[],
  options: ExplainOptions,
): Explanation {
  const { handle } = probe.binding;
  return explanation(handle.explain(pointRows(queries), explainSettings(options), explainProgress(options)));
}

/** The k features of one point (positions in e.features), largest certified |Δ| first: an interval that
 * excludes 0 by its distance from 0, then the interval's end farthest from 0, then |delta| (the core's
 * rank_features), so a feature whose whole interval sits far from 0 comes before one that only might.
 * Features constant or nearly constant in training are left out unless `includeConstant`. */
export function rankFeatures(e: Explanation, point = 0, includeConstant = false): number[] {
  const k = e.features.length;
  const constant = e.constantInTraining ?? [];
  const nearly = e.nearlyConstantInTraining ?? [];
  const reach = (a: number) => Math.max(Math.abs(e.deltaLower[point * k + a]), Math.abs(e.deltaUpper[point * k + a]));
  const certain = (a: number) => {
    const lo = e.deltaLower[point * k + a],
      hi = e.deltaUpper[point * k + a];
    return lo > 0 ? lo : hi < 0 ? -hi : 0;
  };
  return [...Array(k).keys()]
    .filter((a) => includeConstant || !(constant[a] || nearly[a]))
    .sort(
      (a, b) =>
        certain(b) - certain(a) ||
        reach(b) - reach(a) ||
        Math.abs(e.delta[point * k + b]) - Math.abs(e.delta[point * k + a]) ||
        a - b,
    );
}

/** One point's explanation as `gpprobe explain` writes it: header
 * feature,delta_lower,delta,delta_upper,lime,rank,constant_in_training,nearly_constant_in_training,
 * varying_rows and one row per feature (numbers in their shortest exact form; lime empty without LIME; rank
 * by rankFeatures, empty for a feature constant or nearly constant in training unless `includeConstant`;
 * yes/no; the count). With `point` = 'mean', the means over the points, LIME's mean
 * coefficient, and the rank of the mean Δ. */
export function explanationCsv(e: Explanation, point: number | 'mean' = 0, includeConstant = false): string {
  const k = e.features.length,
    m = e.points;
  const rows = [EXPLAIN_CSV_HEADER];
  const ranked =
    point === 'mean'
      ? rankFeatures(
          {
            ...e,
            points: 1,
            deltaLower: e.meanDeltaLower,
            delta: e.meanDelta,
            deltaUpper: e.meanDeltaUpper,
          },
          0,
          includeConstant,
        )
      : rankFeatures(e, point, includeConstant);
  const rank = new Array<number | null>(k).fill(null);
  ranked.forEach((a, r) => (rank[a] = r + 1));
  for (let a = 0; a < k; a++) {
    let lower: number,
      delta: number,
      upper: number,
      lime: number | null = null;
    if (point === 'mean') {
      lower = e.meanDeltaLower[a];
      delta = e.meanDelta[a];
      upper = e.meanDeltaUpper[a];
      if (e.lime.length) {
        lime = 0;
        for (let p = 0; p < m; p++) lime += e.lime[p * k + a] / m;
      }
    } else {
      const i = point * k + a;
      lower = e.deltaLower[i];
      delta = e.delta[i];
      upper = e.deltaUpper[i];
      if (e.lime.length) lime = e.lime[i];
    }
    const constant = e.constantInTraining?.[a] ? 'yes' : 'no';
    const nearly = e.nearlyConstantInTraining?.[a] ? 'yes' : 'no';
    const varying = e.varyingRows?.[a] ?? 0;
    rows.push(
      `${e.features[a]},${lower},${delta},${upper},${lime === null ? '' : lime},${rank[a] ?? ''},${constant},` +
        `${nearly},${varying}`,
    );
  }
  return rows.join('\n') + '\n';
}
