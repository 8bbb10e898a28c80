// The analyses behind the app's views, from the core: the PCA map of the embeddings, belief densities
// of g = sigmoid(f) (paper Eq. 8 beside the exact Beta), the belief at an observed point (Figs 9-11)
// and the prior belief, and the belief envelope that bounds the rational region of judged probability
// vs episteme. Every parameter of a belief (the Beta's, the latent mean and variance) comes from the core.
import type { GpprobeModule } from '../generated/gpprobe.mjs';
import { throwIfFailed } from '../errors.ts';
import { HeapScope } from '../heap.ts';
import type { ProbeEngine } from './probe_engine.ts';
import { coreProgress, type ProgressListener } from '../progress.ts';
import type { MatrixInput } from '../resident_matrix.ts';

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
  engine: ProbeEngine,
  x: MatrixInput,
  options: { k?: number; seed?: number; onProgress?: ProgressListener } = {},
): PrincipalComponents {
  const k = options.k ?? 2;
  const module = engine.module;
  const heap = new HeapScope(module);
  try {
    const m = heap.matrix(x, 'embeddings');
    const scores = heap.allocate(m.rows * k * 8, 'PCA scores');
    const components = heap.allocate(k * m.cols * 8, 'PCA components');
    const explained = heap.allocate((k + 1) * 8, 'explained variance');
    throwIfFailed(
      module.principalComponents(
        m.pointer,
        m.rows,
        m.cols,
        m.dtype,
        k,
        options.seed ?? 1,
        scores,
        components,
        explained,
        coreProgress('computing the map', options.onProgress),
      ),
    );
    const e = heap.readFloat64(explained, k + 1);
    return {
      scores: heap.readFloat64(scores, m.rows * k),
      components: heap.readFloat64(components, k * m.cols),
      explainedVariance: e.slice(0, k),
      totalVariance: e[k],
      k,
    };
  } finally {
    heap.free();
  }
}

/** A density of the core at each y of `grid` (0 < y < 1). */
function densities(
  module: GpprobeModule,
  grid: Float64Array,
  write: (grid: number, out: number) => { code: string; message: string },
): Float64Array {
  const heap = new HeapScope(module);
  try {
    const out = heap.allocate(grid.length * 8, 'densities');
    throwIfFailed(write(heap.copyIn(grid, 'grid'), out));
    return heap.readFloat64(out, grid.length);
  } finally {
    heap.free();
  }
}

/** The logit-normal density of g = sigmoid(f), f ~ N(mean, variance), at each y of `grid` (paper Eq. 8). */
export function logitNormalDensities(
  engine: ProbeEngine,
  grid: Float64Array,
  latent: { mean: number; variance: number },
): Float64Array {
  return densities(engine.module, grid, (y, out) =>
    engine.module.logitNormalDensities(y, grid.length, latent.mean, latent.variance, out),
  );
}

/** The Beta(a, b) density at each y of `grid`. */
export function betaDensities(engine: ProbeEngine, grid: Float64Array, beta: { a: number; b: number }): Float64Array {
  return densities(engine.module, grid, (y, out) => engine.module.betaDensities(y, grid.length, beta.a, beta.b, out));
}

export interface Belief {
  /** Exact belief Beta(betaA, betaB). */
  betaA: number;
  betaB: number;
  /** The probe's approximation: g = sigmoid(f), f ~ N(latentMean, latentVariance). */
  latentMean: number;
  latentVariance: number;
}

/** The belief at a point observed `positives` times with label 1 and `negatives` times with label 0. */
export function beliefAtObservedPoint(
  engine: ProbeEngine,
  epsilon: number,
  strength: number,
  positives: number,
  negatives: number,
): Belief {
  const { betaA, betaB, latentMean, latentVariance } = throwIfFailed(
    engine.module.beliefAtObservedPoint(epsilon, strength, positives, negatives),
  );
  return { betaA, betaB, latentMean, latentVariance };
}

/** The prior belief at any point: Beta(epsilon, epsilon), and f ~ N(0, 2 v(epsilon)) whatever the strength. */
export function priorBelief(engine: ProbeEngine, epsilon: number): Belief {
  const { betaA, betaB, latentMean, latentVariance } = throwIfFailed(engine.module.priorBelief(epsilon));
  return { betaA, betaB, latentMean, latentVariance };
}

/** The least episteme any belief of the probe can have at each judged probability (≥ 1/2; symmetric). */
export interface BeliefEnvelope {
  judgedProbability: Float64Array;
  episteme: Float64Array;
  /** The latent variance that attains it. */
  latentVariance: Float64Array;
}

export function beliefEnvelope(
  engine: ProbeEngine,
  epsilon: number,
  options: { points?: number; maxJudged?: number } = {},
): BeliefEnvelope {
  const points = options.points ?? 160;
  const module = engine.module;
  const heap = new HeapScope(module);
  try {
    const out = heap.allocate(3 * points * 8, 'envelope');
    throwIfFailed(module.beliefEnvelope(epsilon, points, options.maxJudged ?? 0.999, out));
    const all = heap.readFloat64(out, 3 * points);
    return {
      judgedProbability: all.slice(0, points),
      episteme: all.slice(points, 2 * points),
      latentVariance: all.slice(2 * points),
    };
  } finally {
    heap.free();
  }
}
