// Gaussian process regression for JavaScript: fit or optimise once, predict, sample and score anomalies
// any number of times. All numbers come from the C++ core (gp_regression.h and friends); this file
// only moves whole arrays in and out of the wasm heap.
//
//   const engine = await createRegressionEngine();
//   const data = engine.example('lecture', 1);
//   const gp = engine.optimize({ x: data.x, y: data.y, kernel: { name: 'rbf' }, noiseVariance: 0.1,
//                                restarts: 2, onProgress: (done, total) => bar(done / total) });
//   const p = gp.predict(grid);   // p.mean, p.latentVariance, p.observationVariance, p.knowledge, bands
//   gp.dispose();
import type {
  AnomalyExperimentData, GpprobeModule, RegressionHandle, RegressionState, RocCurveData,
} from './generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from './errors.ts';
import { HeapScope } from './heap.ts';
import { loadModule, type LoadOptions } from './load_module.ts';
import { checkMatrix, type Matrix } from './matrix.ts';

import {
  PREDICTION_COLUMNS,
  type AnomalyClassification, type AnomalyExperimentOptions, type AnomalyThresholds,
  type ExampleName, type FitRegressionOptions, type KernelSpec,
  type OptimizeOptions, type ProgressCallback, type RegressionExample, type RegressionPrediction,
} from './regression_types.ts';

export * from './regression_types.ts';

function float64(m: Matrix): Float64Array {
  return m.data instanceof Float64Array ? m.data : Float64Array.from(m.data);
}

function progressOf(onProgress?: ProgressCallback, signal?: AbortSignal): ((d: number, t: number) => boolean) | null {
  if (!onProgress && !signal) return null;
  return (done, total) => onProgress?.(done, total) !== false && !signal?.aborted;
}

export class GpRegression {
  readonly #module: GpprobeModule;
  #handle: RegressionHandle | null;

  /** @internal Use RegressionEngine.fit or .optimize. */
  constructor(module: GpprobeModule, handle: RegressionHandle) {
    this.#module = module;
    this.#handle = handle;
  }

  #live(): RegressionHandle {
    if (!this.#handle) throw new GpprobeError('disposed', 'this regression was disposed');
    return this.#handle;
  }

  /** Fitted kernel (as an expression), parameter names and values, noise, mean, log marginal likelihood. */
  get state(): RegressionState {
    return this.#live().state()!;
  }

  /** Predictions at every test point (blocks of 256 inside the core; onProgress after each). */
  predict(test: Matrix, options: { onProgress?: ProgressCallback; signal?: AbortSignal } = {}): RegressionPrediction {
    const handle = this.#live();
    checkMatrix('test', test);
    const m = test.rows;
    const heap = new HeapScope(this.#module);
    try {
      const input = heap.copyIn(float64(test), 'test inputs');
      const out = heap.allocate(8 * m * 8, 'predictions');
      throwIfFailed(handle.predict(input, m, test.cols, out, progressOf(options.onProgress, options.signal)));
      const result = {} as Record<(typeof PREDICTION_COLUMNS)[number], Float64Array>;
      PREDICTION_COLUMNS.forEach((column, k) => { result[column] = heap.readFloat64(out + k * m * 8, m); });
      return result;
    } finally {
      heap.free();
    }
  }

  /** `count` joint posterior samples of f at the test points (count by m, seeded; at most 4000 points). */
  sample(test: Matrix, count: number, seed = 0): Matrix {
    const handle = this.#live();
    checkMatrix('test', test);
    const heap = new HeapScope(this.#module);
    try {
      const input = heap.copyIn(float64(test), 'test inputs');
      const out = heap.allocate(count * test.rows * 8, 'samples');
      throwIfFailed(handle.sample(input, test.rows, test.cols, count, seed, out));
      return { data: heap.readFloat64(out, count * test.rows), rows: count, cols: test.rows };
    } finally {
      heap.free();
    }
  }

  /** Frees the wasm memory of this regression. Further calls throw a GpprobeError with code "disposed". */
  dispose(): void {
    this.#handle?.delete();
    this.#handle = null;
  }
}

export class RegressionEngine {
  readonly #module: GpprobeModule;

  constructor(module: GpprobeModule) {
    this.#module = module;
  }

  /** The kernel expression of a named choice (or the expression itself, unchanged). */
  kernelText(kernel: KernelSpec): string {
    if (typeof kernel === 'string') return kernel;
    const r = this.#module.kernelText(kernel.name, kernel.variance ?? 1, kernel.lengthScale ?? 1, kernel.period ?? 1,
      kernel.decay ?? 10, kernel.offset ?? 1);
    throwIfFailed(r.status);
    return r.kernel!;
  }

  /** Fits with the given hyperparameters (no optimisation). */
  fit(options: FitRegressionOptions): GpRegression {
    return this.#run(options, (handle, x, y) => handle.fit(
      x, options.x.rows, options.x.cols, y, this.kernelText(options.kernel), options.noiseVariance,
      options.mean ?? NaN));
  }

  /** Maximises the log marginal likelihood (bounded L-BFGS, seeded restarts), then fits with the optimum. */
  optimize(options: OptimizeOptions): GpRegression {
    return this.#run(options, (handle, x, y) => handle.optimize(
      x, options.x.rows, options.x.cols, y, this.kernelText(options.kernel), options.noiseVariance,
      options.mean ?? NaN, (options.fixed ?? []).join(','), options.restarts ?? 0, options.seed ?? 0,
      options.maxIterations ?? 200, progressOf(options.onProgress, options.signal)));
  }

  #run(
    options: FitRegressionOptions,
    call: (handle: RegressionHandle, x: number, y: number) => { code: string; message: string },
  ): GpRegression {
    checkMatrix('x', options.x);
    if (!(options.y instanceof Float64Array)) throw new GpprobeError('invalid_argument', 'y must be a Float64Array');
    if (options.y.length !== options.x.rows) {
      throw new GpprobeError('dimension_mismatch',
        `training targets have ${options.y.length} values, training inputs have ${options.x.rows} rows`);
    }
    const handle = new this.#module.RegressionHandle();
    const heap = new HeapScope(this.#module);
    try {
      throwIfFailed(call(handle, heap.copyIn(float64(options.x), 'training inputs'), heap.copyIn(options.y, 'training targets')));
    } catch (error) {
      handle.delete();
      throw error;
    } finally {
      heap.free();
    }
    return new GpRegression(this.#module, handle);
  }

  /** `count` joint samples of the prior GP(mean, k) at the test points (count by m). */
  samplePrior(kernel: KernelSpec, test: Matrix, count: number, seed = 0, mean = 0): Matrix {
    checkMatrix('test', test);
    const heap = new HeapScope(this.#module);
    try {
      const input = heap.copyIn(float64(test), 'test inputs');
      const out = heap.allocate(count * test.rows * 8, 'prior samples');
      throwIfFailed(this.#module.samplePrior(this.kernelText(kernel), mean, input, test.rows, test.cols, count, seed, out));
      return { data: heap.readFloat64(out, count * test.rows), rows: count, cols: test.rows };
    } finally {
      heap.free();
    }
  }

  /** Two-stage anomaly detection of test targets against a prediction (paper 001, Fig. 2). */
  classify(y: Float64Array, prediction: Pick<RegressionPrediction, 'mean' | 'observationVariance' | 'knowledge'>,
    thresholds: AnomalyThresholds): AnomalyClassification {
    const n = y.length;
    for (const column of ['mean', 'observationVariance', 'knowledge'] as const) {
      if (prediction[column].length !== n) {
        throw new GpprobeError('dimension_mismatch', `prediction.${column} has ${prediction[column].length} values, y has ${n}`);
      }
    }
    const heap = new HeapScope(this.#module);
    try {
      const out = heap.allocate(n, 'statuses');
      const scores = heap.allocate(n * 8, 'anomaly scores');
      throwIfFailed(this.#module.classifyPoints(
        heap.copyIn(y, 'test targets'), heap.copyIn(prediction.mean, 'mean'),
        heap.copyIn(prediction.observationVariance, 'observation variance'), heap.copyIn(prediction.knowledge, 'knowledge'),
        n, thresholds.rho, thresholds.theta ?? 3, out, scores));
      return { statuses: heap.readUint8(out, n), scores: heap.readFloat64(scores, n) };
    } finally {
      heap.free();
    }
  }

  /** ROC curves of `scores` for `isAnomaly`, one per rho over the points with knowledge >= rho (null: ungated). */
  rocSweep(scores: Float64Array, isAnomaly: Uint8Array, knowledge: Float64Array | null, rhos: number[]): RocCurveData[] {
    const n = scores.length;
    if (isAnomaly.length !== n || (knowledge && knowledge.length !== n)) {
      throw new GpprobeError('dimension_mismatch', `scores have ${n} values, labels ${isAnomaly.length}` +
        (knowledge ? `, knowledge ${knowledge.length}` : ''));
    }
    const heap = new HeapScope(this.#module);
    try {
      return this.#module.rocSweep(heap.copyIn(scores, 'scores'), heap.copyIn(isAnomaly, 'labels'),
        knowledge ? heap.copyIn(knowledge, 'knowledge') : 0, n, heap.copyIn(Float64Array.from(rhos), 'rhos'), rhos.length);
    } finally {
      heap.free();
    }
  }

  /** A bundled, seeded example data set. */
  example(name: ExampleName, seed = 0): RegressionExample {
    const e = this.#module.regressionExample(name, seed);
    throwIfFailed(e.status);
    return {
      name, y: e.y, heldOutY: e.heldOutY, lower: e.lower, upper: e.upper, noiseSd: e.noiseSd,
      x: { data: e.x, rows: e.x.length, cols: 1 },
      heldOutX: { data: e.heldOutX, rows: e.heldOutX.length, cols: 1 },
    };
  }

  /** The noise-free function of an example at the given points. */
  exampleTruth(name: ExampleName, x: Float64Array): Float64Array {
    const heap = new HeapScope(this.#module);
    try {
      const out = heap.allocate(x.length * 8, 'truth');
      throwIfFailed(this.#module.exampleTruth(name, heap.copyIn(x, 'x'), x.length, out));
      return heap.readFloat64(out, x.length);
    } finally {
      heap.free();
    }
  }

  /** The paper's Fig. 3 experiment in one call (anomaly_experiment.h). */
  anomalyExperiment(options: AnomalyExperimentOptions = {}): AnomalyExperimentData {
    const rhos = Float64Array.from(options.rhos ?? [0.1, 0.3, 0.5, 0.7, 0.9]);
    const heap = new HeapScope(this.#module);
    try {
      const r = this.#module.anomalyExperiment(options.seed ?? 0, options.statusRho ?? 0.5, options.theta ?? 3,
        heap.copyIn(rhos, 'rhos'), rhos.length, progressOf(options.onProgress));
      throwIfFailed(r.status);
      return r;
    } finally {
      heap.free();
    }
  }
}

/** Loads the wasm module (once per call) and returns a regression engine over it. */
export async function createRegressionEngine(options: LoadOptions = {}): Promise<RegressionEngine> {
  return new RegressionEngine(await loadModule(options));
}
