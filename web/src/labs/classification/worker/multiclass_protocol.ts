// The classification lab's multi-class requests (softmax likelihood, C latent GPs, Laplace; the engine's
// multiclass.ts), joined with the binary ones in protocol.ts. As there, every request carries all it
// needs (the data travel with each fit) and no handler keeps state. The fit predicts in chunks with a
// cancel check between them ('between-chunks'); the hyperparameter fit and the certificate are each one
// long synchronous wasm call, so they run on the instance that cancel terminates ('terminate'). The
// page makes a certificate anytime by asking first for every class's root bounds (maxIterations 0, at
// once), then refining one class after another, each its own request with its splits as progress.
import type { MulticlassCertificate, MulticlassState } from '../../../engine/classification/multiclass.ts';
import type { Policies } from '../../../common/worker/policies.ts';
import type { Inputs } from '../../../common/data/table.ts';

/** The softmax model's hyperparameters: one SE-ARD kernel shared by the C latent GPs. */
export interface MulticlassModel {
  signalVariance: number;
  /** One (isotropic) or d length-scales. */
  lengthScales: number[];
}

export interface MulticlassData {
  x: Inputs;
  /** n class indices 0..C-1. */
  labels: Float64Array;
  /** C (more than the largest label + 1 when a class has no example). */
  classes: number;
}

export interface MulticlassFitRequest extends MulticlassData {
  model: MulticlassModel;
  /** Where to predict besides the data: the maps' grid and held-out points, each possibly null. */
  grid: Inputs | null;
  test: Inputs | null;
}

export interface MulticlassOptimizeRequest extends Omit<MulticlassFitRequest, 'model'> {
  model: MulticlassModel;
  restarts: number;
  seed: number;
  /** MAP priors in the CLI's spellings ("none": maximum likelihood). */
  signalVariancePrior: string;
  lengthScalePrior: string;
}

/** m points, C classes, row-major as the engine gives them; the latent covariance kept as its diagonal
 * (the C latent variances, m × C) and the predictive entropy of the class probabilities (m). */
export interface MulticlassPredictionSummary {
  rows: number;
  classes: number;
  latentMean: Float64Array;
  latentVariance: Float64Array;
  probability: Float64Array;
  entropy: Float64Array;
}

export interface MulticlassFitResult {
  state: MulticlassState;
  data: MulticlassPredictionSummary;
  grid: MulticlassPredictionSummary | null;
  test: MulticlassPredictionSummary | null;
  /** The largest estimated error of any probability the fit reported, and what the quadrature said. */
  errorEstimate: number;
  notes: string[];
  seconds: number;
}

export interface MulticlassCertifyRequest extends MulticlassData {
  model: MulticlassModel;
  point: number[];
  /** The class whose probability is bounded (its minimum and maximum over the box). */
  classIndex: number;
  options: {
    gamma: number;
    /** Moving coordinates; empty: every one. */
    dims: number[];
    validRange: [number, number] | null;
    tolerance: number;
    /** Boxes split per search; 0: the root bounds alone. */
    maxIterations: number;
    /** The wall time of this request's searches (one clock for the three); 0: none. Ignored with a deadline. */
    timeLimitSeconds: number;
  };
  /** Date.now() by which the searches stop: the user's time limit counted from the click, shared by every request
   * of one certificate (the fit is counted too); null: options.timeLimitSeconds from the searches' start. */
  deadline: number | null;
}

export interface MulticlassRequests {
  'classification-multiclass-fit': { request: MulticlassFitRequest; result: MulticlassFitResult };
  'classification-multiclass-optimize': { request: MulticlassOptimizeRequest; result: MulticlassFitResult };
  'classification-multiclass-certify': {
    request: MulticlassCertifyRequest;
    result: { certificate: MulticlassCertificate; seconds: number };
  };
}

export const MULTICLASS_POLICIES: Policies<MulticlassRequests> = {
  'classification-multiclass-fit': 'between-chunks',
  'classification-multiclass-optimize': 'terminate',
  'classification-multiclass-certify': 'terminate',
};
