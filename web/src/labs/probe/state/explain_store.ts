// "Which dimensions matter" for the Probe tab's selected query: every embedding dimension's certified
// Δ_γ of the judged probability (its interval and value) and LIME's coefficient, on the probe of the
// session's observations; the panel shows the top k by certified |Δ|. The rows come from the resident
// embeddings ('embedding-rows'), then the terminable worker instance fits and explains ('probe-explain').
import { signal } from '@preact/signals';
import { isCancelled } from '../../../engine/errors.ts';
import { EXPLAIN_CSV_HEADER, explanationCsv, rankFeatures, type Explanation } from '../../../engine/explain/explain.ts';
import type { RunningRequest } from '../../../common/worker/protocol.ts';
import { notify, report, request, startTask } from '../../../common/state/engine_tasks.ts';
import { problemsIn } from '../../../common/state/field_problems.ts';
import { dataset, labels, probeBasis, session } from '../../../common/state/session_store.ts';

/** The form the panel's fields record their problems under (field_problems.ts). */
export const PROBE_EXPLAIN_FORM = 'probe-explain';

export interface ProbeExplainSettings {
  gamma: number;
  /** Rows shown, largest certified |Δ| first. */
  top: number;
  tolerance: number;
  limeSamples: number;
  baseline: 'mean' | 'zero';
}

export interface QueryExplanation {
  row: number;
  basis: string;
  settings: ProbeExplainSettings;
  explanation: Explanation;
  seconds: number;
}

export const probeExplainSettings = signal<ProbeExplainSettings>({
  gamma: 0.1,
  top: 8,
  tolerance: 1e-3,
  limeSamples: 1000,
  baseline: 'mean',
});
export const queryExplanation = signal<QueryExplanation | null>(null);
export const explainingRow = signal<number | null>(null);

export function updateProbeExplainSettings(change: Partial<ProbeExplainSettings>): void {
  probeExplainSettings.value = { ...probeExplainSettings.value, ...change };
}

/** One row of the panel: a dimension, its Δ interval and value, LIME's coefficient and rank. */
export interface DimensionRow {
  dimension: number;
  deltaLower: number;
  delta: number;
  deltaUpper: number;
  lime: number;
  /** 1-based rank of |LIME| among all dimensions. */
  limeRank: number;
}

/** The top `k` dimensions by certified |Δ| (explain.ts rankFeatures: dimensions constant in the probe's
 * observations left out unless `includeConstant`), and the top `k` by |LIME|. */
export function topDimensions(
  e: Explanation,
  k: number,
  includeConstant = false,
): { delta: DimensionRow[]; lime: DimensionRow[] } {
  const n = e.features.length;
  const limeOrder = [...Array(n).keys()].sort((a, b) => Math.abs(e.lime[b] ?? 0) - Math.abs(e.lime[a] ?? 0) || a - b);
  const limeRank = new Map(limeOrder.map((a, r) => [a, r + 1]));
  const row = (a: number): DimensionRow => ({
    dimension: e.features[a],
    deltaLower: e.deltaLower[a],
    delta: e.delta[a],
    deltaUpper: e.deltaUpper[a],
    lime: e.lime[a] ?? NaN,
    limeRank: limeRank.get(a)!,
  });
  return {
    delta: rankFeatures(e, 0, includeConstant).slice(0, k).map(row),
    lime: e.lime.length ? limeOrder.slice(0, k).map(row) : [],
  };
}

/** Every dimension as `gpprobe explain` writes it. */
export function queryExplanationCsv(q: QueryExplanation): string {
  return explanationCsv(q.explanation);
}
export { EXPLAIN_CSV_HEADER };

let current: RunningRequest<unknown> | null = null,
  run = 0;

export function cancelQueryExplanation(): void {
  current?.cancel();
}

/** Explains `row` with the current settings, on the probe of the current observations. */
export async function explainRow(row: number): Promise<void> {
  const d = dataset.value,
    y = labels.value;
  if (!d) return;
  const problems = problemsIn(PROBE_EXPLAIN_FORM);
  if (problems.length > 0) {
    notify('error', `Not explained: ${problems.join('; ')}.`);
    return;
  }
  current?.cancel();
  const mine = ++run;
  const s = session.value,
    settings = probeExplainSettings.value,
    basis = probeBasis.value;
  const rows = y ? s.observations.filter((r) => r < d.rows) : [];
  explainingRow.value = row;
  try {
    const gathered = await request(null, { kind: 'embedding-rows', rows: Int32Array.from([...rows, row]) });
    const cols = gathered.cols,
      n = rows.length;
    const task = startTask(`Which dimensions matter for row ${row} (γ = ${settings.gamma})`, {
      kind: 'probe-explain',
      epsilon: s.epsilon,
      strength: s.strength,
      labels: Uint8Array.from(rows, (r) => y![r]),
      observations: { data: gathered.data.slice(0, n * cols), rows: n, cols },
      query: gathered.data.slice(n * cols),
      gamma: settings.gamma,
      tolerance: settings.tolerance,
      limeSamples: settings.limeSamples,
      seed: 0,
      baseline: settings.baseline,
    });
    current = task;
    const r = await task.result;
    if (mine === run) queryExplanation.value = { row, basis, settings, explanation: r.explanation, seconds: r.seconds };
  } catch (error) {
    if (!isCancelled(error)) report(error);
  } finally {
    if (mine === run) explainingRow.value = null;
  }
}
