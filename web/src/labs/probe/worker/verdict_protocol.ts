// The verdict beside the probe's results (the lab registry, labs/protocol.ts, joins it with the probe lab's kinds): the
// leave-one-out check of the probe on the session's observations, and each row's expected knowledge gain
// from its label, for "label next" suggestions. Both from the core (leave_one_out.h, knowledge_gain.h).
import type { LeaveOneOut } from '../../../engine/probe/probe_engine.ts';
import type { Policies } from '../../../common/worker/policies.ts';

export interface VerdictRun {
  /** In the order of the request's observations. */
  /** Its aurocLower/aurocUpper are the interval the core's verdict judges, honest at AUROC 0 or 1 and at few
   * observations (core auroc_interval.h). */
  leaveOneOut: LeaveOneOut;
  /** One per row of the main dataset. */
  knowledgeGain: Float64Array;
  seconds: number;
}

export interface VerdictRequests {
  /** A probe of its own on these rows of the main dataset (the session's probe is left alone). */
  verdict: {
    request: { epsilon: number; strength: number; observations: Int32Array; labels: Uint8Array };
    result: VerdictRun;
  };
}

export const VERDICT_POLICIES: Policies<VerdictRequests> = { verdict: 'between-chunks' };
