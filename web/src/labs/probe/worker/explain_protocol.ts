// "Which dimensions matter" for the Probe tab's selected query: the certified feature sensitivity Δ_γ of
// the probe's judged probability along every embedding dimension, and LIME beside it
// (engine/explain/explain.ts). One long synchronous wasm call, so it runs on the instance that cancel
// terminates (policy 'terminate') and carries the probe's observations and the query, which
// 'embedding-rows' (certify_protocol.ts) fetches first.
import type { Explanation } from '../../../engine/explain/explain.ts';
import type { Matrix } from '../../../engine/matrix.ts';
import type { Policies } from '../../../common/worker/policies.ts';

export interface ProbeExplainRequest {
  observations: Matrix;
  labels: Uint8Array;
  epsilon: number;
  strength: number;
  query: Float32Array | Float64Array;
  gamma: number;
  tolerance: number;
  limeSamples: number;
  seed: number;
  /** What LIME switches a dimension off to: the observations' mean, or 0. */
  baseline: 'mean' | 'zero';
}

export interface ProbeExplainRequests {
  'probe-explain': { request: ProbeExplainRequest; result: { explanation: Explanation; seconds: number } };
}

export const PROBE_EXPLAIN_POLICIES: Policies<ProbeExplainRequests> = { 'probe-explain': 'terminate' };
