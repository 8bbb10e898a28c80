// The out-of-distribution lab's part of the registry's protocol (labs/protocol.ts finds it by this file's name): its
// request kinds, added to common/registry.ts LabRequests under the lab's id, and their cancel policies.
import type { Policies } from '../../../common/worker/policies.ts';
import { OOD_POLICIES, type OodRequests } from './protocol.ts';

/** The lab's request kinds. */
export type Requests = OodRequests;

/** Each kind's cancel policy (the compiler checks every kind has one). */
export const POLICIES: Policies<Requests> = OOD_POLICIES;

declare module '../../../common/registry.ts' {
  interface LabRequests {
    ood: Requests;
  }
}
