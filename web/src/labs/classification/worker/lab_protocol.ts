// The classification lab's part of the registry's protocol (labs/protocol.ts finds it by this file's name): its
// request kinds, added to common/registry.ts LabRequests under the lab's id, and their cancel policies.
import type { Policies } from '../../../common/worker/policies.ts';
import { CLASSIFICATION_POLICIES, type ClassificationRequests } from './protocol.ts';
import { CERTIFY_POLICIES, type CertifyRequests } from './certify_protocol.ts';
import { EXPLAIN_POLICIES, type ExplainRequests } from './explain_protocol.ts';

/** The lab's request kinds. */
export type Requests = ClassificationRequests & CertifyRequests & ExplainRequests;

/** Each kind's cancel policy (the compiler checks every kind has one). */
export const POLICIES: Policies<Requests> = { ...CLASSIFICATION_POLICIES, ...CERTIFY_POLICIES, ...EXPLAIN_POLICIES };

declare module '../../../common/registry.ts' {
  interface LabRequests {
    classification: Requests;
  }
}
