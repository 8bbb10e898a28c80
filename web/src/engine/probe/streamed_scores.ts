// Scoring queries that are never all in the wasm heap: a source hands out rows a chunk at a time
// (e.g. read from a file too large for memory), each chunk is copied into the heap, scored by the core
// and freed, and only the seven score columns of every row are kept (56 MB for 1,000,000 rows). The
// next chunk is read while the current one is scored. The numbers are the core's, the same as
// probe.score gives for the rows held whole; the core also refuses non-finite values (a source may name
// them better: nonFiniteError).
//
//   const scores = await scoreStreamed(probe, { rows, cols, readRows: (first, count) => ... }, { signal, onProgress });
import { GpprobeError } from '../errors.ts';
import type { Matrix } from '../matrix.ts';
import { emptyScores, type Probe, type ProbeScores, type ScoreAsyncOptions } from './probe_engine.ts';

/** Rows that can be read a chunk at a time. */
export interface RowSource {
  rows: number;
  cols: number;
  /** Bytes per value (4: float32, 8: float64), to size chunks. */
  dtype: 32 | 64;
  readRows(first: number, count: number): Promise<Matrix>;
  /**
   * The error that names the first non-finite value of `rows` (the source's rows from `first`) better
   * than the core can (the core counts rows from the chunk's start), or null.
   */
  nonFiniteError?(rows: Matrix, first: number): Error | null;
}

/** Rows per chunk: about `bytes` of the source's values (16 MB by default), at least 256. */
export function chunkRowsFor(source: { cols: number; dtype: 32 | 64 }, bytes = 16 * 2 ** 20): number {
  return Math.max(256, Math.floor(bytes / (source.cols * (source.dtype / 8))));
}

/**
 * Calls `run` on every chunk of `source` in order (options.chunkRows rows, default chunkRowsFor), the
 * next chunk read while `run` works on this one; progress (`stage`, rows done) after each chunk, and an
 * aborted `signal` stops it between chunks with code "cancelled".
 */
export async function forEachChunk(
  source: RowSource,
  stage: string,
  options: ScoreAsyncOptions,
  run: (rows: Matrix, first: number) => void | Promise<void>,
): Promise<void> {
  const n = source.rows;
  const chunk = Math.max(1, Math.floor(options.chunkRows ?? chunkRowsFor(source)));
  const read = (first: number): Promise<Matrix> | null => {
    if (first >= n) return null;
    const pending = source.readRows(first, Math.min(chunk, n - first));
    pending.catch(() => undefined); // awaited below, unless an earlier chunk stops the pass
    return pending;
  };
  let next = read(0);
  for (let first = 0; first < n; first += chunk) {
    const rows = await next!;
    if (options.signal?.aborted)
      throw new GpprobeError('cancelled', `${stage} cancelled after ${first} of ${n} queries`);
    next = read(first + chunk);
    try {
      await run(rows, first);
    } catch (error) {
      // The core refuses non-finite values; the source names the element by its place in the whole.
      throw (
        (error instanceof GpprobeError && error.code === 'non_finite' && source.nonFiniteError?.(rows, first)) || error
      );
    }
    options.onProgress?.({ stage, done: first + rows.rows, total: n });
  }
}

/** Every row of `source` scored by `probe`, chunk by chunk (forEachChunk: progress, cancel). */
export async function scoreStreamed(
  probe: Probe,
  source: RowSource,
  options: ScoreAsyncOptions = {},
): Promise<ProbeScores> {
  const scores = emptyScores(source.rows);
  await forEachChunk(source, 'scoring', options, (rows, first) => {
    const part = probe.score(rows);
    for (const key of Object.keys(scores) as (keyof ProbeScores)[]) scores[key].set(part[key], first);
  });
  return scores;
}

/** Every row's expected knowledge gain (probe.knowledgeGainAsync) of `source`, chunk by chunk. */
export async function knowledgeGainStreamed(
  probe: Probe,
  source: RowSource,
  options: ScoreAsyncOptions = {},
): Promise<Float64Array> {
  const gain = new Float64Array(source.rows);
  await forEachChunk(source, 'knowledge gain', options, async (rows, first) => {
    gain.set(await probe.knowledgeGainAsync(rows, { chunkRows: rows.rows }), first);
  });
  return gain;
}
