// "Explain" in the Classification tab: the certified feature sensitivity Δ_γ of a fitted classifier's
// p(y = +1) (or, for the softmax model, one class's probability) at one point or at M points (their means: the global view), with LIME beside it
// (engine/explain/explain.ts). One long synchronous wasm call, so it runs on the instance that cancel
// terminates (policy 'terminate') and carries the data and the model, as the certificates do.
import type { ClassifierModel } from './protocol.ts';
import type { MulticlassModel } from './multiclass_protocol.ts';
import type { Explanation } from '../../../engine/explain/explain.ts';
import type { Policies } from '../../../common/worker/policies.ts';
import type { Inputs } from '../../../common/data/table.ts';

export interface ExplainRequestOptions {
  gamma: number;
  validRange: [number, number] | null;
  tolerance: number;
  /** 0: no LIME. */
  limeSamples: number;
  seed: number;
  /** What LIME switches a feature off to: the training mean (tabular data) or 0 (pixels). */
  baseline: 'mean' | 'zero';
  /** Nearly constant: off its most common training value in fewer than max(2, share × n) rows. */
  nearlyConstantShare: number;
}

/** The softmax model explained, and the class whose probability is. */
export interface SoftmaxExplainModel {
  model: MulticlassModel;
  classes: number;
  /** null: the predicted class (at the point; over M points, the class predicted at most of them). */
  classIndex: number | null;
}

export interface ClassificationExplainRequest {
  x: Inputs;
  /** Binary: ±1 labels; softmax: class indices 0..C-1. */
  labels: Float64Array;
  /** The binary model (model A), or null when `softmax` is given. */
  model: ClassifierModel | null;
  softmax: SoftmaxExplainModel | null;
  /** m points, m * d values, row-major. */
  points: Float64Array;
  options: ExplainRequestOptions;
}

export interface ExplainRequests {
  'classification-explain': {
    request: ClassificationExplainRequest;
    result: { explanation: Explanation; seconds: number; classIndex: number | null };
  };
}

export const EXPLAIN_POLICIES: Policies<ExplainRequests> = { 'classification-explain': 'terminate' };
