// The session's types (session.ts has its defaults and rules, session_schema.ts its checks; both
// read these, so neither imports the other's types).

export type DataRef =
  | { kind: 'demo'; id: string }
  | { kind: 'upload'; files: { name: string; size: number }[] }
  /** Files by URL (a link's ?data= and ?metadata=): one holds the embeddings, the others metadata. */
  | { kind: 'url'; data: string; metadata: string[] }
  /** One embedding (by tensorName) of an Embedding Projector config (a link's ?config=). */
  | { kind: 'projector'; config: string; embedding: string };

export type Concept =
  { column: string; kind: 'values'; positives: string[] } | { column: string; kind: 'threshold'; threshold: number }; // positive when value >= threshold

export type OodSetup =
  | { kind: 'none' }
  | { kind: 'column'; column: string; inDistribution: string[] }
  /** A second file as the OOD set: uploaded, the demo's own, or by URL (a link's ?ood=). */
  | { kind: 'file'; files: { name: string; size: number }[]; url?: string };

export interface Session {
  version: 1;
  data: DataRef | null;
  concept: Concept | null;
  /** Row indices of the observations; their labels follow from the concept. */
  observations: number[];
  epsilon: number;
  strength: number;
  draw: { perClass: number; seed: number };
  ood: OodSetup;
  /** Which rows are queries: all of them, or those whose column takes one of the values. */
  queries: QuerySubset;
}

export type QuerySubset = { kind: 'all' } | { kind: 'values'; column: string; values: string[] };
