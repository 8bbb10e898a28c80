// The regression lab's requests (the lab registry, labs/protocol.ts, joins them with the other labs'). Every request carries all
// it needs (the data travel with each fit), so no handler keeps state between requests: the optimiser
// and the Fig. 3 experiment, long synchronous wasm calls, can run on the worker instance that cancel
// terminates (policy 'terminate') without losing anything. Kernels travel as KernelSpec values
// (names and doubles), never as text.
import type {
  AnomalyClassification,
  AnomalyExperimentData,
  KernelSpec,
  RegressionExample,
  RegressionPrediction,
  RegressionState,
  RegressionVocabulary,
  RocCurveData,
} from '../../../engine/regression/regression.ts';
import type { Policies } from '../../../common/worker/policies.ts';
import type { Inputs, ParsedTable } from '../../../common/data/table.ts';

export type { Inputs, ParsedTable } from '../../../common/data/table.ts';

/** A fit with the given hyperparameters, and what the lab shows of it. */
export interface FitRequest {
  x: Inputs;
  y: Float64Array;
  kernel: KernelSpec;
  noiseVariance: number;
  /** Where to predict for the plot (a grid over a 1-D input), or null. */
  grid: Inputs | null;
  /** Joint posterior samples of f on the grid. */
  samples: number;
  seed: number;
  /** Further points to predict at (held-out data), or null. */
  extra: Inputs | null;
}

/** The same, after maximising the marginal likelihood from the given values. */
export interface OptimizeRequest extends FitRequest {
  restarts: number;
  /** Parameter names held at their values (the vocabulary's noiseParameter holds the noise). */
  fixed: string[];
}

export interface FitResult {
  state: RegressionState;
  /** At the training inputs, in order. */
  data: RegressionPrediction;
  grid: RegressionPrediction | null;
  /** samples by grid.rows, row-major. */
  samples: Float64Array | null;
  extra: RegressionPrediction | null;
  /** What could not be done or was adjusted, e.g. samples whose covariance would not factorise. */
  notes: string[];
  seconds: number;
}

export interface ExampleResult {
  example: RegressionExample;
  /** The noise-free function on a grid over [lower, upper]. */
  truthX: Float64Array;
  truth: Float64Array;
}

export interface RocResult {
  ungated: RocCurveData;
  /** Over the points with knowledge >= rho. */
  gated: RocCurveData;
}

export interface RegressionRequests {
  'regression-vocabulary': { request: Record<never, never>; result: RegressionVocabulary };
  'parse-table': { request: { file: Blob; name: string }; result: ParsedTable };
  'regression-example': { request: { name: string; seed: number }; result: ExampleResult };
  'regression-prior': {
    request: { kernel: KernelSpec; mean: number; grid: Inputs; count: number; seed: number };
    result: { samples: Float64Array; count: number };
  };
  'regression-fit': { request: FitRequest; result: FitResult };
  'regression-optimize': { request: OptimizeRequest; result: FitResult };
  'regression-predict': {
    request: { x: Inputs; y: Float64Array; kernel: KernelSpec; noiseVariance: number; test: Inputs };
    result: RegressionPrediction;
  };
  'regression-classify': {
    request: {
      y: Float64Array;
      prediction: Pick<RegressionPrediction, 'mean' | 'observationVariance' | 'knowledge'>;
      rho: number;
      theta: number;
    };
    result: AnomalyClassification;
  };
  'regression-roc': {
    request: { scores: Float64Array; isAnomaly: Uint8Array; knowledge: Float64Array; rho: number };
    result: RocResult;
  };
  /** The paper's Fig. 3 experiment, with its model predicted on a grid over the test range. */
  'anomaly-experiment': {
    request: { seed: number; statusRho: number; theta: number; rhos: number[] };
    result: AnomalyExperimentData;
  };
}

export const REGRESSION_POLICIES: Policies<RegressionRequests> = {
  'regression-vocabulary': 'none',
  'parse-table': 'between-chunks',
  'regression-example': 'none',
  'regression-prior': 'none',
  'regression-fit': 'between-chunks',
  'regression-optimize': 'terminate',
  'regression-predict': 'between-chunks',
  'regression-classify': 'none',
  'regression-roc': 'none',
  'anomaly-experiment': 'terminate',
};
