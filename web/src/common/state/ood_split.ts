// The session's out-of-distribution setup as the OOD and evaluation labs send it to the worker: the query
// mask, the OOD source and the in-/out-of-distribution query rows. Pure functions only, so the rules are
// easy to test.
import type { Column } from '../../io/table.ts';
import { inDistributionMask, type OodSetup } from './session.ts';

/**
 * Where the OOD queries come from: none, the loaded OOD file, or rows of the main dataset that a
 * metadata column calls out-of-distribution (inDistribution[i] = 1 for the others).
 */
export type OodSource = { kind: 'none' } | { kind: 'file' } | { kind: 'rows'; inDistribution: Uint8Array };

/** 1 for the rows of the query subset; null when every row may be a query. */
export function queryMask(subset: Int32Array | null, rows: number): Uint8Array | null {
  if (!subset) return null;
  const mask = new Uint8Array(rows);
  for (const i of subset) mask[i] = 1;
  return mask;
}

/** The OOD set of the session: the loaded OOD file, rows called out-of-distribution by a column, or none. */
export function oodSource(ood: OodSetup, columns: Column[], rows: number, fileLoaded: boolean): OodSource {
  if (ood.kind === 'file') return fileLoaded ? { kind: 'file' } : { kind: 'none' };
  const mask = inDistributionMask(ood, columns, rows);
  return mask ? { kind: 'rows', inDistribution: mask } : { kind: 'none' };
}

export interface OodSplit {
  /** In-distribution queries: rows of the main dataset. */
  inside: Int32Array;
  /** Out-of-distribution queries: the OOD file, or rows of the main dataset. */
  outside: { kind: 'file' } | { kind: 'rows'; rows: Int32Array };
}

/**
 * The queries of OOD detection: the rows of the query subset (every row when null) that are not
 * observations, split by the OOD setup; null when the session has no OOD set.
 */
export function oodSplit(
  source: OodSource,
  subset: Int32Array | null,
  rows: number,
  observations: number[],
): OodSplit | null {
  if (source.kind === 'none') return null;
  const observed = new Set(observations);
  const candidates = (subset ?? Int32Array.from({ length: rows }, (_, i) => i)).filter((i) => !observed.has(i));
  if (source.kind === 'file') return { inside: candidates, outside: { kind: 'file' } };
  const mask = source.inDistribution;
  return {
    inside: candidates.filter((i) => mask[i] === 1),
    outside: { kind: 'rows', rows: candidates.filter((i) => mask[i] === 0) },
  };
}
