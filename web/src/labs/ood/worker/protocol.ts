// The Out-of-distribution lab's requests (the lab registry, labs/protocol.ts, joins them with the other
// labs'): OOD detection by the probe and the baselines, all fitted on the session's observations, on the
// embeddings the worker holds (the main dataset and the OOD set).
import type { RocCurve } from '../../../engine/baselines/baselines.ts';
import type { Policies } from '../../../common/worker/policies.ts';

export type OodMethod = 'gpp' | 'msp' | 'maha' | 'knn' | 'lpe';
export const OOD_METHODS: OodMethod[] = ['gpp', 'msp', 'maha', 'knn', 'lpe'];

/** OOD detection by the probe and the baselines, all fitted on the session's observations. */
export interface OodBaselinesRequest {
  /** Rows of the main dataset that are observations, and their labels. */
  observations: Int32Array;
  labels: Uint8Array;
  /** In-distribution queries: rows of the main dataset. */
  queries: Int32Array;
  /** Out-of-distribution queries: every row of the loaded OOD file, or these rows of the main dataset. */
  ood: { kind: 'file' } | { kind: 'rows'; rows: Int32Array };
  epsilon: number;
  strength: number;
  k: number;
  seed: number;
  members: number;
}

/** A method's AUROC and ROC curve (in-distribution = positive), or why it could not run. */
export type OodMethodResult =
  { method: OodMethod; auroc: number; roc: RocCurve } | { method: OodMethod; error: string };

export interface OodBaselines {
  methods: OodMethodResult[];
  queries: number;
  oodRows: number;
  seconds: number;
}

export interface OodRequests {
  'ood-baselines': { request: OodBaselinesRequest; result: OodBaselines };
}

export const OOD_POLICIES: Policies<OodRequests> = { 'ood-baselines': 'between-chunks' };
