// What common/ knows of the lab registry without importing it (common/ is below the labs): the
// registry fills these interfaces in by declaration merging (labs/index.ts the lab ids, labs/protocol.ts
// every lab's request kinds; each lab its own kinds, in its worker/lab_protocol.ts), so the shared task
// store, the worker protocol's types and the active tab are typed by the labs the registry lists while
// no file here imports one.

export interface Registry {}

/**
 * Each lab's request kinds (an interface of { request, result } by kind), keyed by the lab's id: each
 * lab adds its own entry from its labs/<lab>/worker/lab_protocol.ts, and labs/protocol.ts checks that
 * the entries are exactly the registry's labs.
 */
export interface LabRequests {}

/** A lab of the registry (labs/index.ts LabId). */
export type RegisteredLab = Registry extends { lab: infer L extends string } ? L : string;
/** Every request kind of every lab, each with its request and result (labs/protocol.ts LabKinds). */
export type RegisteredRequests = Registry extends { requests: infer R } ? R : Record<never, never>;
