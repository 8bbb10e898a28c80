// The probe lab's part of the registry's protocol (labs/protocol.ts finds it by this file's name): its
// request kinds, added to common/registry.ts LabRequests under the lab's id, and their cancel policies.
import type { Policies } from '../../../common/worker/policies.ts';
import { PROBE_POLICIES, type ProbeRequests } from './protocol.ts';
import { VERDICT_POLICIES, type VerdictRequests } from './verdict_protocol.ts';
import { PROBE_CERTIFY_POLICIES, type ProbeCertifyRequests } from './certify_protocol.ts';
import { PROBE_EXPLAIN_POLICIES, type ProbeExplainRequests } from './explain_protocol.ts';

/** The lab's request kinds. */
export type Requests = ProbeRequests & VerdictRequests & ProbeCertifyRequests & ProbeExplainRequests;

/** Each kind's cancel policy (the compiler checks every kind has one). */
export const POLICIES: Policies<Requests> = {
  ...PROBE_POLICIES,
  ...VERDICT_POLICIES,
  ...PROBE_CERTIFY_POLICIES,
  ...PROBE_EXPLAIN_POLICIES,
};

declare module '../../../common/registry.ts' {
  interface LabRequests {
    probe: Requests;
  }
}
