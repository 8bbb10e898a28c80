// "Explain" in the Classification tab: the certified feature sensitivity Δ_γ of a fitted classifier's
// p(y = +1) at one point or at M points (their means: the global view), with LIME beside it
// (engine/explain/explain.ts). One long synchronous wasm call, so it runs on the instance that cancel
// terminates (policy 'terminate') and carries the data and the model, as the certificates do.
import type { ClassifierModel } from './protocol.ts';
import type { Explanation } from '../../../engine/explain/explain.ts';
import type { Policies } from '../../../common/worker/protocol.ts';
import type { Inputs } from '../../regression/worker/protocol.ts';

export interface ExplainRequestOptions {
  gamma: number;
  validRange: [number, number] | null;
  tolerance: number;
  /** 0: no LIME. */
  limeSamples: number;
  seed: number;
  /** What LIME switches a feature off to: the training mean (tabular data) or 0 (pixels). */
  baseline: 'mean' | 'zero';
}

export interface ClassificationExplainRequest {
  x: Inputs;
  labels: Float64Array;
  model: ClassifierModel;
  /** m points, m * d values, row-major. */
  points: Float64Array;
  options: ExplainRequestOptions;
}

export interface ExplainRequests {
  'classification-explain': { request: ClassificationExplainRequest; result: { explanation: Explanation; seconds: number } };
}

export const EXPLAIN_POLICIES: Policies<ExplainRequests> = { 'classification-explain': 'terminate' };
