// The registry's protocol part: each lab's request kinds (an interface of { request, result } by kind)
// and their cancel policies, joined: CANCEL_POLICY every kind's policy, and every kind of every lab
// given to common/registry.ts, from which the worker protocol's types (common/worker/protocol.ts
// Requests) are derived. Page-safe: no handler, no engine.
import { CERTIFY_POLICIES, type CertifyRequests } from './classification/worker/certify_protocol.ts';
import { EXPLAIN_POLICIES, type ExplainRequests } from './classification/worker/explain_protocol.ts';
import { CLASSIFICATION_POLICIES, type ClassificationRequests } from './classification/worker/protocol.ts';
import { COMPARE_POLICIES, type CompareRequests } from './compare/worker/protocol.ts';
import { EVALUATION_POLICIES, type EvaluationRequests } from './evaluation/worker/protocol.ts';
import { mergeLabTables, type LabId, type SameKeys } from './index.ts';
import { OOD_POLICIES, type OodRequests } from './ood/worker/protocol.ts';
import { PROBE_CERTIFY_POLICIES, type ProbeCertifyRequests } from './probe/worker/certify_protocol.ts';
import { PROBE_EXPLAIN_POLICIES, type ProbeExplainRequests } from './probe/worker/explain_protocol.ts';
import { PROBE_POLICIES, type ProbeRequests } from './probe/worker/protocol.ts';
import { VERDICT_POLICIES, type VerdictRequests } from './probe/worker/verdict_protocol.ts';
import { REGRESSION_POLICIES, type RegressionRequests } from './regression/worker/protocol.ts';
import type { CancelPolicy, Policies } from '../common/worker/policies.ts';

/** Each lab's request kinds. */
export interface LabRequests {
  probe: ProbeRequests & VerdictRequests & ProbeCertifyRequests & ProbeExplainRequests;
  ood: OodRequests;
  evaluation: EvaluationRequests;
  regression: RegressionRequests;
  classification: ClassificationRequests & CertifyRequests & ExplainRequests;
  compare: CompareRequests;
}

/** Each lab's cancel policies, one per kind (the compiler checks each lab's table complete). */
export const LAB_POLICIES: { readonly [L in LabId]: Policies<LabRequests[L]> } = {
  probe: { ...PROBE_POLICIES, ...VERDICT_POLICIES, ...PROBE_CERTIFY_POLICIES, ...PROBE_EXPLAIN_POLICIES },
  ood: OOD_POLICIES,
  evaluation: EVALUATION_POLICIES,
  regression: REGRESSION_POLICIES,
  classification: { ...CLASSIFICATION_POLICIES, ...CERTIFY_POLICIES, ...EXPLAIN_POLICIES },
  compare: COMPARE_POLICIES,
};

type KeysOf<U> = U extends unknown ? keyof U : never;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Kinds declared by more than one lab: must be none. */
type SharedKinds = { [L in LabId]: keyof LabRequests[L] & KeysOf<LabRequests[Exclude<LabId, L>]> }[LabId];

// Compile-time checks: LabRequests names exactly the registry's labs, and no two labs share a kind.
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
