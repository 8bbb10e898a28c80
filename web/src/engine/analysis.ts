// The analyses behind the app's views, from the core: the PCA map of the embeddings, belief densities
// of g = sigmoid(f) (paper Eq. 8 beside the exact Beta), the belief at an observed point (Figs 9-11),
// and the belief envelope that bounds the rational region of judged probability vs episteme.
import { throwIfFailed } from './errors.ts';
import { HeapScope } from './heap.ts';
import type { ProbeEngine, ProgressListener } from './probe_engine.ts';
import type { MatrixInput } from './resident_matrix.ts';

export interface PrincipalComponents {
  /** rows by k coordinates, row-major. */
  scores: Float64Array;
  /** k by cols unit vectors, row-major. */
  components: Float64Array;
  explainedVariance: Float64Array;
  totalVariance: number;
  k: number;
}

export function principalComponents(
  engine: ProbeEngine, x: MatrixInput, options: { k?: number; seed?: number; onProgress?: ProgressListener } = {},
): PrincipalComponents {
  const k = options.k ?? 2;
  const module = engine.module;
  const heap = new HeapScope(module);
  try {
    const m = heap.matrix(x, 'embeddings');
    const scores = heap.allocate(m.rows * k * 8, 'PCA scores');
    const components = heap.allocate(k * m.cols * 8, 'PCA components');
    const explained = heap.allocate((k + 1) * 8, 'explained variance');
    const progress = options.onProgress;
    throwIfFailed(module.principalComponents(m.pointer, m.rows, m.cols, m.dtype, k, options.seed ?? 1,
      scores, components, explained, progress ? (done, total) => { progress(done, total); return true; } : null));
    const e = heap.readFloat64(explained, k + 1);
    return {
      scores: heap.readFloat64(scores, m.rows * k), components: heap.readFloat64(components, k * m.cols),
      explainedVariance: e.slice(0, k), totalVariance: e[k], k,
    };
  } finally {
    heap.free();
  }
}

/** Densities at each y of `grid` (0 < y < 1): logit-normal(mean, variance) and Beta(a, b). */
export function beliefDensities(
  engine: ProbeEngine, grid: Float64Array, latent: { mean: number; variance: number }, beta: { a: number; b: number },
): { logitNormal: Float64Array; beta: Float64Array } {
  const module = engine.module;
  const heap = new HeapScope(module);
  try {
    const y = heap.copyIn(grid, 'grid');
    const ln = heap.allocate(grid.length * 8, 'densities');
    const be = heap.allocate(grid.length * 8, 'densities');
    throwIfFailed(module.beliefDensities(y, grid.length, latent.mean, latent.variance, beta.a, beta.b, ln, be));
    return { logitNormal: heap.readFloat64(ln, grid.length), beta: heap.readFloat64(be, grid.length) };
  } finally {
    heap.free();
  }
}

export interface BeliefAtObservedPoint {
  /** Exact belief Beta(betaA, betaB). */
  betaA: number;
  betaB: number;
  /** The probe's approximation: g = sigmoid(f), f ~ N(latentMean, latentVariance). */
  latentMean: number;
  latentVariance: number;
}

/** The belief at a point observed `positives` times with label 1 and `negatives` times with label 0. */
export function beliefAtObservedPoint(
  engine: ProbeEngine, epsilon: number, strength: number, positives: number, negatives: number,
): BeliefAtObservedPoint {
  const module = engine.module;
  const heap = new HeapScope(module);
  try {
    const out = heap.allocate(4 * 8, 'belief');
    throwIfFailed(module.beliefAtObservedPoint(epsilon, strength, positives, negatives, out));
    const [betaA, betaB, latentMean, latentVariance] = heap.readFloat64(out, 4);
    return { betaA, betaB, latentMean, latentVariance };
  } finally {
    heap.free();
  }
}

/** The least episteme any belief of the probe can have at each judged probability (≥ 1/2; symmetric). */
export interface BeliefEnvelope {
  judgedProbability: Float64Array;
  episteme: Float64Array;
  /** The latent variance that attains it. */
  latentVariance: Float64Array;
}

export function beliefEnvelope(
  engine: ProbeEngine, epsilon: number, options: { points?: number; maxJudged?: number } = {},
): BeliefEnvelope {
  const points = options.points ?? 160;
  const module = engine.module;
  const heap = new HeapScope(module);
  try {
    const out = heap.allocate(3 * points * 8, 'envelope');
    throwIfFailed(module.beliefEnvelope(epsilon, points, options.maxJudged ?? 0.999, out));
    const all = heap.readFloat64(out, 3 * points);
    return { judgedProbability: all.slice(0, points), episteme: all.slice(points, 2 * points), latentVariance: all.slice(2 * points) };
  } finally {
    heap.free();
  }
}
