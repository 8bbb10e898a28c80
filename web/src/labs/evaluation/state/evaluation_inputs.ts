// What the evaluation lab sends to the worker, derived from the session: the query mask, the OOD source
// and the in-/out-of-distribution query rows. Pure functions only, so the rules are easy to test.
import type { Column } from '../../../io/table.ts';
import type { OodSource } from '../worker/protocol.ts';
import { inDistributionMask, type OodSetup } from '../../../common/state/session.ts';

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
