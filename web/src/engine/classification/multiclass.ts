// Multi-class GP classification for JavaScript: the softmax likelihood with C latent GPs and the Laplace
// approximation (the C++ core's multiclass_laplace.h; docs/design/multiclass.md). Reached through the
// classification engine with likelihood 'softmax':
//
//   const gpc = engine.fitClassifier({ inputs, labels, likelihood: 'softmax',   // labels: 0..C-1
//                                      kernel: { signalVariance: 2, lengthScales: [1, 1] } });
//   const p = gpc.predict(points);  // p.latentMean (m × C), p.latentCovariance (m × C × C), p.probability (m × C)
//   p.probability[i * p.classes + c];  p.latentCovariance[(i * p.classes + c) * p.classes + k];
//   const cert = gpc.certifyRobustness(point, { gamma: 0.3 });   // = gpprobe robustness --likelihood softmax
//   gpc.dispose();
//
// `kernel` is one SE-ARD kernel for every class; `kernels` gives C, one per class (the CLI's
// --signal-variance S0,…,S(C−1) and --length-scales-per-class). C = the largest label + 1 unless
// `classes` says more. All numbers are the core's; this file moves whole arrays in and out.
import type {
  MulticlassCertificateValue,
  MulticlassClassifierHandle,
  MulticlassSettings,
  GpprobeModule,
} from '../generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from '../errors.ts';
import { HeapScope } from '../heap.ts';
import { checkCount, checkMatrix, type Matrix } from '../matrix.ts';
import { coreProgress, type ProgressListener } from '../progress.ts';
import type { ProbabilityExtreme, SearchStatus } from '../certify/classification_certify.ts';
import {
  explainProgress,
  explainSettings,
  explanation,
  pointRows,
  type Explanation,
  type ExplainOptions,
} from '../explain/explain.ts';
import { CERTIFY_DEFAULTS, CLASSIFICATION_DEFAULTS as DEFAULTS } from '../vocabulary.ts';
import type { ClassificationKernel } from './classification.ts';
import {
  checkOptimizerCounts,
  checkTraining,
  float64,
  optimizationOf,
  trainedHandle,
  type Optimization,
  type TrainingLabels,
} from './training.ts';

export interface FitMulticlassOptions {
  /** n by d training inputs. */
  inputs: Matrix;
  /** n class indices 0..C−1. */
  labels: TrainingLabels;
  likelihood: 'softmax';
  /** Multi-class classification is Laplace only. */
  method?: 'laplace';
  /** One kernel for every class; default signal variance 1, length-scale 1 for every column. */
  kernel?: ClassificationKernel;
  /** C kernels, one per class (excludes `kernel`). */
  kernels?: readonly ClassificationKernel[];
  /** The number of classes when more than the largest label + 1 (a class without an example). */
  classes?: number;
}

export interface OptimizeMulticlassOptions extends FitMulticlassOptions {
  restarts?: number;
  seed?: number;
  /** L-BFGS iterations per run; default CLASSIFICATION_DEFAULTS.maxIterations. */
  maxIterations?: number;
  /** Tie the hyperparameters (one kernel for all classes); default: tied when `kernel` is given (or
   * neither), per class when `kernels` is. */
  shared?: boolean;
  /** MAP prior on log signalVariance: "none" (default: maximum likelihood), "lognormal:MU,SIGMA" or
   * "student-t:MU,SIGMA,NU", as the CLI's --signal-variance-prior. */
  signalVariancePrior?: string;
  /** MAP prior on each log length-scale, the same forms (the CLI's --length-scale-prior); default "none". */
  lengthScalePrior?: string;
  onProgress?: ProgressListener;
  signal?: AbortSignal;
}

/** m points, C classes, row-major: latentMean[i·C + c], latentCovariance[(i·C + c)·C + k], probability[i·C + c]. */
export interface MulticlassPrediction {
  rows: number;
  classes: number;
  latentMean: Float64Array;
  latentCovariance: Float64Array;
  probability: Float64Array;
  /** The largest estimated error of any probability (tensor rules: the last change; C > 4: quasi-Monte Carlo). */
  errorEstimate: number;
  /** Points whose quadrature stopped at its node budget. */
  unconverged: number;
  rules: string[];
}

export type MulticlassOptimization = Optimization;

export interface MulticlassState {
  classes: number;
  sharedKernel: boolean;
  /** C kernels, d length-scales each. */
  kernels: { signalVariance: number; lengthScales: Float64Array }[];
  logMarginalLikelihood: number;
  /** C arrays, each d/d[log S_c, log L_c1 … L_cd]. */
  gradient: Float64Array[];
  classCounts: Float64Array;
  iterations: number;
  size: number;
  dimension: number;
  optimization: MulticlassOptimization | null;
}

export type SafetyVerdict = 'certified' | 'refuted' | 'unknown';

export interface MulticlassRobustnessOptions {
  gamma: number;
  /** The class whose probability is bounded; default the predicted class. */
  classIndex?: number;
  dims?: ArrayLike<number>;
  validRange?: readonly [number, number] | null;
  /** Default CERTIFY_DEFAULTS.multiclass. */
  tolerance?: number;
  maxIterations?: number;
  timeLimitSeconds?: number;
  /** Stage "branch and bound" after each split (the safety search, then the class's two); false cancels. */
  onProgress?: ProgressListener;
  signal?: AbortSignal;
}

/** The class's extremes over the box and the predicted class's safety margin (= the CLI's JSON). */
export type MulticlassCertificate = Omit<
  MulticlassCertificateValue,
  'code' | 'message' | 'minimum' | 'maximum' | 'safety'
> & {
  minimum: ProbabilityExtreme;
  maximum: ProbabilityExtreme;
  safety: Omit<MulticlassCertificateValue['safety'], 'status'> & { status: SafetyVerdict };
};

function settings(options: FitMulticlassOptions): MulticlassSettings {
  if (options.kernel && options.kernels) throw new GpprobeError('invalid_argument', 'give kernel or kernels, not both');
  if (options.method !== undefined && options.method !== 'laplace') {
    throw new GpprobeError(
      'invalid_argument',
      `method ${String(options.method)} is not available with likelihood softmax; use laplace`,
    );
  }
  const kernels = options.kernels ?? [
    options.kernel ?? { signalVariance: DEFAULTS.signalVariance, lengthScales: [DEFAULTS.lengthScale] },
  ];
  if (options.classes !== undefined) checkCount('classes', options.classes);
  return {
    signalVariances: Float64Array.from(kernels, (k) => k.signalVariance),
    lengthScales: kernels.map((k) => float64(k.lengthScales)),
    classes: options.classes ?? 0,
  };
}

export class MulticlassGpClassifier {
  readonly #module: GpprobeModule;
  #handle: MulticlassClassifierHandle | null;
  readonly #optimization: MulticlassOptimization | null;

  /** @internal Use ClassificationEngine.fitClassifier / .optimizeClassifier with likelihood 'softmax'. */
  constructor(
    module: GpprobeModule,
    handle: MulticlassClassifierHandle,
    optimization: MulticlassOptimization | null = null,
  ) {
    this.#module = module;
    this.#handle = handle;
    this.#optimization = optimization;
  }

  #live(): MulticlassClassifierHandle {
    if (!this.#handle) throw new GpprobeError('disposed', 'this classifier was disposed');
    return this.#handle;
  }

  get state(): MulticlassState {
    const s = throwIfFailed(this.#live().state());
    const C = s.classes,
      d = s.dimension;
    const o = this.#optimization;
    return {
      classes: C,
      sharedKernel: s.sharedKernel,
      kernels: Array.from({ length: C }, (_, c) => ({
        signalVariance: s.signalVariances[c],
        lengthScales: s.lengthScales.slice(c * d, (c + 1) * d),
      })),
      logMarginalLikelihood: s.logMarginalLikelihood,
      gradient: Array.from({ length: C }, (_, c) => s.gradient.slice(c * (1 + d), (c + 1) * (1 + d))),
      classCounts: s.classCounts,
      iterations: s.iterations,
      size: s.size,
      dimension: d,
      optimization: o && { ...o, runValues: o.runValues.slice() },
    };
  }

  get classes(): number {
    return throwIfFailed(this.#live().state()).classes;
  }

  /** Latent means, full C × C latent covariances and class probabilities at every point. */
  predict(points: Matrix, options: { onProgress?: ProgressListener; signal?: AbortSignal } = {}): MulticlassPrediction {
    const handle = this.#live();
    checkMatrix('points', points);
    const m = points.rows,
      C = this.classes;
    const heap = new HeapScope(this.#module);
    try {
      const input = heap.copyIn(float64(points.data), 'test inputs');
      const out = heap.allocate(m * C * (C + 2) * 8, 'predictions');
      const r = throwIfFailed(
        handle.predict(input, m, points.cols, out, coreProgress('predicting', options.onProgress, options.signal)),
      );
      return {
        rows: m,
        classes: C,
        latentMean: heap.readFloat64(out, m * C),
        latentCovariance: heap.readFloat64(out + m * C * 8, m * C * C),
        probability: heap.readFloat64(out + m * C * (C + 1) * 8, m * C),
        errorEstimate: r.errorEstimate,
        unconverged: r.unconverged,
        rules: [...r.rules],
      };
    } finally {
      heap.free();
    }
  }

  /** Certified bounds of a class's probability over x* ± gamma (the predicted class by default) and the
   * predicted class's safety margin min_T (π^ĉ − max_{c≠ĉ} π^c): certified, refuted or unknown. */
  certifyRobustness(point: ArrayLike<number>, options: MulticlassRobustnessOptions): MulticlassCertificate {
    const d = CERTIFY_DEFAULTS.multiclass;
    if (typeof options.gamma !== 'number')
      throw new GpprobeError('invalid_argument', `gamma must be a number, got ${String(options.gamma)}`);
    const range = options.validRange ?? null;
    if (range !== null && !(Array.isArray(range) && range.length === 2)) {
      throw new GpprobeError('invalid_argument', 'validRange must be [lo, hi] or null');
    }
    const v = throwIfFailed(
      this.#live().certifyRobustness(
        Float64Array.from(point),
        {
          gamma: options.gamma,
          classIndex: options.classIndex ?? -1,
          dims: Float64Array.from(options.dims ?? []),
          validRange: range ? [range[0], range[1]] : null,
          tolerance: options.tolerance ?? d.tolerance,
          maxIterations: options.maxIterations ?? d.maxIterations,
          timeLimitSeconds: options.timeLimitSeconds ?? d.timeLimitSeconds,
        },
        coreProgress('branch and bound', options.onProgress, options.signal),
      ),
    );
    const { code: _code, message: _message, ...c } = v;
    return {
      ...c,
      minimum: { ...c.minimum, status: c.minimum.status as SearchStatus },
      maximum: { ...c.maximum, status: c.maximum.status as SearchStatus },
      safety: { ...c.safety, status: c.safety.status as SafetyVerdict },
    };
  }

  /** Certified feature sensitivity Δ_γ of class `classIndex`'s probability and LIME at the points
   * (explain/explain.ts; = `gpprobe explain --likelihood softmax --class c`). */
  explain(
    points: ArrayLike<number> | readonly ArrayLike<number>[],
    options: ExplainOptions & { classIndex: number },
  ): Explanation {
    return explanation(
      this.#live().explain(pointRows(points), options.classIndex, explainSettings(options), explainProgress(options)),
    );
  }

  /** Frees the wasm memory of this classifier. Further calls throw a GpprobeError with code "disposed". */
  dispose(): void {
    this.#handle?.delete();
    this.#handle = null;
  }
}

function handleOf(
  module: GpprobeModule,
  options: FitMulticlassOptions,
  call: (
    handle: MulticlassClassifierHandle,
    x: number,
    y: number,
    s: MulticlassSettings,
  ) => { code: string; message: string },
): MulticlassClassifierHandle {
  checkTraining(options);
  const s = settings(options);
  return trainedHandle(module, new module.MulticlassClassifierHandle(), options, (h, x, y) => call(h, x, y, s));
}

/** @internal ClassificationEngine.fitClassifier with likelihood 'softmax'. */
export function fitMulticlass(module: GpprobeModule, options: FitMulticlassOptions): MulticlassGpClassifier {
  return new MulticlassGpClassifier(
    module,
    handleOf(module, options, (h, x, y, s) => h.fit(x, options.inputs.rows, options.inputs.cols, y, s)),
  );
}

/** @internal ClassificationEngine.optimizeClassifier with likelihood 'softmax'. */
export function optimizeMulticlass(module: GpprobeModule, options: OptimizeMulticlassOptions): MulticlassGpClassifier {
  checkOptimizerCounts(options);
  let optimization: MulticlassOptimization | null = null;
  const handle = handleOf(module, options, (h, x, y, s) =>
    optimizationOf(
      h.optimize(
        x,
        options.inputs.rows,
        options.inputs.cols,
        y,
        s,
        {
          restarts: options.restarts ?? DEFAULTS.restarts,
          seed: options.seed ?? DEFAULTS.seed,
          maxIterations: options.maxIterations ?? DEFAULTS.maxIterations,
          shared: options.shared ?? !options.kernels,
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
  return new MulticlassGpClassifier(module, handle, optimization);
}
