// The results as CSV: one row per query with its metadata, whether it is an observation and its
// concept label, and every measure at full precision (shortest exact decimal form of each double).
import type { ProbeScores } from '../../../engine/probe/probe_engine.ts';
import type { Column } from '../../../io/table.ts';
import { cellText } from '../../../common/state/session.ts';
import { csvCell } from '../../../common/ui/format.ts';

export const RESULT_HEADER = [
  'row',
  'is_observation',
  'concept',
  'judged_probability',
  'episteme',
  'alea',
  'knowledge',
  'ood_score',
  'latent_mean',
  'latent_variance',
];

/** Rows of `subset` (all rows when null), in ascending order. */
export function resultsCsv(
  scores: ProbeScores,
  columns: Column[],
  labels: Uint8Array | null,
  observations: number[],
  subset: Int32Array | null = null,
): Blob {
  const isObservation = new Set(observations);
  const parts: string[] = [[...RESULT_HEADER, ...columns.map((c) => c.name)].map(csvCell).join(',') + '\n'];
  const rows = subset ?? Int32Array.from({ length: scores.judgedProbability.length }, (_, i) => i);
  for (const i of rows) {
    const cells: (string | number)[] = [
      i,
      isObservation.has(i) ? 1 : 0,
      labels ? labels[i] : '',
      scores.judgedProbability[i],
      scores.episteme[i],
      scores.alea[i],
      scores.knowledge[i],
      scores.oodScore[i],
      scores.latentMean[i],
      scores.latentVariance[i],
      ...columns.map((c) => (c.kind === 'number' ? c.values[i] : cellText(c, i))),
    ];
    parts.push(cells.map(csvCell).join(',') + '\n');
  }
  return new Blob(parts, { type: 'text/csv' });
}
