// Messages between the page and the regression worker (regression_worker.ts). Every request carries
// all it needs (the data travels with each fit), so the worker holds no state the page depends on:
// cancelling a synchronous wasm call means terminating the worker, and a fresh one answers the next
// request as the old one would have. Arrays travel as transferred typed arrays.
import type {
  AnomalyClassification, AnomalyExperimentData, ExampleName, KernelChoice, RegressionExample, RegressionPrediction,
  RegressionState, RocCurveData,
} from '../engine/regression.ts';
import type { Column } from '../io/table.ts';

/** Status codes of classify (anomaly_detection.h; the engine's ANOMALY_STATUSES) without loading the engine. */
export const STATUS_NAMES = ['normal', 'anomaly', 'unknown'] as const;

/** n by d inputs, row-major float64. */
export interface Inputs {
  data: Float64Array;
  rows: number;
  cols: number;
}

export interface FitRequest {
  kind: 'fit';
  x: Inputs;
  y: Float64Array;
  kernel: KernelChoice;
  noiseVariance: number;
  /** Maximise the marginal likelihood from these values first (null: use them as they are). */
  optimize: { restarts: number; seed: number; fixed: string[] } | null;
  /** Where to predict for the plot (a grid over a 1-D input), or null. */
  grid: Inputs | null;
  /** Joint posterior samples of f on the grid. */
  samples: number;
  seed: number;
  /** Further points to predict at (held-out data), or null. */
  extra: Inputs | null;
}

export interface FitResult {
  state: RegressionState;
  /** At the training inputs, in order. */
  data: RegressionPrediction;
  grid: RegressionPrediction | null;
  /** samples by grid.rows, row-major. */
  samples: Float64Array | null;
  extra: RegressionPrediction | null;
  /** What could not be done, e.g. samples whose covariance would not factorise. */
  notes: string[];
  seconds: number;
}

export type RegressionRequest =
  | { kind: 'parse-csv'; file: Blob; name: string }
  | { kind: 'example'; name: ExampleName; seed: number }
  | { kind: 'prior'; kernel: KernelChoice; mean: number; grid: Inputs; count: number; seed: number }
  | FitRequest
  | { kind: 'predict'; x: Inputs; y: Float64Array; kernel: KernelChoice; noiseVariance: number; test: Inputs }
  | { kind: 'classify'; y: Float64Array; prediction: Pick<RegressionPrediction, 'mean' | 'observationVariance' | 'knowledge'>; rho: number; theta: number }
  | { kind: 'roc'; scores: Float64Array; isAnomaly: Uint8Array; knowledge: Float64Array; rho: number }
  | { kind: 'experiment'; seed: number; statusRho: number; theta: number; rhos: number[] };

/** What a parsed CSV gives the page: its columns, numeric or text. */
export interface ParsedTable {
  fileName: string;
  rows: number;
  columns: Column[];
}

export interface ExampleResult {
  example: RegressionExample;
  /** The noise-free function on a grid over [lower, upper]. */
  truthX: Float64Array;
  truth: Float64Array;
}

/** The Fig. 3 experiment, with its model (refitted from the learned kernel and noise to the normal
 * training points, as the experiment fitted it) predicted on a grid over the test range, for the plot. */
export interface ExperimentResult {
  data: Omit<AnomalyExperimentData, 'status'>;
  gridX: Float64Array;
  grid: RegressionPrediction;
}

export interface RocResult {
  ungated: RocCurveData;
  /** Over the points with knowledge >= rho. */
  gated: RocCurveData;
}

/** The answer to each request kind, tagged with that kind. */
export type RegressionResponse =
  | { kind: 'parse-csv'; value: ParsedTable }
  | { kind: 'example'; value: ExampleResult }
  | { kind: 'prior'; value: { samples: Float64Array; count: number } }
  | { kind: 'fit'; value: FitResult }
  | { kind: 'predict'; value: RegressionPrediction }
  | { kind: 'classify'; value: AnomalyClassification }
  | { kind: 'roc'; value: RocResult }
  | { kind: 'experiment'; value: ExperimentResult };

/** Page -> worker. */
export interface ToRegressionWorker {
  id: number;
  request: RegressionRequest;
}

/** Worker -> page. */
export type FromRegressionWorker =
  | { type: 'ready' }
  | { type: 'start-failed'; message: string }
  | { type: 'progress'; id: number; stage: string; done: number; total: number }
  | { type: 'result'; id: number; response: RegressionResponse }
  | { type: 'error'; id: number; code: string; message: string };
