// Gaussian process regression for JavaScript: fit or optimise once, predict, sample and score anomalies
// any number of times. All numbers and names come from the C++ core (gp_regression.h and friends);
// this file only moves whole arrays in and out of the wasm heap.
//
//   const engine = await createRegressionEngine();
//   const data = engine.example('lecture', 1);
//   const gp = engine.optimize({ x: data.x, y: data.y, kernel: data.kernel, noiseVariance: 0.1,
//                                fixed: data.held, restarts: 2, onProgress: (p) => bar(p.done / p.total) });
//   gp.state.kernel.parameters['rbf.length_scale'];   // the learned value, bit for bit
//   const p = gp.predict(grid);   // p.mean, p.latentVariance, p.observationVariance, p.knowledge, bands
//   gp.dispose();
//
// Kernels cross as values (KernelSpec: a form and parameter values by the core's names), never as text.
import type { GpprobeModule, RegressionHandle } from '../generated/gpprobe.mjs';
import { kernelSpec, kernelValue } from './kernel_value.ts';
import { GpprobeError, throwIfFailed } from '../errors.ts';
import { filledHandle, HeapScope } from '../heap.ts';
import { loadModule, type LoadOptions } from '../load_module.ts';
import { checkMatrix, type Matrix } from '../matrix.ts';
import { coreProgress, type ProgressListener } from '../progress.ts';
import {
  PREDICTION_COLUMNS,
  type AnomalyClassification,
  type AnomalyExperimentData,
  type AnomalyExperimentOptions,
  type AnomalyThresholds,
  type FitRegressionOptions,
  type KernelSpec,
  type OptimizeOptions,
  type PredictionReport,
  type RegressionExample,
  type RegressionPrediction,
  type RegressionState,
  type RegressionVocabulary,
  type RocCurveData,
} from './regression_types.ts';
import { DEFAULTS } from '../vocabulary.ts';

export * from './regression_types.ts';

function float64(m: Matrix): Float64Array {
  return m.data instanceof Float64Array ? m.data : Float64Array.from(m.data);
}

interface Runs {
  runValues: Float64Array;
  iterations: number;
}

const NO_RUNS: Runs = { runValues: new Float64Array(0), iterations: 0 };

export class GpRegression {
  readonly #module: GpprobeModule;
  #handle: RegressionHandle | null;
  readonly #runs: Runs;

  /** @internal Use RegressionEngine.fit or .optimize. */
  constructor(module: GpprobeModule, handle: RegressionHandle, runs: Runs = NO_RUNS) {
    this.#module = module;
    this.#handle = handle;
    this.#runs = runs;
  }

  #live(): RegressionHandle {
    if (!this.#handle) throw new GpprobeError('disposed', 'this regression was disposed');
    return this.#handle;
  }

  /** Fitted kernel (every parameter by name), noise, mean, log marginal likelihood, and the optimiser's runs. */
  get state(): RegressionState {
    const s = throwIfFailed(this.#live().state());
    return {
      kernel: kernelSpec(s.kernel),
      description: s.description,
      noiseVariance: s.noiseVariance,
      mean: s.mean,
      logMarginalLikelihood: s.logMarginalLikelihood,
      size: s.size,
      dimension: s.dimension,
      runValues: this.#runs.runValues.slice(),
      iterations: this.#runs.iterations, // a copy: the caller may transfer it
    };
  }

  /** Predictions at every test point (blocks of 256 inside the core; progress "predicting" after each). */
  predict(test: Matrix, options: { onProgress?: ProgressListener; signal?: AbortSignal } = {}): PredictionReport {
    const handle = this.#live();
    checkMatrix('test', test);
    const m = test.rows;
    const heap = new HeapScope(this.#module);
    try {
      const input = heap.copyIn(float64(test), 'test inputs');
      const out = heap.allocate(8 * m * 8, 'predictions');
      const { clampedVariances } = throwIfFailed(
        handle.predict(input, m, test.cols, out, coreProgress('predicting', options.onProgress, options.signal)),
      );
      const result = { clampedVariances } as PredictionReport;
      PREDICTION_COLUMNS.forEach((column, k) => {
        result[column] = heap.readFloat64(out + k * m * 8, m);
      });
      return result;
    } finally {
      heap.free();
    }
  }

  /** `count` joint posterior samples of f at the test points (count by m, seeded; at most 4000 points),
   * and the jitter their covariance needed. */
  sample(test: Matrix, count: number, seed = 0): Matrix & { jitter: number } {
    const handle = this.#live();
    checkMatrix('test', test);
    const heap = new HeapScope(this.#module);
    try {
      const input = heap.copyIn(float64(test), 'test inputs');
      const out = heap.allocate(count * test.rows * 8, 'samples');
      const { jitter } = throwIfFailed(handle.sample(input, test.rows, test.cols, count, seed, out));
      return { data: heap.readFloat64(out, count * test.rows), rows: count, cols: test.rows, jitter };
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

  /** @internal Use createRegressionEngine (or pass a module another engine loaded, to share it). */
  constructor(module: GpprobeModule) {
    this.#module = module;
  }

  /** The named kernels with their parameters, the examples and the noise's name: the lab's words, from the core. */
  vocabulary(): RegressionVocabulary {
    const v = throwIfFailed(this.#module.vocabulary());
    return {
      kernels: v.kernels.map((k) => ({ name: k.name, title: k.title, kernel: kernelSpec(k.kernel) })),
      examples: v.examples.map(({ name, title }) => ({ name, title })),
      noiseParameter: v.noiseParameter,
    };
  }

  /** Fits with the given hyperparameters (no optimisation). */
  fit(options: FitRegressionOptions): GpRegression {
    return new GpRegression(
      this.#module,
      this.#run(options, (handle, x, y) =>
        handle.fit(
          x,
          options.x.rows,
          options.x.cols,
          y,
          kernelValue(options.kernel),
          options.noiseVariance,
          options.mean ?? NaN,
        ),
      ),
    );
  }

  /** Maximises the log marginal likelihood (bounded L-BFGS, seeded restarts), then fits with the optimum. */
  optimize(options: OptimizeOptions): GpRegression {
    let runs = NO_RUNS;
    const handle = this.#run(options, (h, x, y) => {
      const report = h.optimize(
        x,
        options.x.rows,
        options.x.cols,
        y,
        kernelValue(options.kernel),
        options.noiseVariance,
        {
          restarts: options.restarts ?? DEFAULTS.restarts,
          seed: options.seed ?? DEFAULTS.seed,
          maxIterations: options.maxIterations ?? DEFAULTS.maxIterations,
          mean: options.mean ?? NaN,
          fixed: options.fixed ?? [],
        },
        coreProgress('L-BFGS iterations', options.onProgress, options.signal),
      );
      runs = { runValues: report.runValues, iterations: report.iterations };
      return report;
    });
    return new GpRegression(this.#module, handle, runs);
  }

  #run(
    options: FitRegressionOptions,
    call: (handle: RegressionHandle, x: number, y: number) => { code: string; message: string },
  ): RegressionHandle {
    checkMatrix('x', options.x);
    if (!(options.y instanceof Float64Array)) throw new GpprobeError('invalid_argument', 'y must be a Float64Array');
    if (options.y.length !== options.x.rows) {
      throw new GpprobeError(
        'dimension_mismatch',
        `training targets have ${options.y.length} values, training inputs have ${options.x.rows} rows`,
      );
    }
    const handle = new this.#module.RegressionHandle();
    return filledHandle(this.#module, handle, (heap) =>
      call(handle, heap.copyIn(float64(options.x), 'training inputs'), heap.copyIn(options.y, 'training targets')),
    );
  }

  /** `count` joint samples of the prior GP(mean, k) at the test points (count by m). */
  samplePrior(kernel: KernelSpec | string, test: Matrix, count: number, seed = 0, mean = 0): Matrix {
    checkMatrix('test', test);
    const heap = new HeapScope(this.#module);
    try {
      const input = heap.copyIn(float64(test), 'test inputs');
      const out = heap.allocate(count * test.rows * 8, 'prior samples');
      throwIfFailed(this.#module.samplePrior(kernelValue(kernel), mean, input, test.rows, test.cols, count, seed, out));
      return { data: heap.readFloat64(out, count * test.rows), rows: count, cols: test.rows };
    } finally {
      heap.free();
    }
  }

  /** Two-stage anomaly detection of test targets against a prediction (Butler et al., "Trustworthy Prediction with Gaussian Process Knowledge Scores", Fig. 2). */
  classify(
    y: Float64Array,
    prediction: Pick<RegressionPrediction, 'mean' | 'observationVariance' | 'knowledge'>,
    thresholds: AnomalyThresholds,
  ): AnomalyClassification {
    const n = y.length;
    for (const column of ['mean', 'observationVariance', 'knowledge'] as const) {
      if (prediction[column].length !== n) {
        throw new GpprobeError(
          'dimension_mismatch',
          `prediction.${column} has ${prediction[column].length} values, y has ${n}`,
        );
      }
    }
    const heap = new HeapScope(this.#module);
    try {
      const out = heap.allocate(n, 'statuses');
      const scores = heap.allocate(n * 8, 'anomaly scores');
      throwIfFailed(
        this.#module.classifyPoints(
          heap.copyIn(y, 'test targets'),
          heap.copyIn(prediction.mean, 'mean'),
          heap.copyIn(prediction.observationVariance, 'observation variance'),
          heap.copyIn(prediction.knowledge, 'knowledge'),
          n,
          thresholds.rho,
          thresholds.theta ?? DEFAULTS.theta,
          out,
          scores,
        ),
      );
      return { statuses: heap.readUint8(out, n), scores: heap.readFloat64(scores, n) };
    } finally {
      heap.free();
    }
  }

  /** ROC curves of `scores` for `isAnomaly`, one per rho over the points with knowledge >= rho (null: ungated). */
  rocSweep(
    scores: Float64Array,
    isAnomaly: Uint8Array,
    knowledge: Float64Array | null,
    rhos: number[],
  ): RocCurveData[] {
    const n = scores.length;
    if (isAnomaly.length !== n || (knowledge && knowledge.length !== n)) {
      throw new GpprobeError(
        'dimension_mismatch',
        `scores have ${n} values, labels ${isAnomaly.length}` + (knowledge ? `, knowledge ${knowledge.length}` : ''),
      );
    }
    const heap = new HeapScope(this.#module);
    try {
      return throwIfFailed(
        this.#module.rocSweep(
          heap.copyIn(scores, 'scores'),
          heap.copyIn(isAnomaly, 'labels'),
          knowledge ? heap.copyIn(knowledge, 'knowledge') : 0,
          n,
          heap.copyIn(Float64Array.from(rhos), 'rhos'),
          rhos.length,
        ),
      ).curves;
    } finally {
      heap.free();
    }
  }

  /** A bundled, seeded example data set, with the model it is meant for. */
  example(name: string, seed = 0): RegressionExample {
    const e = throwIfFailed(this.#module.regressionExample(name, seed));
    return {
      name: e.name,
      title: e.title,
      inputName: e.inputName,
      y: e.y,
      heldOutY: e.heldOutY,
      lower: e.lower,
      upper: e.upper,
      noiseSd: e.noiseSd,
      x: { data: e.x, rows: e.x.length, cols: 1 },
      heldOutX: { data: e.heldOutX, rows: e.heldOutX.length, cols: 1 },
      kernel: kernelSpec(e.kernel),
      held: e.held,
      noiseVariance: e.noiseVariance,
    };
  }

  /** The noise-free function of an example at the given points. */
  exampleTruth(name: string, x: Float64Array): Float64Array {
    const heap = new HeapScope(this.#module);
    try {
      const out = heap.allocate(x.length * 8, 'truth');
      throwIfFailed(this.#module.exampleTruth(name, heap.copyIn(x, 'x'), x.length, out));
      return heap.readFloat64(out, x.length);
    } finally {
      heap.free();
    }
  }

  /** The paper's Fig. 3 experiment in one call (anomaly_experiment.h), with its model's grid predictions. */
  anomalyExperiment(options: AnomalyExperimentOptions = {}): AnomalyExperimentData {
    const {
      code: _code,
      message: _message,
      ...data
    } = throwIfFailed(
      this.#module.anomalyExperiment(
        {
          seed: options.seed ?? 0,
          statusRho: options.statusRho ?? DEFAULTS.rho,
          theta: options.theta ?? DEFAULTS.theta,
          rhos: Float64Array.from(options.rhos ?? DEFAULTS.rhos),
        },
        coreProgress('L-BFGS iterations', options.onProgress),
      ),
    );
    return data;
  }
}

/** Loads the wasm module (once per call) and returns a regression engine over it. */
export async function createRegressionEngine(options: LoadOptions = {}): Promise<RegressionEngine> {
  return new RegressionEngine(await loadModule(options));
}
