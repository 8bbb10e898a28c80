// The lab registry: every lab of the app, by id, with its one name and the engine it needs. This part
// is plain data, safe for the page and the worker alike; three parts keyed by the same ids complete it,
// each checked by the compiler to cover exactly these ids:
//   labs/protocol.ts  each lab's request kinds and cancel policies  -> the worker protocol (Requests, CANCEL_POLICY)
//   labs/worker.ts    each lab's handlers                           -> the worker's HANDLERS table (worker bundle only)
//   labs/views.tsx    each lab's view and what the shell shows with it -> the tab strip (page bundle only)
// The engines themselves are in common/worker/engines.ts (the Engines of every handler's context).
// The lab ids reach common/ (the active tab) through common/registry.ts, filled in here.
// docs/architecture.md "How to add a lab" walks through the steps.
import type { EngineName } from '../common/worker/engines.ts';

export interface LabEntry {
  /** The lab's name: the tab's label and, lower-cased, the word the folders, kinds and CLI use. */
  readonly name: string;
  /** Older words for the lab that links may carry (they still open it). */
  readonly aliases: readonly string[];
  /** The engine its worker handlers use (common/worker/engines.ts). */
  readonly engine: EngineName;
}

export const LABS = {
  probe: { name: 'Probe', aliases: [], engine: 'probe' },
  ood: { name: 'Out-of-distribution', aliases: [], engine: 'probe' },
  evaluation: { name: 'Evaluation', aliases: ['evaluate'], engine: 'probe' },
  regression: { name: 'Regression', aliases: [], engine: 'regression' },
  classification: { name: 'Classification', aliases: ['gpc'], engine: 'classification' },
  compare: { name: 'Compare', aliases: [], engine: 'probe' },
} as const satisfies Record<string, LabEntry>;

export type LabId = keyof typeof LABS;

declare module '../common/registry.ts' {
  interface Registry {
    lab: LabId;
  }
}
/** The labs in the order of the tab strip. */
export const LAB_IDS = Object.keys(LABS) as LabId[];
/** The engine lab L needs. */
export type EngineOf<L extends LabId> = (typeof LABS)[L]['engine'];

/** The tab strip of a registry: one tab per lab, in the registry's order. */
export function tabsOf<L extends string>(labs: Record<L, LabEntry>): { id: L; label: string }[] {
  return (Object.keys(labs) as L[]).map((id) => ({ id, label: labs[id].name }));
}

/** The lab a link's word names: its id or one of its aliases; undefined for a word no lab knows. */
export function labNamed<L extends string>(labs: Record<L, LabEntry>, word: string | undefined): L | undefined {
  if (word === undefined) return undefined;
  return (Object.keys(labs) as L[]).find((id) => id === word || labs[id].aliases.includes(word));
}

/** The engines a registry's labs need, each once. */
export function enginesOf<L extends string>(labs: Record<L, LabEntry>): EngineName[] {
  return [...new Set((Object.keys(labs) as L[]).map((id) => labs[id].engine))];
}

/**
 * One table from the labs' tables (their cancel policies, their handlers), keyed by request kind. A
 * kind declared by two labs is an error here as well as for the compiler (labs/protocol.ts).
 */
export function mergeLabTables<T>(tables: Record<string, Record<string, T>>): Record<string, T> {
  const merged: Record<string, T> = {},
    owner: Record<string, string> = {};
  for (const [lab, table] of Object.entries(tables)) {
    for (const [kind, value] of Object.entries(table)) {
      if (kind in owner) throw new Error(`request kind "${kind}" is declared by two labs: ${owner[kind]} and ${lab}`);
      owner[kind] = lab;
      merged[kind] = value;
    }
  }
  return merged;
}

/** True when A and B are the same set of keys (the registry parts' completeness checks). */
export type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
