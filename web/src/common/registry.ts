// What common/ knows of the lab registry without importing it (common/ is below the labs): the
// registry fills this interface in by declaration merging (labs/index.ts the lab ids, labs/protocol.ts
// every lab's request kinds), so the shared task store, the worker protocol's types and the active tab
// are typed by the labs the registry lists while no file here imports one.

export interface Registry {}

/** A lab of the registry (labs/index.ts LabId). */
export type RegisteredLab = Registry extends { lab: infer L extends string } ? L : string;
/** Every request kind of every lab, each with its request and result (labs/protocol.ts LabKinds). */
export type RegisteredRequests = Registry extends { requests: infer R } ? R : Record<never, never>;
