// The lab registry: every lab of the app, by id, with its one name and the engine it needs. This list is
// the one place a lab is named; the rest of the registry is found in the labs' folders, one file per
// layer with a fixed name (labs/parts.ts has their types), and joined by three parts keyed by these ids:
//   labs/protocol.ts  each lab's worker/lab_protocol.ts: its kinds, cancel policies -> the worker protocol
//   labs/worker.ts    each lab's worker/lab_handlers.ts: its handlers              -> HANDLERS (worker bundle)
//   labs/views.ts     each lab's ui/lab_view.ts: its view and the shell around it  -> the tabs (page bundle)
// A lab listed here without one of those files, or a folder with one that is not listed, stops the app
// at start-up naming it (partsByLab); the compiler checks each part's contents against its lab.
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

/**
 * A registry part from the labs' folders: `modules` is what Vite's import.meta.glob found of FILE
 * in every lab folder (keys './<lab>/FILE'), `pick` takes the lab's part out of its module. Every lab of `labs`
 * must have the file and every folder that has it must be a lab of `labs`; either mistake throws,
 * naming the lab and the file (the app stops at start-up rather than miss a tab or a handler).
 */
export function partsByLab<L extends string, M, P>(
  labs: Record<L, LabEntry>,
  modules: Record<string, M>,
  file: string,
  pick: (module: M) => P,
): Record<L, P> {
  const parts = {} as Record<L, P>;
  for (const [path, module] of Object.entries(modules)) {
    const lab = /^\.\/([^/]+)\//.exec(path)?.[1];
    if (lab === undefined || !Object.hasOwn(labs, lab)) {
      throw new Error(`labs/${path.replace(/^\.\//, '')} belongs to no lab of the registry (labs/index.ts)`);
    }
    parts[lab as L] = pick(module);
  }
  for (const lab of Object.keys(labs) as L[]) {
    if (!Object.hasOwn(parts, lab))
      throw new Error(`lab "${lab}" of the registry (labs/index.ts) has no labs/${lab}/${file}`);
  }
  return parts;
}

/** True when A and B are the same set of keys (the registry parts' completeness checks). */
export type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
