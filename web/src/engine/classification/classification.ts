// Binary GP classification for JavaScript: fit (or learn the hyperparameters) once, predict at any
// number of points. All numbers and names come from the C++ core (gp_classifier.h and friends); this
// file only moves whole arrays in and out of the wasm heap.
//
//   const engine = await createClassificationEngine();
//   const gpc = engine.fitClassifier({ inputs, labels, method: 'ep', likelihood: 'probit',
//                                      kernel: { signalVariance: 1, lengthScales: [0.5] } });
//   const p = gpc.predict(points);   // p.latentMean, p.latentVariance, p.probability (Float64Array)
//   gpc.state.logMarginalLikelihood, gpc.state.gradient;
//   const learned = engine.optimizeClassifier({ ...same, restarts: 2, onProgress: (p) => bar(p.done / p.total) });
//   gpc.dispose(); learned.dispose();
//
// likelihood 'softmax' fits C classes instead and returns a MulticlassGpClassifier (multiclass.ts).
//
// The kernel is k(x, x') = signalVariance · exp(−Σⱼ (xⱼ − x′ⱼ)² / (2 lengthScales[j]²)): the regression
// lab's constant × RBF kernel with constant.value = signalVariance and rbf.length_scale = lengthScales
// (the CLI's --signal-variance and --length-scales).
import type {
  ClassificationExampleValue,
  ClassificationVocabulary as VocabularyValue,
  ClassifierHandle,
  ClassifierStateValue,
  GpprobeModule,
} from '../generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from '../errors.ts';
import { HeapScope } from '../heap.ts';
import { loadModule, type LoadOptions } from '../load_module.ts';
import { checkCount, checkMatrix, type Matrix } from '../matrix.ts';
import { coreProgress, type ProgressListener } from '../progress.ts';
import {
  certifyWith,
  sweepWith,
  type RobustnessCertificate,
  type RobustnessOptions,
} from '../certify/classification_certify.ts';
import {
  explainProgress,
  explainSettings,
  explanation,
  pointRows,
  type Explanation,
  type ExplainOptions,
} from '../explain/explain.ts';
import { CLASSIFICATION_DEFAULTS as DEFAULTS } from '../vocabulary.ts';
import {
  fitMulticlass,
  optimizeMulticlass,
  type FitMulticlassOptions,
  type MulticlassGpClassifier,
  type OptimizeMulticlassOptions,
} from './multiclass.ts';
import {
  checkOptimizerCounts,
  checkTraining,
  float64,
  optimizationOf,
  trainedHandle,
  type Optimization,
  type TrainingLabels,
} from './training.ts';

export type ClassificationMethod = 'laplace' | 'ep';
export type ClassificationLikelihood = 'probit' | 'logistic';

/** The squared-exponential kernel's hyperparameters: one length-scale for every column, or one each. */
export interface ClassificationKernel {
  signalVariance: number;
  lengthScales: ArrayLike<number>;
}

export interface FitClassifierOptions {
  /** n by d training inputs. */
  inputs: Matrix;
  /** n labels, 0/1 or −1/+1 (one convention throughout). */
  labels: TrainingLabels;
  /** Default CLASSIFICATION_DEFAULTS.method ("laplace"). */
  method?: ClassificationMethod;
  /** Default CLASSIFICATION_DEFAULTS.likelihood ("probit"); EP takes probit only. */
  likelihood?: ClassificationLikelihood;
  /** Default: CLASSIFICATION_DEFAULTS' signal variance and length-scale (1, for every column). */
  kernel?: ClassificationKernel;
}

export interface OptimizeClassifierOptions extends FitClassifierOptions {
  /** Extra L-BFGS runs from seeded random starts; default CLASSIFICATION_DEFAULTS.restarts (0). */
  restarts?: number;
  seed?: number;
  /** L-BFGS iterations per run; default CLASSIFICATION_DEFAULTS.maxIterations (200). */
  maxIterations?: number;
  /** Learn one length-scale for every column (isotropic) instead of one each; default false. */
  sharedLengthScale?: boolean;
  /** MAP prior on log signalVariance: "none" (default: maximum likelihood), "lognormal:MU,SIGMA" or
   * "student-t:MU,SIGMA,NU", as the CLI's --signal-variance-prior. */
  signalVariancePrior?: string;
  /** MAP prior on each log length-scale, the same forms (the CLI's --length-scale-prior); default "none". */
  lengthScalePrior?: string;
  /** Stage "L-BFGS iterations": done counts iterations over all runs; returning false cancels. */
  onProgress?: ProgressListener;
  /** Checked at every progress report: an aborted signal cancels (code "cancelled"). */
  signal?: AbortSignal;
}

/** Per point, one Float64Array each; probability is p(y = +1 | x). */
export interface ClassifierPrediction {
  latentMean: Float64Array;
  latentVariance: Float64Array;
  probability: Float64Array;
  /** Rounding-negative latent variances the core set to 0 (counted, never hidden). */
  clampedVariances: number;
}

export const CLASSIFIER_COLUMNS = ['latentMean', 'latentVariance', 'probability'] as const;

/** The optimiser's report: the best log marginal likelihood of each run, the iterations over all runs. */
export type ClassifierOptimization = Optimization;

/** What a fitted classifier reports: its model, kernel (d length-scales), evidence and its gradient in
 * [log signalVariance, log lengthScales…], Newton steps or EP sweeps, and the optimiser's report. */
export type ClassifierState = Omit<ClassifierStateValue, 'code' | 'message' | 'method' | 'likelihood'> & {
  method: ClassificationMethod;
  likelihood: ClassificationLikelihood;
  optimization: ClassifierOptimization | null;
};

export type ClassificationExample = Omit<ClassificationExampleValue, 'code' | 'message' | 'x' | 'rows' | 'cols'> & {
  x: Matrix;
};
export type ClassificationVocabulary = Omit<VocabularyValue, 'code' | 'message'>;

export class GpClassifier {
  readonly #module: GpprobeModule;
  #handle: ClassifierHandle | null;
  readonly #optimization: ClassifierOptimization | null;

  /** @internal Use ClassificationEngine.fitClassifier or .optimizeClassifier. */
  constructor(module: GpprobeModule, handle: ClassifierHandle, optimization: ClassifierOptimization | null = null) {
    this.#module = module;
    this.#handle = handle;
    this.#optimization = optimization;
  }

  #live(): ClassifierHandle {
    if (!this.#handle) throw new GpprobeError('disposed', 'this classifier was disposed');
    return this.#handle;
  }

  get state(): ClassifierState {
    const { code: _code, message: _message, method, likelihood, ...s } = throwIfFailed(this.#live().state());
    const o = this.#optimization;
    return {
      ...s,
      method: method as ClassificationMethod,
      likelihood: likelihood as ClassificationLikelihood,
      optimization: o && { ...o, runValues: o.runValues.slice() }, // a copy: the caller may transfer it
    };
  }

  /** Latent mean, latent variance and p(y = +1) at every point (blocks of 256 inside the core; progress
   * "predicting" after each; an aborted signal cancels). */
  predict(points: Matrix, options: { onProgress?: ProgressListener; signal?: AbortSignal } = {}): ClassifierPrediction {
    const handle = this.#live();
    checkMatrix('points', points);
    const m = points.rows;
    const heap = new HeapScope(this.#module);
    try {
      const input = heap.copyIn(float64(points.data), 'test inputs');
      const out = heap.allocate(3 * m * 8, 'predictions');
      const { clampedVariances } = throwIfFailed(
        handle.predict(input, m, points.cols, out, coreProgress('predicting', options.onProgress, options.signal)),
      );
      const [latentMean, latentVariance, probability] = CLASSIFIER_COLUMNS.map((_, k) =>
        heap.readFloat64(out + k * m * 8, m),
      );
      return { latentMean, latentVariance, probability, clampedVariances };
    } finally {
      heap.free();
    }
  }

  /** Certified robustness at `point` (d values) over x* ± gamma (certify/classification_certify.ts): root bounds, branch and
   * bound for the smallest and largest p(y = 1) with witnesses, and GPFGS; = `gpprobe robustness`. */
  certifyRobustness(point: ArrayLike<number>, options: RobustnessOptions): RobustnessCertificate {
    return certifyWith(this.#live(), point, options);
  }

  /** Certified feature sensitivity Δ_γ of p(y = +1) and LIME at the points (explain/explain.ts; = `gpprobe explain`). */
  explain(points: ArrayLike<number> | readonly ArrayLike<number>[], options: ExplainOptions): Explanation {
    return explanation(this.#live().explain(pointRows(points), explainSettings(options), explainProgress(options)));
  }

  /** One certificate per gamma, in order (the paper's Fig. 2; = `gpprobe robustness --sweep`). */
  robustnessSweep(
    point: ArrayLike<number>,
    gammas: ArrayLike<number>,
    options: Omit<RobustnessOptions, 'gamma'> = {},
  ): RobustnessCertificate[] {
    return sweepWith(this.#live(), point, gammas, options);
  }

  /** Frees the wasm memory of this classifier. Further calls throw a GpprobeError with code "disposed". */
  dispose(): void {
    this.#handle?.delete();
    this.#handle = null;
  }
}

export class ClassificationEngine {
  readonly #module: GpprobeModule;

  /** @internal Use createClassificationEngine (or pass a module another engine loaded, to share it). */
  constructor(module: GpprobeModule) {
    this.#module = module;
  }

  /** Methods, likelihoods, examples and defaults: the lab's words and numbers, from the core. */
  vocabulary(): ClassificationVocabulary {
    const { code: _code, message: _message, ...v } = throwIfFailed(this.#module.classificationVocabulary());
    return v;
  }

  /** Fits with the given hyperparameters; likelihood 'softmax' fits C classes (multiclass.ts). */
  fitClassifier(options: FitMulticlassOptions): MulticlassGpClassifier;
  fitClassifier(options: FitClassifierOptions): GpClassifier;
  fitClassifier(options: FitClassifierOptions | FitMulticlassOptions): GpClassifier | MulticlassGpClassifier {
    if (options.likelihood === 'softmax') return fitMulticlass(this.#module, options);
    return new GpClassifier(
      this.#module,
      this.#run(options, (handle, x, y) =>
        handle.fit(x, options.inputs.rows, options.inputs.cols, y, settings(options)),
      ),
    );
  }

  /** Maximises the approximation's log marginal likelihood (bounded L-BFGS from options.kernel, then
   * seeded restarts), then fits at the optimum. */
  optimizeClassifier(options: OptimizeMulticlassOptions): MulticlassGpClassifier;
  optimizeClassifier(options: OptimizeClassifierOptions): GpClassifier;
  optimizeClassifier(
    options: OptimizeClassifierOptions | OptimizeMulticlassOptions,
  ): GpClassifier | MulticlassGpClassifier {
    if (options.likelihood === 'softmax') return optimizeMulticlass(this.#module, options);
    checkOptimizerCounts(options);
    let optimization: ClassifierOptimization | null = null;
    const handle = this.#run(options, (h, x, y) =>
      optimizationOf(
        h.optimize(
          x,
          options.inputs.rows,
          options.inputs.cols,
          y,
          settings(options),
          {
            restarts: options.restarts ?? DEFAULTS.restarts,
            seed: options.seed ?? DEFAULTS.seed,
            maxIterations: options.maxIterations ?? DEFAULTS.maxIterations,
            sharedLengthScale: options.sharedLengthScale ?? false,
            signalVariancePrior: options.signalVariancePrior ?? 'none',
            lengthScalePrior: options.lengthScalePrior ?? 'none',
          },
          coreProgress('L-BFGS iterations', options.onProgress, options.signal),
        ),
        (o) => {
          optimization = o;
        },
      ),
    );
    return new GpClassifier(this.#module, handle, optimization);
  }

  #run(
    options: FitClassifierOptions,
    call: (handle: ClassifierHandle, x: number, y: number) => { code: string; message: string },
  ): ClassifierHandle {
    checkTraining(options);
    return trainedHandle(this.#module, new this.#module.ClassifierHandle(), options, call);
  }

  /** A bundled, seeded two-dimensional data set (labels 0/1). */
  example(name: string, seed = 0): ClassificationExample {
    const {
      code: _code,
      message: _message,
      x,
      rows,
      cols,
      ...e
    } = throwIfFailed(this.#module.classificationExample(name, seed));
    return { ...e, x: { data: x, rows, cols } };
  }

  /** MacKay's approximation σ(μ/√(1 + πΣ/8)) of the logistic likelihood's E[σ(f)] (max error 1.6e-2;
   * for showing beside the exact probability, labelled as an approximation). */
  mackayApproximation(latentMean: Float64Array, latentVariance: Float64Array): Float64Array {
    const n = latentMean.length;
    if (latentVariance.length !== n) {
      throw new GpprobeError(
        'dimension_mismatch',
        `latentVariance has ${latentVariance.length} values, latentMean has ${n}`,
      );
    }
    const heap = new HeapScope(this.#module);
    try {
      const out = heap.allocate(n * 8, 'MacKay probabilities');
      throwIfFailed(
        this.#module.mackayProbabilities(
          heap.copyIn(latentMean, 'latent means'),
          heap.copyIn(latentVariance, 'latent variances'),
          n,
          out,
        ),
      );
      return heap.readFloat64(out, n);
    } finally {
      heap.free();
    }
  }

  /** The benchmark's seeded data (synthetic_classification.h): x ~ N(0, I), a curved boundary in x1, x2. */
  syntheticClassification(rows: number, dimension: number, seed: number): { inputs: Matrix; labels: Float64Array } {
    for (const [key, value] of [
      ['rows', rows],
      ['dimension', dimension],
      ['seed', seed],
    ] as const)
      checkCount(key, value);
    const heap = new HeapScope(this.#module);
    try {
      const x = heap.allocate(rows * dimension * 8, 'synthetic inputs');
      const y = heap.allocate(rows * 8, 'synthetic labels');
      throwIfFailed(this.#module.syntheticClassification(rows, dimension, seed, x, y));
      return {
        inputs: { data: heap.readFloat64(x, rows * dimension), rows, cols: dimension },
        labels: heap.readFloat64(y, rows),
      };
    } finally {
      heap.free();
    }
  }
}

function settings(options: FitClassifierOptions) {
  const kernel = options.kernel ?? { signalVariance: DEFAULTS.signalVariance, lengthScales: [DEFAULTS.lengthScale] };
  return {
    method: options.method ?? DEFAULTS.method,
    likelihood: options.likelihood ?? DEFAULTS.likelihood,
    signalVariance: kernel.signalVariance,
    lengthScales: float64(kernel.lengthScales),
  };
}

/** Loads the wasm module (once per call) and returns a classification engine over it. */
export async function createClassificationEngine(options: LoadOptions = {}): Promise<ClassificationEngine> {
  return new ClassificationEngine(await loadModule(options));
}
