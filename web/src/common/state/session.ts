// The user's session as plain data: which dataset, the concept, the observations, the hyperparameters,
// the OOD setup. Everything a reload, an export or an undo must restore lives here; results do not
// (they are recomputed by the engine). Pure functions only, so the rules are easy to test.
import { DEFAULTS } from '../../engine/vocabulary.ts';
import type { Column } from '../../io/table.ts';
import { checkFields, checkObject, parseStateJson, SchemaError, SESSION_FIELDS } from './session_schema.ts';
import type { Concept, OodSetup, QuerySubset, Session } from './session_types.ts';

export type { Concept, DataRef, OodSetup, QuerySubset, Session } from './session_types.ts';

export const DEFAULT_SESSION: Session = {
  version: 1,
  data: null,
  concept: null,
  observations: [],
  epsilon: DEFAULTS.epsilon,
  strength: DEFAULTS.strength,
  draw: { perClass: 8, seed: 1 },
  ood: { kind: 'none' },
  queries: { kind: 'all' },
};

/** The text of a cell as the concept and table show it. */
export function cellText(column: Column, row: number): string {
  return column.kind === 'string' ? column.values[row] : String(column.values[row]);
}

/** Distinct values of a column in first-seen order (at most `limit`). */
export function distinctValues(column: Column, limit = 200): string[] {
  const seen = new Set<string>();
  for (let i = 0; i < column.values.length && seen.size < limit; i++) seen.add(cellText(column, i));
  return [...seen];
}

/** How many rows take each value of a column. */
export interface ValueCount {
  value: string;
  count: number;
}

/**
 * Every distinct value of a column with its row count: numbers in ascending order, text by count
 * (most rows first) and then alphabetically.
 */
export function valueCounts(column: Column): ValueCount[] {
  const counts = new Map<string, number>();
  for (let i = 0; i < column.values.length; i++) {
    const v = cellText(column, i);
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  const list = [...counts].map(([value, count]) => ({ value, count }));
  if (column.kind === 'number') return list.sort((a, b) => Number(a.value) - Number(b.value));
  return list.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
}

/** Values that mean "yes" in a label column: what a concept's positive value is by default. */
const POSITIVE_WORDS = ['1', 'true', 'yes', 'positive'];

/**
 * A default concept's smaller class holds at least this share of the rows: a value on 99.8 % of the
 * rows (or 0.2 %) leaves the other class a handful of rows to draw observations from (issue 24, item 7).
 */
export const BALANCED_SHARE = 0.05;

const percent = (share: number) => `${(100 * share).toFixed(share < 0.01 || share > 0.99 ? 1 : 0)} %`;

/**
 * The value a new concept on `column` takes as positive, and why: "1"/"true"/"yes"/"positive" when the
 * column has one (a 0/1 or boolean-like label column, as a labels.npy is read), else its most common
 * value (numbers: the smallest); but when that value's class, or the rest, would hold less than 5 % of
 * the rows, the value nearest half of the rows, saying why. `balanced`: whether the concept splits the
 * rows at least 5 % / 95 %.
 */
export function defaultPositive(column: Column): { value: string; reason: string; balanced: boolean } | null {
  const counts = valueCounts(column);
  if (counts.length === 0) return null;
  const total = counts.reduce((n, c) => n + c.count, 0);
  const isBalanced = (c: ValueCount) => Math.min(c.count, total - c.count) >= BALANCED_SHARE * total;
  const yes = counts.find(
    (c) => POSITIVE_WORDS.includes(c.value.trim().toLowerCase()) || (c.value.trim() !== '' && Number(c.value) === 1),
  );
  const first = yes ?? counts[0];
  const reason = yes
    ? `“${yes.value}” means yes in a ${counts.length === 2 ? 'two-valued ' : ''}label column`
    : column.kind === 'number'
      ? 'its smallest value'
      : 'its most common value';
  if (isBalanced(first)) return { value: first.value, reason, balanced: true };
  const nearest = counts.reduce((best, c) =>
    Math.abs(c.count - total / 2) < Math.abs(best.count - total / 2) ? c : best,
  );
  if (nearest === first) return { value: first.value, reason, balanced: false };
  return {
    value: nearest.value,
    reason: `the value nearest half of the rows (${percent(nearest.count / total)}); “${first.value}” would be on ${percent(first.count / total)} of them`,
    balanced: isBalanced(nearest),
  };
}

/**
 * A sensible first concept for new data: the first column with 2-20 distinct values whose default
 * positive (defaultPositive) splits the rows at least 5 % / 95 %; null when no column does (the concept
 * panel then asks for one).
 */
export function defaultConcept(columns: Column[]): Concept | null {
  for (const c of columns) {
    const values = distinctValues(c, 21);
    if (values.length < 2 || values.length > 20) continue;
    const positive = defaultPositive(c)!;
    if (positive.balanced) return { column: c.name, kind: 'values', positives: [positive.value] };
  }
  return null;
}

/** 1 where the row shows the concept, 0 elsewhere. */
/** The concept in words, for titles and comparisons: "age ≥ 40", "species ∈ {cat, dog}". */
export function describeConcept(concept: Concept): string {
  return concept.kind === 'threshold'
    ? `${concept.column} ≥ ${concept.threshold}`
    : `${concept.column} ∈ {${concept.positives.join(', ')}}`;
}

export function conceptLabels(concept: Concept, columns: Column[], rows: number): Uint8Array {
  const column = columns.find((c) => c.name === concept.column);
  const labels = new Uint8Array(rows);
  if (!column) return labels;
  if (concept.kind === 'threshold') {
    if (column.kind !== 'number') return labels;
    for (let i = 0; i < rows; i++) labels[i] = column.values[i] >= concept.threshold ? 1 : 0;
  } else {
    const positives = new Set(concept.positives);
    for (let i = 0; i < rows; i++) labels[i] = positives.has(cellText(column, i)) ? 1 : 0;
  }
  return labels;
}

/** Adds `row` to the observations, or removes it when it is one. */
export function toggleObservation(observations: number[], row: number): number[] {
  return observations.includes(row)
    ? observations.filter((r) => r !== row)
    : [...observations, row].sort((a, b) => a - b);
}

/** 1 for in-distribution rows of the main dataset under a column-based OOD setup, else null. */
export function inDistributionMask(ood: OodSetup, columns: Column[], rows: number): Uint8Array | null {
  if (ood.kind !== 'column') return null;
  const column = columns.find((c) => c.name === ood.column);
  if (!column) return null;
  const inside = new Set(ood.inDistribution);
  const mask = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) mask[i] = inside.has(cellText(column, i)) ? 1 : 0;
  return mask;
}

/** Row indices of the query subset in ascending order, or null when every row is a query. */
export function queryRows(subset: QuerySubset, columns: Column[], rows: number): Int32Array | null {
  if (subset.kind === 'all') return null;
  const column = columns.find((c) => c.name === subset.column);
  if (!column) return null;
  const wanted = new Set(subset.values);
  const out: number[] = [];
  for (let i = 0; i < rows; i++) if (wanted.has(cellText(column, i))) out.push(i);
  return Int32Array.from(out);
}

/** Undo/redo over session snapshots. */
export interface History {
  past: Session[];
  future: Session[];
}

export const HISTORY_LIMIT = 100;

export function record(history: History, before: Session): History {
  return { past: [...history.past.slice(-(HISTORY_LIMIT - 1)), before], future: [] };
}

export function undo(history: History, current: Session): { history: History; session: Session } | null {
  const previous = history.past.at(-1);
  if (!previous) return null;
  return { history: { past: history.past.slice(0, -1), future: [current, ...history.future] }, session: previous };
}

export function redo(history: History, current: Session): { history: History; session: Session } | null {
  const next = history.future[0];
  if (!next) return null;
  return { history: { past: [...history.past, current], future: history.future.slice(1) }, session: next };
}

/**
 * A session read back from JSON (a session file, or the one saved in this browser), checked field by
 * field against the one schema (session_schema.ts) before anything is applied or saved; throws a
 * SchemaError naming `what`, the field and what it holds. Optional fields that are missing take their
 * defaults; ε, s and the observations must be there.
 */
export function parseSession(text: string, what = 'the session file'): Session {
  const json = checkObject(parseStateJson(text, what), what);
  if (json.version !== 1) throw new SchemaError(`${what} is not a gpprobe session (expected "version": 1)`);
  for (const required of ['epsilon', 'strength', 'observations']) {
    if (json[required] === undefined) throw new SchemaError(`${what} has no ${required}`);
  }
  const f = checkFields(json, SESSION_FIELDS, `${what}: `);
  return {
    version: 1,
    data: f.data ?? null,
    concept: f.concept ?? null,
    observations: f.observations!,
    epsilon: f.epsilon!,
    strength: f.strength!,
    draw: f.draw ?? DEFAULT_SESSION.draw,
    ood: f.ood ?? { kind: 'none' },
    queries: f.queries ?? { kind: 'all' },
  };
}
