// The main embeddings when they are streamed from their file (io/streamed_dataset.ts) instead of held
// in the wasm heap: the worker keeps the file's rows reader and answers the probe lab from it.
//   probe  the observations' rows are read from the file, the probe fitted on them, and every row
//          scored chunk by chunk (engine/streamed_scores.ts: progress, cancel between chunks). A change
//          of the observations re-reads the file: the kept scores' rank-one updates need every row in
//          the heap, so there is no cheaper exact path. The last scores are kept, so asking again for
//          the same probe costs a copy, not a pass.
//   map    PCA of a sample of rows (MAP_SAMPLE_ROWS, read as evenly spaced blocks); the other rows
//          have no map position (NaN), and the map draws the sample.
import { principalComponents } from '../../engine/probe/analysis.ts';
import type { Matrix } from '../../engine/matrix.ts';
import type { Probe, ProbeEngine, ProbeScores } from '../../engine/probe/probe_engine.ts';
import { scoreStreamed } from '../../engine/probe/streamed_scores.ts';
import type { NpyRows } from '../../io/npy_rows.ts';
import type { HandlerContext } from './handler.ts';

/** Rows of the map's sample: enough for a PCA of any width to settle, few enough to read in a second. */
export const MAP_SAMPLE_ROWS = 20_000;
/** The sample is read as this many blocks of consecutive rows spread evenly over the file. */
const MAP_SAMPLE_BLOCKS = 500;

export interface StreamedMain {
  name: string;
  rows: NpyRows;
  /** The scores of the last probe, with what it was fitted on. */
  last?: { key: string; scores: ProbeScores; space: string };
}

/** The rows of the map's sample, ascending: all rows when there are at most `count`. */
export function sampleRowIndices(rows: number, count = MAP_SAMPLE_ROWS, blocks = MAP_SAMPLE_BLOCKS): Int32Array {
  if (rows <= count) return Int32Array.from({ length: rows }, (_, i) => i);
  const per = Math.ceil(count / blocks);
  const out: number[] = [];
  for (let b = 0; b < blocks && out.length < count; b++) {
    const start = Math.floor((b * rows) / blocks);
    for (let i = start; i < Math.min(start + per, rows) && out.length < count; i++) out.push(i);
  }
  return Int32Array.from(out);
}

export interface StreamedProbeRequest {
  epsilon: number;
  strength: number;
  observations: Int32Array;
  labels: Uint8Array;
}

/** The probe on the request's observations, their rows read from the file. The caller disposes it. */
export async function fitStreamedProbe(
  engine: ProbeEngine,
  main: StreamedMain,
  r: StreamedProbeRequest,
): Promise<Probe> {
  const observations = await main.rows.gatherRows(r.observations);
  return engine.fitProbe({
    observations,
    labels: r.labels,
    epsilon: r.epsilon,
    strength: r.strength,
    expectedQueries: main.rows.rows,
  });
}

function copyScores(scores: ProbeScores): ProbeScores {
  return Object.fromEntries(
    Object.entries(scores).map(([k, v]) => [k, (v as Float64Array).slice()]),
  ) as unknown as ProbeScores;
}

/**
 * Scores every row of the streamed embeddings with the probe on `r`'s observations; `fullPass` says
 * whether the file was read (false: the same probe as last time). `score` is called with the fitted
 * probe for anything else to score (the OOD set) before it is disposed.
 */
export async function scoreStreamedMain<T>(
  engine: ProbeEngine,
  main: StreamedMain,
  r: StreamedProbeRequest,
  c: HandlerContext<never>,
  total: number,
  alsoScore: (probe: Probe) => Promise<T>,
): Promise<{ scores: ProbeScores; space: string; observationCount: number; fullPass: boolean; also: T }> {
  const key = JSON.stringify([r.epsilon, r.strength, Array.from(r.observations), Array.from(r.labels)]);
  c.progress({ stage: 'reading the observations', done: 0, total: 1 });
  const probe = await fitStreamedProbe(engine, main, r);
  try {
    const space = probe.space;
    let last = main.last;
    const fullPass = last?.key !== key;
    if (!last || fullPass) {
      main.last = undefined;
      const scores = await scoreStreamed(probe, main.rows, {
        signal: c.signal,
        onProgress: ({ done }) => c.progress({ stage: 'scoring (reading the file)', done, total }),
      });
      last = { key, scores, space };
      main.last = last;
    }
    const also = await alsoScore(probe);
    // The kept columns stay here; the page gets copies (results are transferred).
    return { scores: copyScores(last.scores), space, observationCount: probe.observationCount, fullPass, also };
  } finally {
    probe.dispose();
  }
}

/** The map of the streamed embeddings: PCA of a sample of rows; rows outside the sample are NaN. */
export async function streamedMap(
  engine: ProbeEngine,
  main: StreamedMain,
  c: HandlerContext<never>,
): Promise<{ x: Float64Array; y: Float64Array; explained: [number, number]; totalVariance: number }> {
  const n = main.rows.rows;
  const sample = sampleRowIndices(n);
  c.progress({ stage: 'reading a sample for the map', done: 0, total: sample.length });
  const rows: Matrix = await main.rows.gatherRows(sample);
  const pc = principalComponents(engine, rows, { k: 2, onProgress: c.progress });
  const x = new Float64Array(n).fill(NaN),
    y = new Float64Array(n).fill(NaN);
  sample.forEach((row, i) => {
    x[row] = pc.scores[2 * i];
    y[row] = pc.scores[2 * i + 1];
  });
  return { x, y, explained: [pc.explainedVariance[0], pc.explainedVariance[1]], totalVariance: pc.totalVariance };
}
