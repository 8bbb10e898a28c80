// The types of the GP regression API (regression.ts): kernels, options, predictions, examples and
// anomaly detection. Data only; the numbers and the names all come from the C++ core.
import type { AnomalyExperimentValue, PredictionValue, RegressionStateValue, RocValue } from '../generated/gpprobe.mjs';
import type { Matrix } from '../matrix.ts';
import type { ProgressListener } from '../progress.ts';

/** A ROC curve of the anomaly score over the points with knowledge >= rho. */
export type RocCurveData = RocValue;

/**
 * A kernel as a value: `name` is a named kernel ("rbf", "locally-periodic", ...: vocabulary().kernels)
 * or a kernel expression ("constant(1) * rbf(0.5)"), and `parameters` sets values by the core's
 * parameter names ("constant.value", "rbf.length_scale", "periodic.period", ...); a parameter not named
 * keeps the form's value. The doubles reach the core bit for bit, and a fitted state reports its
 * kernel in the same shape (every parameter named), ready to be passed back. A string is { name }.
 */
export interface KernelSpec {
  name: string;
  parameters?: Record<string, number>;
}

/** A named kernel of the core, with every parameter at its starting value. */
export interface NamedKernel {
  name: string;
  title: string;
  kernel: Required<KernelSpec>;
}

/** What the regression lab offers, from the core: kernels and their parameters, examples, the noise's name. */
export interface RegressionVocabulary {
  kernels: NamedKernel[];
  examples: { name: string; title: string }[];
  /** The noise variance's name where parameters are named (held while fitting). */
  noiseParameter: string;
}

export interface FitRegressionOptions {
  /** n by d training inputs. */
  x: Matrix;
  /** n targets. */
  y: Float64Array;
  kernel: KernelSpec | string;
  /** Observation noise variance (not sd). */
  noiseVariance: number;
  /** The fixed constant prior mean; default: the average of y. */
  mean?: number;
}

export interface OptimizeOptions extends FitRegressionOptions {
  /** Extra runs from seeded random starts inside the bounds; default DEFAULTS.restarts. */
  restarts?: number;
  seed?: number;
  /** L-BFGS iterations per run; default DEFAULTS.maxIterations. */
  maxIterations?: number;
  /** Parameter names held at their start values, e.g. ["constant.value", "noise_variance"]. */
  fixed?: string[];
  /** Stage "L-BFGS iterations": done counts iterations over all runs; returning false cancels. */
  onProgress?: ProgressListener;
  /** Checked at every progress report: an aborted signal cancels. */
  signal?: AbortSignal;
}

/**
 * What a fitted regression reports about itself: the core's state (noise variance, mean, log marginal
 * likelihood, size, dimension, the kernel as text for reading), its kernel as a value, and from an
 * optimisation the best log marginal likelihood of each run and the iterations over all runs (empty
 * and 0 for a fit with given hyperparameters).
 */
export type RegressionState = Omit<RegressionStateValue, 'code' | 'message' | 'kernel'> & {
  kernel: Required<KernelSpec>;
  runValues: Float64Array;
  iterations: number;
};

/** Per test point, one Float64Array of length m each (the columns of gp_regression.h). */
export type RegressionPrediction = PredictionValue;

export const PREDICTION_COLUMNS = [
  'mean',
  'latentVariance',
  'observationVariance',
  'knowledge',
  'latentLower',
  'latentUpper',
  'observationLower',
  'observationUpper',
] as const satisfies readonly (keyof RegressionPrediction)[];

/** Rounding-negative latent variances the core set to 0 (counted, never hidden). */
export type PredictionReport = RegressionPrediction & { clampedVariances: number };

export interface RegressionExample {
  name: string;
  title: string;
  /** What x is called: "x", or "t" for a time. */
  inputName: string;
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
  /** The model the example is meant for: a kernel, the parameters held while fitting, the starting noise. */
  kernel: Required<KernelSpec>;
  held: string[];
  noiseVariance: number;
}

export interface AnomalyThresholds {
  /** Knowledge gate in [0, 1]: G < rho is "unknown". */
  rho: number;
  /** Standardised residual threshold; default DEFAULTS.theta. */
  theta?: number;
}

export interface AnomalyClassification {
  /** Index into ANOMALY_STATUSES (normal, anomaly, unknown). */
  statuses: Uint8Array;
  /** |y − mean| / √observationVariance. */
  scores: Float64Array;
}

export interface AnomalyExperimentOptions {
  seed?: number;
  /** The gate of the returned statuses; default DEFAULTS.rho. */
  statusRho?: number;
  theta?: number;
  /** The ROC sweep; default DEFAULTS.rhos. */
  rhos?: number[];
  /** Stage "L-BFGS iterations" of the experiment's hyperparameter fit. */
  onProgress?: ProgressListener;
}

/** The paper's Fig. 3 experiment (anomaly_experiment.h), with its model predicted on a grid over the test range. */
export type AnomalyExperimentData = Omit<AnomalyExperimentValue, 'code' | 'message'>;
