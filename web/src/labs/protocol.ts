// The registry's protocol part: each lab's request kinds and their cancel policies, from the labs' own
// worker/lab_protocol.ts (found by name; each adds its kinds to common/registry.ts LabRequests), joined:
// CANCEL_POLICY every kind's policy, and every kind of every lab given to common/registry.ts, from which
// the worker protocol's types (common/worker/protocol.ts Requests) are derived. Page-safe: no handler,
// no engine.
import type { LabRequests } from '../common/registry.ts';
import type { CancelPolicy, Policies } from '../common/worker/policies.ts';
import { LABS, mergeLabTables, partsByLab, type LabId, type SameKeys } from './index.ts';
import type { LabProtocolPart } from './parts.ts';

export type { LabRequests };

/**
 * Each lab's cancel policies, one per kind, typed in the lab's own file (`Policies<Requests>` in
 * labs/<lab>/worker/lab_protocol.ts, checked complete by the compiler); partsByLab files each under its
 * folder's id, and tests/web/lab_registry.test.ts holds each file to its folder's lab.
 */
export const LAB_POLICIES = partsByLab(
  LABS,
  import.meta.glob<LabProtocolPart<LabId>>('./*/worker/lab_protocol.ts', { eager: true }),
  'worker/lab_protocol.ts',
  (part) => part.POLICIES,
) as { readonly [L in LabId]: Policies<LabRequests[L]> };

type KeysOf<U> = U extends unknown ? keyof U : never;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Kinds declared by more than one lab: must be none. */
type SharedKinds = { [L in LabId]: keyof LabRequests[L] & KeysOf<LabRequests[Exclude<LabId, L>]> }[LabId];

// Compile-time checks: the labs' LabRequests entries are exactly the registry's labs, and no two labs
// share a kind.
export const labRequestsCoverTheLabs: SameKeys<keyof LabRequests, LabId> = true;
export const noKindInTwoLabs: SameKeys<SharedKinds, never> = true;

/** Every kind of every lab. */
export type LabKinds = UnionToIntersection<LabRequests[LabId]>;

/** The lab that declares each kind. */
export type LabOfKind<K> = { [L in LabId]: K extends keyof LabRequests[L] ? L : never }[LabId];

/** Every kind's policy, from the labs' tables. */
export const CANCEL_POLICY = mergeLabTables<CancelPolicy>(LAB_POLICIES) as unknown as Policies<LabKinds>;

declare module '../common/registry.ts' {
  interface Registry {
    requests: LabKinds;
  }
}
