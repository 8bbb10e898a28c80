// The types of the GP regression API (regression.ts): kernels, options, predictions, examples and
// anomaly detection. Data only; the numbers all come from the C++ core.
import type { AnomalyExperimentData, RegressionState, RocCurveData } from './generated/gpprobe.mjs';
import type { Matrix } from './matrix.ts';

export type { AnomalyExperimentData, RegressionState, RocCurveData };

export type KernelName =
  | 'rbf' | 'matern12' | 'matern32' | 'matern52' | 'periodic' | 'locally-periodic' | 'linear' | 'cosine';

/** A named kernel: variance × base (scikit-learn's ConstantKernel × base). */
export interface KernelChoice {
  name: KernelName;
  variance?: number;
  lengthScale?: number;
  period?: number;
  /** The RBF length-scale of the locally periodic kernel. */
  decay?: number;
  /** The linear kernel's offset (sklearn's sigma_0): k = offset² + a·b. */
  offset?: number;
}

/** A named kernel, or a kernel expression such as "constant(1) * rbf(0.5) + constant(0.2) * periodic(1, 2)". */
export type KernelSpec = KernelChoice | string;

export interface FitRegressionOptions {
  /** n by d training inputs. */
  x: Matrix;
  /** n targets. */
  y: Float64Array;
  kernel: KernelSpec;
  /** Observation noise variance (not sd). */
  noiseVariance: number;
  /** The fixed constant prior mean; default: the average of y. */
  mean?: number;
}

/** Called between optimiser iterations / prediction blocks; returning false cancels ("cancelled" error). */
export type ProgressCallback = (done: number, total: number) => boolean | void;

export interface OptimizeOptions extends FitRegressionOptions {
  /** Extra runs from seeded random starts inside the bounds; default 0. */
  restarts?: number;
  seed?: number;
  /** L-BFGS iterations per run; default 200. */
  maxIterations?: number;
  /** Parameter names held at their start values, e.g. ["constant.value", "noise_variance"]. */
  fixed?: string[];
  onProgress?: ProgressCallback;
  /** Checked at every progress report: an aborted signal cancels. */
  signal?: AbortSignal;
}

/** Per test point, one Float64Array of length m each. */
export interface RegressionPrediction {
  mean: Float64Array;
  /** Epistemic: variance of the latent f. */
  latentVariance: Float64Array;
  /** Epistemic + aleatoric: latentVariance + noise variance. */
  observationVariance: Float64Array;
  /** G = 1 − latentVariance / k(x, x) ∈ [0, 1]. */
  knowledge: Float64Array;
  /** 95% band of f: mean ∓ 1.96 √latentVariance. */
  latentLower: Float64Array;
  latentUpper: Float64Array;
  /** 95% band of y: mean ∓ 1.96 √observationVariance. */
  observationLower: Float64Array;
  observationUpper: Float64Array;
}

export const PREDICTION_COLUMNS = [
  'mean', 'latentVariance', 'observationVariance', 'knowledge',
  'latentLower', 'latentUpper', 'observationLower', 'observationUpper',
] as const satisfies readonly (keyof RegressionPrediction)[];

export type ExampleName = 'lecture' | 'periodic-extrapolation' | 'missing-segments';

export interface RegressionExample {
  name: ExampleName;
  /** n by 1 training inputs and their targets. */
  x: Matrix;
  y: Float64Array;
  /** The censored tail / missing segments, with their noisy values, for plotting. */
  heldOutX: Matrix;
  heldOutY: Float64Array;
  /** The range to predict over. */
  lower: number;
  upper: number;
  noiseSd: number;
}

export type AnomalyStatus = 'normal' | 'anomaly' | 'unknown';
export const ANOMALY_STATUSES: readonly AnomalyStatus[] = ['normal', 'anomaly', 'unknown'];

export interface AnomalyThresholds {
  /** Knowledge gate in [0, 1]: G < rho is "unknown". */
  rho: number;
  /** Standardised residual threshold; default 3. */
  theta?: number;
}

export interface AnomalyClassification {
  /** 0 normal, 1 anomaly, 2 unknown (index into ANOMALY_STATUSES). */
  statuses: Uint8Array;
  /** |y − mean| / √observationVariance. */
  scores: Float64Array;
}

export interface AnomalyExperimentOptions {
  seed?: number;
  /** The gate of the returned statuses; default 0.5. */
  statusRho?: number;
  theta?: number;
  /** The ROC sweep; default [0.1, 0.3, 0.5, 0.7, 0.9]. */
  rhos?: number[];
  onProgress?: ProgressCallback;
}
