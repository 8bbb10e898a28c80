// The classification lab's requests (the lab registry, labs/protocol.ts, joins them with the other labs'). Like the regression
// lab's, every request carries all it needs (the data travel with each fit) and no handler keeps state:
// the hyperparameter fit, a long synchronous wasm call, runs on the worker instance that cancel
// terminates (policy 'terminate'). CSV files are read with the regression lab's 'parse-table'.
import type {
  ClassificationExample,
  ClassificationKernel,
  ClassificationLikelihood,
  ClassificationMethod,
  ClassificationVocabulary,
  ClassifierPrediction,
  ClassifierState,
} from '../../../engine/classification/classification.ts';
import type { Policies } from '../../../common/worker/policies.ts';
import type { Inputs } from '../../../common/data/table.ts';
import { MULTICLASS_POLICIES, type MulticlassRequests } from './multiclass_protocol.ts';

/** One classifier: its approximation, likelihood and kernel hyperparameters. */
export interface ClassifierModel {
  method: ClassificationMethod;
  likelihood: ClassificationLikelihood;
  kernel: ClassificationKernel;
}

/** "Laplace", "EP": how the lab names an approximation. */
export function methodTitle(method: ClassificationMethod | string): string {
  return method === 'ep' ? 'EP' : method === 'laplace' ? 'Laplace' : method;
}

/** "EP (probit)": how the lab names a model. */
export function modelLabel(model: Pick<ClassifierModel, 'method' | 'likelihood'>): string {
  return `${methodTitle(model.method)} (${model.likelihood})`;
}

export interface ClassifierData {
  /** n by d training inputs. */
  x: Inputs;
  /** n labels, 0/1 or -1/+1. */
  labels: Float64Array;
  /** Where to predict for the maps (a grid over two columns, the others held), or null. */
  grid: Inputs | null;
}

export interface ClassifierFitRequest extends ClassifierData {
  model: ClassifierModel;
}

/** Learns each model's hyperparameters from its current ones, one after the other, in one task. */
export interface ClassifierOptimizeRequest extends ClassifierData {
  models: ClassifierModel[];
  restarts: number;
  seed: number;
  sharedLengthScale: boolean;
  /** MAP priors in the CLI's spellings ("none": maximum likelihood), as OptimizeClassifierOptions'. */
  signalVariancePrior: string;
  lengthScalePrior: string;
}

export type Prediction = Omit<ClassifierPrediction, 'clampedVariances'>;

export interface ClassifierFitResult {
  state: ClassifierState;
  /** At the training inputs, in order. */
  data: Prediction;
  grid: Prediction | null;
  /** With the logistic likelihood: MacKay's approximation of the probability at the data and the grid
   * (shown beside the exact one, labelled as an approximation); null otherwise. */
  mackay: { data: Float64Array; grid: Float64Array | null } | null;
  /** What was adjusted, e.g. latent variances rounded below 0 and set to 0. */
  notes: string[];
  seconds: number;
}

export interface BinaryRequests {
  'classification-vocabulary': { request: Record<never, never>; result: ClassificationVocabulary };
  'classification-example': { request: { name: string; seed: number }; result: ClassificationExample };
  'classification-fit': { request: ClassifierFitRequest; result: ClassifierFitResult };
  'classification-optimize': { request: ClassifierOptimizeRequest; result: ClassifierFitResult[] };
}

/** The binary models' requests and the multi-class ones (multiclass_protocol.ts). */
export type ClassificationRequests = BinaryRequests & MulticlassRequests;

export const CLASSIFICATION_POLICIES: Policies<ClassificationRequests> = {
  ...MULTICLASS_POLICIES,
  'classification-vocabulary': 'none',
  'classification-example': 'none',
  'classification-fit': 'between-chunks',
  'classification-optimize': 'terminate',
};
