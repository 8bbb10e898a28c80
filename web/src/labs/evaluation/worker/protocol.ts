// The evaluation lab's requests to the engine worker and their results (protocol.ts joins them with the
// other labs'). The worker holds the embeddings and the OOD set; the page sends what its state defines
// (concept labels, the query subset, the OOD setup) as typed arrays.
import type { BeliefEnvelope } from '../../../engine/probe/analysis.ts';
import type { ExperimentKind, ExperimentResult, ExperimentSettings } from '../../../engine/evaluation/experiments.ts';
import type { Policies } from '../../../common/worker/policies.ts';
import type { OodSource } from '../../../common/state/ood_split.ts';

export type { OodSource } from '../../../common/state/ood_split.ts';

export type { ExperimentSettings } from '../../../engine/evaluation/experiments.ts';

export interface ExperimentRequest {
  experiment: ExperimentKind;
  /** One concept label (0/1) per row of the main dataset. */
  labels: Uint8Array;
  /** One value per row, 1 = may be a query (the session's query subset); null: a random half per trial. */
  queryMask: Uint8Array | null;
  /** Needed by the "ood" experiment only. */
  ood: OodSource;
  settings: ExperimentSettings;
}

export interface ExperimentRun {
  result: ExperimentResult;
  /** The irrational region's boundary for the run's epsilon (fuzzy experiment; null otherwise). */
  envelope: BeliefEnvelope | null;
  /** Rows that took part: of the main dataset (in-distribution) and OOD rows. */
  rows: number;
  oodRows: number;
  seconds: number;
}

export interface EvaluationRequests {
  experiment: { request: ExperimentRequest; result: ExperimentRun };
}

export const EVALUATION_POLICIES: Policies<EvaluationRequests> = { experiment: 'between-chunks' };
